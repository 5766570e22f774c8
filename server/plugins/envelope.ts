import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import type { ErrorEnvelope } from '../../contract/envelope';
import type { Lang } from '../../contract/errors';
import { ERROR_CODES, MESSAGES } from '../../contract/errors';
import { isDatabaseUnavailable } from '../db/availability';
import { ApiError, INPUT_ERROR_CODES, isMessageKey, SERVER_MESSAGES, ValidationFailure } from '../http/errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** From Accept-Language: the first of zh, en and pt it prefers, else 'zh'. */
    lang: Lang;
  }
}

/** The first of zh / en / pt in the header's preference order; Chinese when none is named. */
export function languageOf(header: string | undefined): Lang {
  if (!header) return 'zh';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
    if (tag === 'pt' || tag.startsWith('pt-')) return 'pt';
  }
  return 'zh';
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function validationFailureOf(error: z.ZodError, part: string, data: unknown): ValidationFailure {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : part;
  if (!issue) return new ValidationFailure(field, SERVER_MESSAGES.invalid);
  if (isMessageKey(issue.message)) return new ValidationFailure(field, MESSAGES[issue.message]);
  const input = valueAt(data, issue.path);
  const missing = issue.code === 'invalid_type' && (input === undefined || input === null);
  return new ValidationFailure(field, missing ? SERVER_MESSAGES.required : SERVER_MESSAGES.invalid);
}

const UNSAFE_TEXT_LIMIT_DEPTH = 32;
/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSAFE_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The path of the first string (or object key) in `value` holding a NUL byte or an unpaired UTF-16 surrogate: neither
 * can be stored in PostgreSQL text (a NUL fails the query) nor shown, so no route accepts them.
 */
export function unsafeTextPath(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return UNSAFE_TEXT.test(value) ? path : null;
  if (typeof value !== 'object' || value === null || depth > UNSAFE_TEXT_LIMIT_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    if (UNSAFE_TEXT.test(key)) return [...path, key];
    const found = unsafeTextPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

function send(reply: FastifyReply, code: number, msg: string, data: ErrorEnvelope['data']) {
  return reply.code(code).type('application/json; charset=utf-8').send({ code, msg, data } satisfies ErrorEnvelope);
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  return send(reply, error.code, error.localized(request.lang), error.field ? { field: error.field } : null);
}

/**
 * Validation with zod schemas from contract/, the one error handler, and the request language.
 * Routes declare `schema: { body, querystring, params, headers }` as zod schemas; the parsed (coerced, defaulted)
 * values replace the raw ones. A route's 200 schema (server/http/route.ts: the endpoint's answer in the envelope) is
 * parsed before the answer is sent: only what the contract declares goes out, and an answer that breaks it fails as a
 * 500 whose log names the endpoint and the first wrong field.
 */
export const envelopePlugin = fp(async function envelopePlugin(app: FastifyInstance) {
  app.decorateRequest('lang', 'zh');
  app.addHook('onRequest', async (request) => {
    request.lang = languageOf(request.headers['accept-language']);
  });

  // Before any route's schema, and for routes without one: every string of the query, path and JSON body.
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['querystring', request.query], ['params', request.params], ['body', request.body]] as const) {
      const path = unsafeTextPath(value);
      if (path) throw new ValidationFailure(path.length > 0 ? path.join('.') : part, SERVER_MESSAGES.unsafeText);
    }
  });

  app.setValidatorCompiler(({ schema, httpPart }) => {
    const zodSchema = schema as unknown as z.ZodType;
    return (data: unknown) => {
      const input = data ?? (httpPart === 'body' ? undefined : {});
      const result = zodSchema.safeParse(input);
      return result.success ? { value: result.data } : { error: validationFailureOf(result.error, httpPart ?? 'body', input) };
    };
  });
  app.setSerializerCompiler(({ schema, method, url }) => {
    const zodSchema = schema as unknown as z.ZodType;
    return (data: unknown) => {
      const result = zodSchema.safeParse(data);
      if (result.success) return JSON.stringify(result.data);
      const issue = result.error.issues[0];
      throw new Error(`the answer of ${method} ${url} breaks its contract at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'invalid'}`);
    };
  });

  app.setErrorHandler((error: FastifyError | ApiError | ValidationFailure, request, reply) => {
    const lang = request.lang ?? 'zh';
    if (error instanceof ApiError) {
      if (error.code >= 500 && !INPUT_ERROR_CODES.has(error.code)) request.log.error({ err: error, userId: request.user?.id }, 'request failed');
      return sendError(request, reply, error);
    }
    if (error instanceof ValidationFailure) {
      return send(reply, 400, `${error.field}: ${error.text[lang]}`, { field: error.field });
    }
    // The database away (a restart, a failover): a failure the browser retries, said as such, not an internal error.
    // The request's writes are lost whole: each that must stand with another runs in one transaction.
    if (isDatabaseUnavailable(error)) {
      app.database.availability.failed(error);
      request.log.warn({ err: error, method: request.method, url: request.url }, 'database unavailable');
      return send(reply, ERROR_CODES.databaseUnavailable, MESSAGES.databaseUnavailable[lang], null);
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      // Internals stay in the log, with enough context to find the request.
      request.log.error({ err: error, method: request.method, url: request.url, userId: request.user?.id }, 'request failed');
      return send(reply, 500, MESSAGES.serverError[lang], null);
    }
    if (status === 404) return send(reply, 404, MESSAGES.notFound[lang], null);
    if (status === 429) return send(reply, 429, MESSAGES.tooManyRequests[lang], null);
    // Fastify's own 4xx (malformed JSON, wrong content type, body too large): a general, translated text.
    return send(reply, status, MESSAGES.invalidInput[lang], null);
  });
});
