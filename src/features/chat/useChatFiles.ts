import { useEffect, useMemo, useRef } from 'react';
import { CHAT_UPLOAD_PATHS, storedNameOfUrl } from '@contract/chatUpload';
import { uploadConversation } from './adapters';
import type { DataClient } from '@workers/client';
import type { MediaResolver } from './widget/media';

/**
 * Attachments on our server need the session: the worker fetches them and the page shows them as object URLs,
 * kept for the page's life (a conversation scrolled back and forth does not fetch twice). Another site's picture is
 * fetched by our server when the reader asks (issue 27), named with the conversation it was sent in.
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
  return useMemo(() => {
    /** The object URL of `key`'s bytes, fetched once; a failed fetch is forgotten so a retry fetches again. */
    const objectUrl = (key: string, fetchBytes: () => Promise<{ bytes: ArrayBuffer; contentType: string }>) => {
      let loading = cache.current.get(key);
      if (!loading) {
        loading = fetchBytes().then(({ bytes, contentType }) => URL.createObjectURL(new Blob([bytes], { type: contentType })));
        loading.catch(() => cache.current.delete(key));
        cache.current.set(key, loading);
      }
      return loading;
    };
    const resolver: MediaResolver = {
      handles: (url) => url.startsWith(`${CHAT_UPLOAD_PATHS.file}/`) && storedNameOfUrl(url) !== null,
      resolve: (url) => objectUrl(url, () => client.chat.file(url)),
      external: (url, chat) => {
        const conversation = uploadConversation(chat);
        if (!conversation) return Promise.reject(new Error('no conversation'));
        return objectUrl(`${conversation} ${url}`, () => client.chat.externalImage(url, conversation));
      },
    };
    return resolver;
  }, [client]);
}
