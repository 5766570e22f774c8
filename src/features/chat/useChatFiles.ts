import { useEffect, useMemo, useRef } from 'react';
import { CHAT_UPLOAD_PATHS, storedNameOfUrl } from '@contract/chatUpload';
import type { DataClient } from '@workers/client';
import type { MediaResolver } from './widget/media';

/**
 * Attachments on our server need the session: the worker fetches them and the page shows them as object URLs,
 * kept for the page's life (a conversation scrolled back and forth does not fetch twice).
 */
export function useChatFiles(client: DataClient): MediaResolver {
  const cache = useRef(new Map<string, Promise<string>>());
  useEffect(() => {
    const urls = cache.current;
    return () => {
      for (const url of urls.values()) void url.then((u) => URL.revokeObjectURL(u), () => undefined);
      urls.clear();
    };
  }, []);
  return useMemo(
    () => ({
      handles: (url) => url.startsWith(`${CHAT_UPLOAD_PATHS.file}/`) && storedNameOfUrl(url) !== null,
      resolve: (url) => {
        let loading = cache.current.get(url);
        if (!loading) {
          loading = client.chat.file(url).then(({ bytes, contentType }) => URL.createObjectURL(new Blob([bytes], { type: contentType })));
          loading.catch(() => cache.current.delete(url));
          cache.current.set(url, loading);
        }
        return loading;
      },
    }),
    [client],
  );
}
