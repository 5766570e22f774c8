import { z } from 'zod';
import { queryInt } from './fields';
import { lazySchema } from './lazySchema';

/**
 * Every answer of the API (RuoYi-style envelope): success is HTTP 200 with `{ code: 200, msg, data }`;
 * errors carry the spec's code both as HTTP status and as `code`, and `msg` says what went wrong
 * (for 400 it names the field).
 */
export type Envelope<T> = { code: number; msg: string; data: T };

export type SuccessEnvelope<T> = { code: 200; msg: string; data: T };

export type ErrorEnvelope = { code: number; msg: string; data: null | { field?: string } };

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), msg: z.string(), data });

/** Paged list query (the spec's table query state): `page` from 1, `rows` per page. */
export const pageQuerySchema = lazySchema(() => z.object({
  page: queryInt(1, 1_000_000).default(1),
  rows: queryInt(1, 1000).default(20),
}));
export type PageQuery = z.infer<typeof pageQuerySchema>;

export type Page<T> = { list: T[]; total: number };

export const AUTH_HEADERS = { token: 'x-token', userId: 'x-user-id' } as const;

/** The httpOnly cookie that carries the refresh credential (path /api). */
export const REFRESH_COOKIE = 'refresh_token';
