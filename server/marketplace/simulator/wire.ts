import type { z } from 'zod';
import { badRequest } from './errors';

/** What every simulated Ozon area shares: Ozon's wire conventions (times, cursors, limits) and the state bounds. */

export const iso = (ms: number) => new Date(ms).toISOString();
export const encodeCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export function decodeCursor<T>(cursor: unknown): T | undefined {
  if (typeof cursor !== 'string' || cursor === '') return undefined;
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString()) as T;
  } catch {
    throw badRequest('invalid cursor');
  }
}
export function checkLimit(limit: unknown, max: number, required = true): number {
  if (limit === undefined || limit === null) {
    if (required) throw badRequest(`limit is required (1..${max})`);
    return Math.min(100, max);
  }
  const n = Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`limit must be between 1 and ${max}`);
  return n;
}
export const parseTime = (value: unknown, field: string): number => {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) throw badRequest(`${field} must be a date-time`);
  return t;
};
export const asNumbers = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isFinite(n)) : []);
export const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/**
 * Bounds on what a shop holds, so no sequence of requests grows the process without end (a simulator reachable by
 * anyone who reads the README's keys). Past a bound the oldest goes, as an old chat or task ages out on Ozon.
 */
export const SIM_BOUNDS = {
  /** Messages kept per chat (its history shows the newest). */
  messagesPerChat: 1_000,
  /** Chats per shop; /v1/chat/start past it drops the oldest buyer chat. */
  chats: 5_000,
  /** Import and label tasks kept per shop; an older task answers 'task not found'. */
  tasks: 1_000,
  /** A sent file's name, kept as the message's text (the file itself is not kept). */
  fileNameChars: 255,
} as const;

/** Appends to a bounded list, dropping the oldest entries past `max`. */
export function pushBounded<T>(list: T[], item: T, max: number) {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
/** Sets a key of a bounded map, dropping the oldest keys (insertion order) past `max`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number) {
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}

/**
 * What a simulated call answers: the input of the client's schema for it (../ozon/schemas.ts), so an answer the
 * client could not read fails the type check here, not a sync at run time.
 */
export type Answer<S extends z.ZodType> = z.input<S>;
