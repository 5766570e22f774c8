import { createContext, useContext, useEffect, useState } from 'react';

/**
 * Some attachment addresses need the session to be read (the app's /api/chat/file/..., which an <img> cannot send
 * headers to). The host says which, and turns them into addresses the browser can load (object URLs).
 */
export type MediaResolver = {
  handles: (url: string) => boolean;
  resolve: (url: string) => Promise<string>;
};

const MediaContext = createContext<MediaResolver | null>(null);

export const MediaProvider = MediaContext.Provider;

export function useMediaResolver(): MediaResolver | null {
  return useContext(MediaContext);
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
