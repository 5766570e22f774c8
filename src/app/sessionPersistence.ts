import { readCookie, removeCookie, writeCookie } from './cookieJar';
import type { StoredSession } from '@machines/sessionMachine';

/**
 * Where the session survives a reload (seller-tool §4): the token and user id in the cookies Admin-Token and
 * Admin-MaxId, the rest in local storage under the keys the original used.
 */
export const TOKEN_COOKIE = 'Admin-Token';
export const ID_COOKIE = 'Admin-MaxId';
export const STORAGE_KEYS = {
  name: 'userName',
  right: 'right',
  id: 'userId',
  validTime: 'validTime',
  isAp: 'isAp',
  relative_id: 'relative_id',
  auto: 'auto',
} as const;

const cookieOptions = { sameSite: 'lax' } as const;

export function readStoredSession(): StoredSession | null {
  const token = readCookie(TOKEN_COOKIE);
  const id = Number(readCookie(ID_COOKIE));
  if (!token || !Number.isInteger(id) || id <= 0) return null;
  const get = (key: keyof typeof STORAGE_KEYS) => localStorage.getItem(STORAGE_KEYS[key]);
  const validTime = Number(get('validTime'));
  const relative = Number(get('relative_id'));
  return {
    token,
    id,
    name: get('name') ?? '',
    right: get('right') ?? '0',
    validTime: get('validTime') && Number.isFinite(validTime) ? validTime : null,
    isAp: get('isAp') === 'true',
    relative_id: get('relative_id') && Number.isInteger(relative) ? relative : null,
    auto: get('auto') ?? '',
  };
}

export function writeStoredSession(session: StoredSession): void {
  writeCookie(TOKEN_COOKIE, session.token, cookieOptions);
  writeCookie(ID_COOKIE, String(session.id), cookieOptions);
  const set = (key: keyof typeof STORAGE_KEYS, value: string | number | boolean | null) => {
    if (value === null) localStorage.removeItem(STORAGE_KEYS[key]);
    else localStorage.setItem(STORAGE_KEYS[key], String(value));
  };
  set('name', session.name);
  set('right', session.right);
  set('id', session.id);
  set('validTime', session.validTime);
  set('isAp', session.isAp);
  set('relative_id', session.relative_id);
  set('auto', session.auto);
}

export function writeToken(token: string): void {
  writeCookie(TOKEN_COOKIE, token, cookieOptions);
}

export function writeAuto(auto: string): void {
  localStorage.setItem(STORAGE_KEYS.auto, auto);
}

export function clearStoredSession(): void {
  removeCookie(TOKEN_COOKIE);
  removeCookie(ID_COOKIE);
  for (const key of Object.values(STORAGE_KEYS)) localStorage.removeItem(key);
}
