import { PictureOutlined } from '@ant-design/icons';
import { Image, Skeleton, Tooltip } from 'antd';
import { useEffect, useState, type CSSProperties } from 'react';
import { isApiFailure } from '@workers/api';
import type { DataClient } from '@workers/client';
import { useDataClient } from '@/app/dataClient';
import { pictureUrl } from '../pictureUrl';
import { useComponentTexts } from '../useComponentTexts';

/**
 * A picture that may be on another site (a 1688 or Ozon product picture): the page's `img-src 'self'` keeps the
 * browser from loading it, and it should not tell that site the seller's address, so the server's image proxy
 * fetches it and the page shows the bytes as an object URL. The app's own and the simulator's pictures load as they are.
 */

/** Object URLs by picture address, for the page's life; the oldest are let go past the bound. */
const MAX_CACHED = 400;
const cache = new Map<string, Promise<string>>();

function proxied(client: DataClient, url: string): Promise<string> {
  let loading = cache.get(url);
  if (loading) {
    cache.delete(url);
    cache.set(url, loading);
    return loading;
  }
  loading = client.images.external(url).then(({ bytes, contentType }) => URL.createObjectURL(new Blob([bytes], { type: contentType })));
  // A failure is forgotten, so showing the picture again asks again.
  loading.catch(() => cache.delete(url));
  cache.set(url, loading);
  while (cache.size > MAX_CACHED) {
    const [oldest, oldestLoading] = cache.entries().next().value!;
    cache.delete(oldest);
    void oldestLoading.then((u) => URL.revokeObjectURL(u), () => undefined);
  }
  return loading;
}

/** Whether the browser may load this address itself: this origin's (after pictureUrl), data: and blob: addresses. */
function isOwn(src: string): boolean {
  if (!/^(https?:)?\/\//i.test(src)) return true;
  try {
    return new URL(src, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

type Shown = { state: 'loading' } | { state: 'shown'; url: string } | { state: 'failed'; reason: string };

/** What to show for `src`: at once for the app's own pictures, through the proxy for another site's. */
export function useProxiedImage(src: string): Shown {
  const client = useDataClient();
  const own = pictureUrl(src);
  const direct = isOwn(own);
  const [shown, setShown] = useState<Shown>(direct ? { state: 'shown', url: own } : { state: 'loading' });
  useEffect(() => {
    if (direct) {
      setShown({ state: 'shown', url: own });
      return;
    }
    let live = true;
    setShown({ state: 'loading' });
    proxied(client, own).then(
      (url) => live && setShown({ state: 'shown', url }),
      (error: unknown) => live && setShown({ state: 'failed', reason: isApiFailure(error) ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [client, own, direct]);
  return shown;
}

export type ProxiedImageProps = {
  src: string;
  width: number;
  height: number;
  alt?: string;
  style?: CSSProperties;
  /** Click to see it large (antd's preview); default on. */
  preview?: boolean;
};

/** antd's Image for a picture wherever it is (see the top of this file); a placeholder while it loads, the reason when it cannot. */
export function ProxiedImage({ src, width, height, alt = '', style, preview = true }: ProxiedImageProps) {
  const t = useComponentTexts();
  const shown = useProxiedImage(src);
  if (shown.state === 'shown') return <Image src={shown.url} width={width} height={height} alt={alt} preview={preview} style={{ objectFit: 'cover', ...style }} />;
  if (shown.state === 'loading') return <Skeleton.Image active style={{ width, height }} aria-label={t('picture.loading')} />;
  return (
    <Tooltip title={t('picture.failed', { reason: shown.reason })}>
      <span
        role="img"
        aria-label={t('picture.failed', { reason: shown.reason })}
        style={{ width, height, display: 'inline-flex', alignItems: 'center', justifyContent: 'center', background: '#fafafa', border: '1px dashed #d9d9d9', borderRadius: 4, color: '#bfbfbf', ...style }}
      >
        <PictureOutlined />
      </span>
    </Tooltip>
  );
}
