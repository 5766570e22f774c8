import { createContext, useContext, useEffect, useState } from 'react';
import type { Chat } from '@contract/chatWidget';
import type { Translate } from './translate';

/**
 * Some attachment addresses need the session to be read (the app's /api/chat/file/..., which an <img> cannot send
 * headers to). The host says which, and turns them into addresses the browser can load (object URLs).
 */
export type MediaResolver = {
  handles: (url: string) => boolean;
  resolve: (url: string) => Promise<string>;
  /**
   * Another site's picture in a message of `chat` (issue 27), fetched for the reader by the host's server once they
   * ask. Without it, such a picture is only a link the reader may open.
   */
  external?: (url: string, chat: Pick<Chat, 'id' | 'type'>) => Promise<string>;
};

const MediaContext = createContext<MediaResolver | null>(null);

export const MediaProvider = MediaContext.Provider;

export function useMediaResolver(): MediaResolver | null {
  return useContext(MediaContext);
}

/** What a message's external picture needs from around it: the conversation it is in, and the widget's texts. */
export type MessageScope = { chat: Pick<Chat, 'id' | 'type'>; t: Translate };

const MessageScopeContext = createContext<MessageScope | null>(null);

export const MessageScopeProvider = MessageScopeContext.Provider;

export function useMessageScope(): MessageScope | null {
  return useContext(MessageScopeContext);
}

/** The loadable address of `url`: itself, or once resolved, the host's; null while resolving or when it failed. */
export function useMediaUrl(url: string | null): string | null {
  const resolver = useMediaResolver();
  const managed = url !== null && resolver !== null && resolver.handles(url);
  const [resolved, setResolved] = useState<{ url: string; loadable: string | null } | null>(null);
  useEffect(() => {
    if (!managed || !url || !resolver) return;
    let live = true;
    resolver.resolve(url).then(
      (loadable) => live && setResolved({ url, loadable }),
      () => live && setResolved({ url, loadable: null }),
    );
    return () => {
      live = false;
    };
  }, [managed, url, resolver]);
  if (!managed) return url;
  return resolved?.url === url ? resolved.loadable : null;
}
