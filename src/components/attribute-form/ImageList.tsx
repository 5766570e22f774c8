import { CloseOutlined, DeleteOutlined, LeftOutlined, LoadingOutlined, RightOutlined, StarOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Input, Progress, Tag, Tooltip, Typography, Upload } from 'antd';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { CARD_LIMITS } from '@contract/create';
import { OZON_IMAGE_RULES } from '@contract/edit';
import { pictureUploadMachine, selectIsUploading, selectPictureUploads, selectUploadProgress, type PictureUpload, type UploadProblem } from '@machines/pictureUploadMachine';
import { appActorOptions } from '@/app/createAppActor';
import { ProxiedImage } from '../picture/ProxiedImage';
import { useLatest } from '../useLatest';

type ImageListProps = {
  images: string[];
  onChange: (images: string[]) => void;
  /** Stores a picked file and answers its public link, or throws the reason; absent: pictures are added by link only. */
  onUpload?: (file: File) => Promise<string>;
  disabled?: boolean;
};

const sameUploads = (a: PictureUpload[], b: PictureUpload[]) => a.length === b.length && a.every((u, i) => u.id === b[i]!.id && u.state === b[i]!.state);
const sameProgress = (a: { done: number; total: number } | null, b: { done: number; total: number } | null) => a?.done === b?.done && a?.total === b?.total;

const move = (list: string[], from: number, to: number) => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
};

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;

/** The card's pictures in Ozon's order: the first is the main one; add by link or upload, reorder, remove. */
export function ImageList({ images, onChange, onUpload, disabled }: ImageListProps) {
  const { t } = useTranslation('attributeForm');
  const [links, setLinks] = useState('');
  const latest = useLatest({ images, onChange, onUpload });
  const uploader = useActorRef(
    pictureUploadMachine.provide({ actors: { upload: fromPromise(({ input }) => latest.current.onUpload!(input.file)) } }),
    { ...appActorOptions(), input: { cardCount: images.length } },
  );
  const pending = useSelector(uploader, selectPictureUploads, sameUploads);
  const inFlight = useSelector(uploader, selectIsUploading);
  const progress = useSelector(uploader, selectUploadProgress, sameProgress);
  useEffect(() => uploader.send({ type: 'card.changed', count: images.length }), [uploader, images.length]);
  // A stored picture joins the card as it is when the answer comes, not as it was when the upload began.
  useEffect(() => {
    const subscription = uploader.on('upload.stored', ({ url }) => {
      const { images: now, onChange: change } = latest.current;
      if (!now.includes(url)) change([...now, url]);
    });
    return () => subscription.unsubscribe();
  }, [uploader, latest]);
  const add = () => {
    const fresh = links
      .split(/\s+/)
      .map((l) => l.trim())
      .filter((l) => l && !images.includes(l));
    if (fresh.length) onChange([...images, ...fresh]);
    setLinks('');
  };
  const pick = (files: File[]) => {
    if (onUpload && files.length > 0) uploader.send({ type: 'upload.pick', files });
  };
  const problemText = (problem: UploadProblem | null) => {
    switch (problem?.kind) {
      case 'wrongType':
        return t('uploadWrongType');
      case 'tooLarge':
        return t('uploadTooLarge', { size: megabytes(problem.size), max: megabytes(OZON_IMAGE_RULES.maxBytes) });
      case 'cardFull':
        return t('uploadOverCap', { max: CARD_LIMITS.images });
      case 'refused':
        return problem.reason;
      default:
        return '';
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
          <Upload
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            multiple
            showUploadList={false}
            disabled={disabled || images.length >= CARD_LIMITS.images}
            beforeUpload={(file, files) => {
              // antd calls this once per file with the whole pick: take the pick once, at its first file.
              if (file === files[0]) pick(files);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={inFlight} disabled={disabled || images.length >= CARD_LIMITS.images}>
              {inFlight ? t('uploading') : t('upload')}
            </Button>
          </Upload>
        ) : null}
      </Flex>
      <Typography.Text type="secondary">
        {t('imageCount', { count: images.length, max: CARD_LIMITS.images })} · {t('imagesHint', { max: CARD_LIMITS.images })}
        {onUpload ? ` · ${t('uploadHint', { size: megabytes(OZON_IMAGE_RULES.maxBytes), min: OZON_IMAGE_RULES.minSide, side: OZON_IMAGE_RULES.maxSide })}` : null}
      </Typography.Text>
      {progress ? (
        <Flex align="center" gap={8} style={{ maxWidth: 520 }}>
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
            {t('uploadProgress', progress)}
          </Typography.Text>
          <Progress percent={Math.round((progress.done / progress.total) * 100)} size="small" showInfo={false} aria-label={t('uploadProgress', progress)} />
        </Flex>
      ) : null}
      {pending.length > 0 ? (
        <Flex vertical gap={2} role="list" aria-label={t('uploads')}>
          {pending.map((p) => (
            <Flex key={p.id} role="listitem" align="center" gap={6}>
              {p.state === 'failed' ? (
                <>
                  <Typography.Text type="danger">{t('uploadFailedFile', { name: p.name, reason: problemText(p.problem) })}</Typography.Text>
                  <Button size="small" type="text" icon={<CloseOutlined />} aria-label={t('dismiss')} onClick={() => uploader.send({ type: 'upload.dismiss', id: p.id })} />
                </>
              ) : (
                <Typography.Text type="secondary">
                  {p.state === 'uploading' ? <LoadingOutlined /> : null} {p.name} · {p.state === 'uploading' ? t('uploading') : t('uploadWaiting')}
                </Typography.Text>
              )}
            </Flex>
          ))}
        </Flex>
      ) : null}
    </Flex>
  );
}
