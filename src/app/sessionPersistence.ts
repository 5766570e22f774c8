import { userInfoSchema, type UserInfo } from '@contract/session';
import type { StoredSession } from '@machines/sessionMachine';
import { readCookie, removeCookie, writeCookie } from './cookieJar';

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
  /** The user info last loaded for this login, with its user id: a reload shows the app with it while it is checked. */
  info: 'userInfo',
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
    info: readInfo(get('info'), id),
  };
}

/** The kept user info when it is this login's and reads as user info; anything else is as if none was kept. */
function readInfo(text: string | null, id: number): UserInfo | null {
  if (!text) return null;
  try {
    const kept = JSON.parse(text) as { id?: unknown; info?: unknown };
    if (kept.id !== id) return null;
    const parsed = userInfoSchema.safeParse(kept.info);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeStoredInfo(id: number | null, info: UserInfo): void {
  if (id === null) return;
  localStorage.setItem(STORAGE_KEYS.info, JSON.stringify({ id, info }));
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
  // A new login's info comes with its own getInfo.
  set('info', null);
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
