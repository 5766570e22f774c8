import { DeleteOutlined, LeftOutlined, RightOutlined, StarOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Input, Tag, Tooltip, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CARD_LIMITS } from '@contract/create';
import { ProxiedImage } from '../picture/ProxiedImage';

type ImageListProps = {
  images: string[];
  onChange: (images: string[]) => void;
  /** Stores a picked file and answers its public link; absent: pictures are added by link only. */
  onUpload?: (file: File) => Promise<string>;
  disabled?: boolean;
};

const move = (list: string[], from: number, to: number) => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
};

/** The card's pictures in Ozon's order: the first is the main one; add by link or upload, reorder, remove. */
export function ImageList({ images, onChange, onUpload, disabled }: ImageListProps) {
  const { t } = useTranslation('attributeForm');
  const [links, setLinks] = useState('');
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const add = () => {
    const fresh = links
      .split(/\s+/)
      .map((l) => l.trim())
      .filter((l) => l && !images.includes(l));
    if (fresh.length) onChange([...images, ...fresh]);
    setLinks('');
  };
  const upload = async (file: File) => {
    if (!onUpload) return;
    setUploading(true);
    setUploadError(null);
    try {
      const url = await onUpload(file);
      onChange([...images, url]);
    } catch (error) {
      setUploadError(error instanceof Error ? error.message : String(error));
    } finally {
      setUploading(false);
    }
  };
  return (
    <Flex vertical gap={8}>
      {images.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noImages')} style={{ margin: 0 }} />
      ) : (
        <Flex wrap gap={8} role="list" aria-label={t('section.images')}>
          {images.map((url, i) => (
            <Flex key={url} vertical align="center" gap={4} role="listitem" style={{ width: 112, border: '1px solid #f0f0f0', borderRadius: 6, padding: 4 }}>
              <div style={{ position: 'relative' }}>
                <ProxiedImage src={url} width={100} height={100} style={{ borderRadius: 4 }} alt={String(i + 1)} />
                {i === 0 ? (
                  <Tag color="gold" style={{ position: 'absolute', top: 4, left: 4, margin: 0 }}>
                    {t('main')}
                  </Tag>
                ) : null}
              </div>
              <Flex gap={2}>
                <Tooltip title={t('setMain')}>
                  <Button size="small" type="text" icon={<StarOutlined />} aria-label={t('setMain')} disabled={disabled || i === 0} onClick={() => onChange(move(images, i, 0))} />
                </Tooltip>
                <Tooltip title={t('moveLeft')}>
                  <Button size="small" type="text" icon={<LeftOutlined />} aria-label={t('moveLeft')} disabled={disabled || i === 0} onClick={() => onChange(move(images, i, i - 1))} />
                </Tooltip>
                <Tooltip title={t('moveRight')}>
                  <Button size="small" type="text" icon={<RightOutlined />} aria-label={t('moveRight')} disabled={disabled || i === images.length - 1} onClick={() => onChange(move(images, i, i + 1))} />
                </Tooltip>
                <Tooltip title={t('removeImage')}>
                  <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('removeImage')} disabled={disabled} onClick={() => onChange(images.filter((_, j) => j !== i))} />
                </Tooltip>
              </Flex>
            </Flex>
          ))}
        </Flex>
      )}
      <Flex gap={8} align="start">
        <Input.TextArea
          aria-label={t('imageUrlPlaceholder')}
          placeholder={t('imageUrlPlaceholder')}
          autoSize={{ minRows: 1, maxRows: 4 }}
          value={links}
          disabled={disabled}
          onChange={(e) => setLinks(e.target.value)}
          style={{ maxWidth: 520 }}
        />
        <Button onClick={add} disabled={disabled || links.trim() === ''}>
          {t('addImages')}
        </Button>
        {onUpload ? (
          <Upload accept="image/jpeg,image/png" showUploadList={false} disabled={disabled || uploading} beforeUpload={(file) => (void upload(file), false)}>
            <Button icon={<UploadOutlined />} loading={uploading}>
              {uploading ? t('uploading') : t('upload')}
            </Button>
          </Upload>
        ) : null}
      </Flex>
      <Typography.Text type="secondary">
        {t('imageCount', { count: images.length, max: CARD_LIMITS.images })} · {t('imagesHint', { max: CARD_LIMITS.images })}
      </Typography.Text>
      {uploadError ? <Typography.Text type="danger">{t('uploadFailed', { reason: uploadError })}</Typography.Text> : null}
    </Flex>
  );
}
