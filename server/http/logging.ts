import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';
import type { LogLevel } from '../config';

const REDACTED = '[Redacted]';

/**
 * Where secrets sit in what the server logs: request and response headers, and the fields of any logged object that
 * carry a credential. pino's paths take one wildcard level; errors are cleaned by `withoutValues` below.
 */
export const REDACT_PATHS = [
  'req.headers["x-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...['password', 'oldPassword', 'newPassword', 'passwordHash', 'password_hash', 'token', 'refreshToken', 'ticket', 'apiKey', 'api_key', 'apiKeyEnc', 'api_key_enc', 'auto', 'passwordStamp', 'secretKey', 'cookie', 'authorization']
    .flatMap((key) => [key, `*.${key}`]),
];

/** Fields of database errors that quote the values of a statement (pg's `detail`: "Key (username)=(alice) ..."). */
const VALUE_FIELDS = ['detail', 'where', 'internalQuery', 'parameters'];

/**
 * A copy of `error` (and its causes) without the values it carries: a failed Drizzle query's message lists its
 * parameters (a NUL byte in a user's introduction once wrote the new user's password hash into the log), so only
 * the statement is kept.
 */
export function withoutValues(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 8) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(error)) copy[key] = (error as unknown as Record<string, unknown>)[key];
  if ('params' in error && 'query' in error) {
    const message = `Failed query: ${String(error.query)}`;
    copy.stack = typeof error.stack === 'string' ? error.stack.replace(error.message, message) : message;
    copy.message = message;
    delete copy.params;
  }
  for (const key of VALUE_FIELDS) if (key in copy) copy[key] = REDACTED;
  if (error.cause !== undefined) copy.cause = withoutValues(error.cause, depth + 1);
  return copy;
}

/** The server's logger: the level, the redactions, and errors logged without the values of their statements. */
export function loggerOptions(level: LogLevel, given?: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (given === false) return false;
  const base = { level, redact: { paths: REDACT_PATHS, censor: REDACTED }, serializers: { err: (error: Error) => stdSerializers.err(withoutValues(error) as Error) } };
  return typeof given === 'object' ? { ...base, ...given } : base;
}
