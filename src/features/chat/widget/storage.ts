import type { Chat } from '@contract/chatWidget';

/**
 * Browser storage the widget keeps (spec §4): keys prefixed IChat_, each value wrapped with its data type, content,
 * storage flag and time; session storage when the flag is set, local storage otherwise.
 */
export const STORAGE_PREFIX = 'IChat_';
export const CHANNELS_KEY = 'key_channels';

type Stored<T> = { dataType: string; content: T; type: boolean; datetime: number };

function area(session: boolean): Storage | null {
  try {
    return session ? window.sessionStorage : window.localStorage;
  } catch {
    // Storage can be switched off (private modes, sandboxed frames); the widget then simply forgets.
    return null;
  }
}

export function saveItem<T>(key: string, content: T, session = false): void {
  const value: Stored<T> = { dataType: typeof content, content, type: session, datetime: Date.now() };
  try {
    area(session)?.setItem(STORAGE_PREFIX + key, JSON.stringify(value));
  } catch {
    // Quota exceeded: keeping the previous value is the best we can do.
  }
}

export function loadItem<T>(key: string, session = false): T | null {
  const raw = area(session)?.getItem(STORAGE_PREFIX + key);
  if (!raw) return null;
  try {
    return (JSON.parse(raw) as Stored<T>).content;
  } catch {
    return null;
  }
}

export function removeItem(key: string, session = false): void {
  area(session)?.removeItem(STORAGE_PREFIX + key);
}

export const saveChannels = (channels: Chat[], session = false) => saveItem(CHANNELS_KEY, channels, session);
export const loadChannels = (session = false) => loadItem<Chat[]>(CHANNELS_KEY, session);
