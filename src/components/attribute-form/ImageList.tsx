import { CloseOutlined, DeleteOutlined, LeftOutlined, LoadingOutlined, RightOutlined, StarOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Input, Progress, Tag, Tooltip, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CARD_LIMITS } from '@contract/create';
import { OZON_IMAGE_RULES } from '@contract/edit';
import { reasonOf } from '@machines/batchOutcomes';
import { ProxiedImage } from '../picture/ProxiedImage';
import { useLatest } from '../useLatest';

type ImageListProps = {
  images: string[];
  onChange: (images: string[]) => void;
  /** Stores a picked file and answers its public link, or throws the reason; absent: pictures are added by link only. */
  onUpload?: (file: File) => Promise<string>;
  disabled?: boolean;
};

/** A picked file on its way: waiting its turn, being sent, or refused with the reason (the seller dismisses it). */
type PendingUpload = { id: number; name: string; state: 'waiting' | 'uploading' | 'failed'; reason?: string };

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
  const [pending, setPending] = useState<PendingUpload[]>([]);
  const [batch, setBatch] = useState({ done: 0, total: 0 });
  const nextId = useRef(0);
  const queue = useRef<{ id: number; file: File }[]>([]);
  const running = useRef(false);
  // An upload answers after an await: its picture joins the card as it is then, not as it was when it began.
  const latest = useLatest({ images, onChange, onUpload });
  const add = () => {
    const fresh = links
      .split(/\s+/)
      .map((l) => l.trim())
      .filter((l) => l && !images.includes(l));
    if (fresh.length) onChange([...images, ...fresh]);
    setLinks('');
  };
  const settle = (id: number, outcome: Partial<PendingUpload> | null) =>
    setPending((list) => (outcome ? list.map((p) => (p.id === id ? { ...p, ...outcome } : p)) : list.filter((p) => p.id !== id)));
  /** Sends the queued files one at a time, so the count shown is the count sent and each answer lands in order. */
  const drain = async () => {
    if (running.current) return;
    running.current = true;
    for (let next = queue.current.shift(); next; next = queue.current.shift()) {
      const { id, file } = next;
      settle(id, { state: 'uploading' });
      try {
        const url = await latest.current.onUpload!(file);
        const { images: now, onChange: change } = latest.current;
        if (now.length >= CARD_LIMITS.images) settle(id, { state: 'failed', reason: t('uploadOverCap', { max: CARD_LIMITS.images }) });
        else {
          if (!now.includes(url)) change([...now, url]);
          settle(id, null);
        }
      } catch (error) {
        settle(id, { state: 'failed', reason: reasonOf(error) });
      }
      setBatch((b) => ({ ...b, done: b.done + 1 }));
    }
    running.current = false;
  };
  /** Checks each picked file against Ozon's picture rules and the card's room before anything is sent. */
  const pick = (files: File[]) => {
    if (!onUpload || files.length === 0) return;
    const busy = pending.filter((p) => p.state !== 'failed').length;
    let room = CARD_LIMITS.images - images.length - busy;
    const picked: PendingUpload[] = [];
    for (const file of files) {
      const id = ++nextId.current;
      const refuse = (reason: string) => picked.push({ id, name: file.name, state: 'failed', reason });
      if (!(OZON_IMAGE_RULES.types as readonly string[]).includes(file.type)) refuse(t('uploadWrongType'));
      else if (file.size > OZON_IMAGE_RULES.maxBytes) refuse(t('uploadTooLarge', { size: megabytes(file.size), max: megabytes(OZON_IMAGE_RULES.maxBytes) }));
      else if (room <= 0) refuse(t('uploadOverCap', { max: CARD_LIMITS.images }));
      else {
        room -= 1;
        picked.push({ id, name: file.name, state: 'waiting' });
        queue.current.push({ id, file });
      }
    }
    const sending = picked.filter((p) => p.state === 'waiting').length;
    // A new batch starts its count when nothing is on its way; otherwise it joins the one running.
    setBatch((b) => (busy === 0 ? { done: 0, total: sending } : { ...b, total: b.total + sending }));
    setPending((list) => [...list.filter((p) => p.state !== 'failed'), ...picked]);
    void drain();
  };
  const inFlight = pending.some((p) => p.state !== 'failed');
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
      {inFlight && batch.total > 0 ? (
        <Flex align="center" gap={8} style={{ maxWidth: 520 }}>
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
            {t('uploadProgress', { done: batch.done, total: batch.total })}
          </Typography.Text>
          <Progress percent={Math.round((batch.done / batch.total) * 100)} size="small" showInfo={false} aria-label={t('uploadProgress', { done: batch.done, total: batch.total })} />
        </Flex>
      ) : null}
      {pending.length > 0 ? (
        <Flex vertical gap={2} role="list" aria-label={t('uploads')}>
          {pending.map((p) => (
            <Flex key={p.id} role="listitem" align="center" gap={6}>
              {p.state === 'failed' ? (
                <>
                  <Typography.Text type="danger">{t('uploadFailedFile', { name: p.name, reason: p.reason })}</Typography.Text>
                  <Button size="small" type="text" icon={<CloseOutlined />} aria-label={t('dismiss')} onClick={() => settle(p.id, null)} />
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
