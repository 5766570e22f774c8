import { DeleteOutlined, LinkOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Space, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SKU_IMAGES_MAX } from '@contract/products';
import { pictureUrl } from '@/components/pictureUrl';

type ImagePickerProps = {
  value: string[];
  onChange: (images: string[]) => void;
  /** Stores a picked file where Ozon can fetch it; answers its address, or throws the reason. */
  upload: (file: File) => Promise<string>;
};

const isWebAddress = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

const reasonOf = (error: unknown) => (typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error));

/** The pictures of the image action: added by address or uploaded, in order (the first is the card's main picture). */
export function ImagePicker({ value, onChange, upload }: ImagePickerProps) {
  const { t } = useTranslation('products');
  const [link, setLink] = useState('');
  const [uploading, setUploading] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const full = value.length >= SKU_IMAGES_MAX;
  const add = (url: string) => onChange(value.includes(url) ? value : [...value, url]);

  const addLink = () => {
    const url = link.trim();
    if (!isWebAddress(url)) return setProblem(t('imageAction.badLink'));
    setProblem(null);
    setLink('');
    add(url);
  };
  const addFile = async (file: File) => {
    setProblem(null);
    setUploading((n) => n + 1);
    try {
      add(await upload(file));
    } catch (error) {
      setProblem(`${file.name}: ${reasonOf(error)}`);
    } finally {
      setUploading((n) => n - 1);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <div className="product-image-picks" role="list" aria-label={t('imageAction.picked')}>
        {value.length === 0 && <Typography.Text type="secondary">{t('imageAction.none')}</Typography.Text>}
        {value.map((url, i) => (
          <div key={url} className="product-image-pick" role="listitem">
            <img src={pictureUrl(url)} alt="" />
            {i === 0 && <Tag color="blue" className="product-image-main">{t('imageAction.main')}</Tag>}
            <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`${t('imageAction.remove')} ${i + 1}`} onClick={() => onChange(value.filter((u) => u !== url))} />
          </div>
        ))}
      </div>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          prefix={<LinkOutlined />}
          aria-label={t('imageAction.link')}
          placeholder={t('imageAction.link')}
          value={link}
          disabled={full}
          onChange={(event) => setLink(event.target.value)}
          onPressEnter={addLink}
        />
        <Button onClick={addLink} disabled={full || link.trim() === ''}>{t('imageAction.add')}</Button>
      </Space.Compact>
      <Upload accept=".jpg,.jpeg,.png,image/jpeg,image/png" multiple showUploadList={false} disabled={full} beforeUpload={(file) => (void addFile(file), false)}>
        <Button icon={<UploadOutlined />} loading={uploading > 0} disabled={full}>{t('imageAction.upload')}</Button>
      </Upload>
      <Typography.Text type="secondary">{t('imageAction.rules', { max: SKU_IMAGES_MAX })}</Typography.Text>
      {problem && <Alert type="error" showIcon title={problem} />}
    </Space>
  );
}
