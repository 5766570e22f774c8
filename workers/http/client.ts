import { POLICY_FIELD, STEP_UP_FIELD } from '../../contract/accessPolicy';
import { AUTH_HEADERS } from '../../contract/envelope';
import { ERROR_CODES, MESSAGE_BY_CODE, message, type Lang, type MessageKey } from '../../contract/errors';
import type { ApiFailure, ApiFailureType, Credentials } from '../api';
import type { EventBus } from '../events';
import {
  ALTERNATE_BASES,
  API_BASE,
  DEFAULT_CALL_SETTINGS,
  fillPath,
  pathParams,
  type AnswerOf,
  type Endpoint,
  type EndpointSpec,
  type HttpMethod,
  type InputOf,
  type ResponseType,
} from '../../contract/endpoint';
import { SESSION_ENDPOINTS } from '../../contract/session';

/** Anything with zod's `parse`: answers are checked against the contract's schema when one is given. */
export type Parser<T> = { parse(value: unknown): T };

export type QueryValue = string | number | boolean | null | undefined;

/** What a caller may change of an endpoint's settings for one call. */
export type CallOverrides = {
  timeout?: number;
  retries?: number;
  silent?: boolean;
  /** Failures the caller shows itself (a page's own state for them): no message bar for these, the rest as usual. */
  shownByCaller?: readonly ApiFailureType[];
  /** A newer call with the same key aborts the older one (a cancellable endpoint's key is its path). */
  cancelKey?: string;
  signal?: AbortSignal;
};

type CallOptions<T = unknown> = {
  method: HttpMethod;
  /** Query string values; null and undefined are left out. */
  params?: Record<string, QueryValue>;
  /** Sent as JSON, except FormData, Blob and URLSearchParams, which go as they are. */
  body?: unknown;
  timeout?: number;
  retries?: number;
  retryDelay?: number;
  silent?: boolean;
  shownByCaller?: readonly ApiFailureType[];
  /** A newer call with the same key aborts the older one, which rejects with type 'Aborted'. */
  cancelKey?: string;
  signal?: AbortSignal;
  responseType?: ResponseType;
  swapBase?: boolean;
  /** The API base the path hangs under: '/api' by default, '' for files at the site root. */
  base?: string;
  /** false for a plain JSON file (version.json) that is not wrapped in the server's envelope. */
  envelope?: boolean;
  schema?: Parser<T>;
};

export type HttpClientOptions = {
  events: EventBus;
  /** Injectable for tests; the worker's own fetch by default. */
  fetch?: typeof fetch;
  /** '' in the browser: calls go to the page's own origin. */
  baseUrl?: string;
  /** Picks the alternate base before a retry of the copy and history calls. */
  random?: () => number;
  lang?: Lang;
};

type Resolved = {
  method: HttpMethod;
  timeout: number;
  retries: number;
  retryDelay: number;
  silent: boolean;
  responseType: ResponseType;
  swapBase: boolean;
  cancelKey: string | undefined;
  base: string;
  envelope: boolean;
};

type Outcome = { ok: true; value: unknown } | { ok: false; failure: ApiFailure; retryable: boolean };

/** Not in the spec; long enough for a slow network, short enough that calls waiting on it do not hang. */
const REFRESH_TIMEOUT_MS = 30_000;

const DATABASE_UNAVAILABLE = ERROR_CODES.databaseUnavailable;

const TYPE_BY_CODE: Partial<Record<number, ApiFailureType>> = {
  400: 'InvalidInput',
  401: 'Unauthorized',
  402: 'TokenExpired',
  404: 'NotFound',
  429: 'RateLimited',
  468: 'PageExpired',
  504: 'MarketplaceTimeout',
  507: 'DuplicateUser',
  508: 'CaptchaMissing',
  509: 'CaptchaWrong',
};

const ACCEPT_LANGUAGE: Record<Lang, string> = { zh: 'zh-CN,zh;q=0.9', en: 'en', pt: 'pt-BR,pt;q=0.9' };

type Envelope = { code: number; msg: string; data: unknown };

function asEnvelope(value: unknown): Envelope | null {
  if (typeof value !== 'object' || value === null) return null;
  const { code, msg, data } = value as Record<string, unknown>;
  if (typeof code !== 'number') return null;
  return { code, msg: typeof msg === 'string' ? msg : '', data };
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer
  );
}

function queryString(params: Record<string, QueryValue> | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined) search.append(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Thrown inside the client only; callers always get an ApiFailure. */
class AbortedError extends Error {}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The worker's HTTP client: speaks the server's `{ code, msg, data }` envelope, applies the spec's per-call timeouts,
 * retries and silence, refreshes an expired token once for every call that met it, and turns every failure into an
 * ApiFailure carrying the catalogue's text. It reports through events; the session machine decides what they mean.
 */
export class HttpClient {
  private readonly events: EventBus;
  private readonly fetchImpl: typeof fetch;
  private readonly baseUrl: string;
  private readonly random: () => number;
  private lang: Lang;
  private credentials: Credentials | null = null;
  /** Set once a refresh has failed: later 402s fail at once instead of refreshing again, until new credentials come. */
  private expired = false;
  private refreshing: Promise<void> | null = null;
  /** Calls waiting for the person's one-time code (a policy's step-up): settled by stepUpGiven or stepUpCancelled. */
  private stepUp: { promise: Promise<void>; resolve: () => void; reject: () => void } | null = null;
  private readonly inflight = new Map<string, AbortController>();
  private readonly credentialListeners = new Set<(credentials: Credentials | null) => void>();

  constructor(options: HttpClientOptions) {
    this.events = options.events;
    // Bound: a bare `fetch` called as a method of another object throws "Illegal invocation" in browsers.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.baseUrl = options.baseUrl ?? '';
    this.random = options.random ?? Math.random;
    this.lang = options.lang ?? 'zh';
  }

  setCredentials(credentials: Credentials | null): void {
    this.credentials = credentials;
    this.expired = false;
    for (const listener of this.credentialListeners) listener(credentials);
  }

  /** Login, logout and restored sessions (not token refreshes: those are the 'session.tokenRefreshed' event). */
  onCredentialsChange(listener: (credentials: Credentials | null) => void): () => void {
    this.credentialListeners.add(listener);
    return () => this.credentialListeners.delete(listener);
  }

  getCredentials(): Credentials | null {
    return this.credentials;
  }

  setLanguage(lang: Lang): void {
    this.lang = lang;
  }

  /** The person gave a one-time code (POST /user/otp/step-up answered): the calls that waited for it are replayed. */
  stepUpGiven(): void {
    this.stepUp?.resolve();
    this.stepUp = null;
  }

  /** The person closed the code dialog: the calls that waited for it fail with the policy's words. */
  stepUpCancelled(): void {
    this.stepUp?.reject();
    this.stepUp = null;
  }

  /** Joins the wait for a code under way, or asks the app for one ('session.stepUpNeeded'). */
  private awaitStepUp(text: string): Promise<void> {
    if (!this.stepUp) {
      let resolve!: () => void;
      let reject!: () => void;
      const promise = new Promise<void>((ok, fail) => {
        resolve = ok;
        reject = fail;
      });
      // Nobody may be waiting on it when cancelled (the call was aborted meanwhile).
      promise.catch(() => undefined);
      this.stepUp = { promise, resolve, reject };
      this.events.emit('session.stepUpNeeded', { message: text });
    }
    return this.stepUp.promise;
  }

  /** Aborts the call running under this cancel key, if any. */
  cancel(cancelKey: string): void {
    this.inflight.get(cancelKey)?.abort();
  }

  /**
   * One call of an endpoint object (contract/): method, path, settings and answer schema come from the object. The
   * input is the query of a GET or the JSON body of a POST (a FormData for a multipart endpoint); path parameters
   * are taken from it by name.
   */
  call<E extends Endpoint>(endpoint: E, ...[input, overrides]: undefined extends InputOf<E> ? [input?: InputOf<E>, overrides?: CallOverrides] : [input: InputOf<E>, overrides?: CallOverrides]): Promise<AnswerOf<E>> {
    const settings = { ...DEFAULT_CALL_SETTINGS, ...endpoint.settings };
    const names = pathParams(endpoint);
    const given: unknown = input;
    const form = typeof FormData !== 'undefined' && given instanceof FormData ? given : null;
    const fields: Record<string, unknown> = form || given === undefined ? {} : { ...(given as Record<string, unknown>) };
    const params: Record<string, string | number> = {};
    for (const name of names) {
      params[name] = fields[name] as string | number;
      delete fields[name];
    }
    const path = names.length > 0 ? fillPath(endpoint, params) : endpoint.path;
    const isGet = endpoint.method === 'GET';
    const raw = settings.responseType !== 'json';
    return this.request<AnswerOf<E>>(path, {
      method: endpoint.method,
      params: isGet ? (fields as Record<string, QueryValue>) : undefined,
      body: isGet ? undefined : (form ?? (given === undefined ? undefined : fields)),
      timeout: overrides?.timeout ?? settings.timeout,
      retries: overrides?.retries ?? settings.retries,
      retryDelay: settings.retryDelay,
      silent: overrides?.silent ?? settings.silent,
      shownByCaller: overrides?.shownByCaller,
      responseType: settings.responseType,
      swapBase: settings.swapBase,
      cancelKey: overrides?.cancelKey ?? (settings.cancellable ? endpoint.path : undefined),
      signal: overrides?.signal,
      base: endpoint.site ? '' : API_BASE,
      envelope: !endpoint.site,
      schema: raw || !endpoint.answer ? undefined : (endpoint.answer as Parser<AnswerOf<E>>),
    });
  }

  private async request<T>(path: string, options: CallOptions<T>): Promise<T> {
    const resolved = this.resolve(options);
    const call = this.begin(resolved.cancelKey, options.signal);
    try {
      const data = await this.run(path, options, resolved, call.signal);
      return options.schema ? this.check(options.schema, data, path, resolved.silent) : (data as T);
    } catch (error) {
      const failure = this.toFailure(error, resolved.silent);
      // Aborts are the app's own doing, and an expired session is announced once by 'session.expired'.
      if (!failure.silent && failure.type !== 'Aborted' && failure.type !== 'TokenExpired' && !options.shownByCaller?.includes(failure.type)) {
        this.events.emit('http.message', { text: failure.message, kind: 'error' });
      }
      throw failure;
    } finally {
      call.end();
    }
  }

  private resolve(options: CallOptions<unknown>): Resolved {
    const pick = <K extends 'timeout' | 'retries' | 'retryDelay' | 'silent' | 'responseType' | 'swapBase'>(key: K) =>
      options[key] ?? DEFAULT_CALL_SETTINGS[key];
    return {
      method: options.method,
      timeout: pick('timeout'),
      retries: pick('retries'),
      retryDelay: pick('retryDelay'),
      silent: pick('silent'),
      responseType: pick('responseType'),
      swapBase: pick('swapBase'),
      cancelKey: options.cancelKey,
      base: options.base ?? API_BASE,
      envelope: options.envelope ?? true,
    };
  }

  private begin(cancelKey: string | undefined, callerSignal: AbortSignal | undefined) {
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort();
    if (callerSignal?.aborted) controller.abort();
    else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    if (cancelKey !== undefined) {
      this.inflight.get(cancelKey)?.abort();
      this.inflight.set(cancelKey, controller);
    }
    return {
      signal: controller.signal,
      end: () => {
        callerSignal?.removeEventListener('abort', onCallerAbort);
        if (cancelKey !== undefined && this.inflight.get(cancelKey) === controller) this.inflight.delete(cancelKey);
      },
    };
  }

  private async run(path: string, options: CallOptions<unknown>, resolved: Resolved, signal: AbortSignal): Promise<unknown> {
    let base = resolved.base;
    let retried = 0;
    let replayed = false;
    let steppedUp = false;
    for (;;) {
      const sentToken = this.credentials?.token;
      const outcome = await this.attempt(`${this.baseUrl}${base}${path}${queryString(options.params)}`, options, resolved, signal);
      if (outcome.ok) return outcome.value;
      const { failure } = outcome;
      if (failure.code === 402) {
        // A replay that meets 402 again means the new token is no good either: do not loop.
        if (replayed) throw this.expire();
        await abortable(this.refreshAfter(sentToken), signal);
        replayed = true;
        continue;
      }
      // An access policy wants a fresh one-time code for this call: the app asks the person, then the call goes again
      // (once: a second refusal is the answer). A closed dialog leaves the policy's words as the failure.
      if (failure.code === 401 && failure.field === STEP_UP_FIELD && !steppedUp) {
        try {
          await abortable(this.awaitStepUp(failure.message), signal);
        } catch (error) {
          if (error instanceof AbortedError) throw error;
          throw failure;
        }
        steppedUp = true;
        continue;
      }
      if (outcome.retryable && retried < resolved.retries) {
        retried += 1;
        if (resolved.swapBase) base = ALTERNATE_BASES[Math.floor(this.random() * ALTERNATE_BASES.length)] ?? API_BASE;
        await delay(resolved.retryDelay, signal);
        continue;
      }
      // The server's own words for an outage it reports (the database away) stay; a lost connection reads as the network.
      if (outcome.retryable && failure.code !== DATABASE_UNAVAILABLE) {
        throw { ...failure, message: message(retried > 0 ? 'retriesExhausted' : 'network', this.lang) } satisfies ApiFailure;
      }
      throw failure;
    }
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { 'Accept-Language': ACCEPT_LANGUAGE[this.lang], ...extra };
    if (this.credentials) {
      headers[AUTH_HEADERS.token] = this.credentials.token;
      headers[AUTH_HEADERS.userId] = String(this.credentials.userId);
    }
    return headers;
  }

  private async attempt(url: string, options: CallOptions<unknown>, resolved: Resolved, signal: AbortSignal): Promise<Outcome> {
    const attemptController = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attemptController.abort();
    }, resolved.timeout);
    const onAbort = () => attemptController.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const { body } = options;
      const hasBody = body !== undefined && resolved.method !== 'GET';
      const raw = hasBody && isRawBody(body);
      const response = await this.fetchImpl(url, {
        method: resolved.method,
        headers: this.headers(hasBody && !raw ? { 'Content-Type': 'application/json' } : {}),
        body: hasBody ? (raw ? body : JSON.stringify(body)) : undefined,
        credentials: 'same-origin',
        signal: attemptController.signal,
      });
      return await this.interpret(response, resolved);
    } catch (error) {
      if (signal.aborted) throw new AbortedError();
      if (timedOut) return { ok: false, retryable: true, failure: this.failure('Timeout', 0, message('network', this.lang), resolved.silent) };
      if (error instanceof AbortedError) throw error;
      return { ok: false, retryable: true, failure: this.failure('Network', 0, message('network', this.lang), resolved.silent) };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async interpret(response: Response, { responseType, silent, envelope: wrapped }: Resolved): Promise<Outcome> {
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    if (responseType === 'blob' && response.ok && !isJson) return { ok: true, value: await response.blob() };
    if (responseType === 'arraybuffer' && response.ok && !isJson) return { ok: true, value: await response.arrayBuffer() };
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!wrapped && response.ok && parsed !== undefined) return { ok: true, value: parsed };
    const envelope = wrapped ? asEnvelope(parsed) : null;
    // The code travels both as HTTP status and in the envelope; a gateway's error page has only the status.
    const code = !response.ok ? (envelope && envelope.code !== 200 ? envelope.code : response.status) : (envelope?.code ?? response.status);
    if (response.ok && !envelope) {
      return { ok: false, retryable: false, failure: this.failure('Server', code, message('serverError', this.lang), silent) };
    }
    if (code === 200 && envelope) return { ok: true, value: envelope.data };
    // A gateway's failure, and the database away for a moment (the server says so, nothing was written): tried again.
    return { ok: false, retryable: code === 502 || code === DATABASE_UNAVAILABLE, failure: this.failureFor(code, envelope, silent) };
  }

  private failureFor(code: number, envelope: Envelope | null, silent: boolean): ApiFailure {
    const isServerError = code >= 500 && code < 600;
    const type = TYPE_BY_CODE[code] ?? (isServerError ? 'Server' : 'Failed');
    const key = MESSAGE_BY_CODE[code];
    const fallback: MessageKey = code === 404 ? 'notFound' : isServerError ? 'serverError' : 'hasError';
    const data = envelope?.data;
    const field = typeof data === 'object' && data !== null && typeof (data as { field?: unknown }).field === 'string' ? (data as { field: string }).field : undefined;
    // An access policy's 401 says which policy and why (contract/accessPolicy.ts): its words, not the catalogue's.
    const policy = code === 401 && (field === STEP_UP_FIELD || field === POLICY_FIELD) && envelope?.msg;
    const text = policy ? envelope.msg : key ? message(key, this.lang) : envelope?.msg || message(fallback, this.lang);
    const failure = this.failure(type, code, text, silent);
    if (field !== undefined && (code === 400 || policy)) failure.field = field;
    return failure;
  }

  private failure(type: ApiFailureType, code: number, text: string, silent: boolean): ApiFailure {
    return { type, code, message: text, silent };
  }

  private check<T>(schema: Parser<T>, data: unknown, path: string, silent: boolean): T {
    try {
      return schema.parse(data);
    } catch (error) {
      throw this.contractFailure(path, error, silent);
    }
  }

  /**
   * The failure of an answer that breaks the contract, for callers that check an answer after `call` (a binary
   * frame read asynchronously): said to the developer, shown to the user as a generic failure.
   */
  contractFailure(endpoint: EndpointSpec | string, error: unknown, silent = false): ApiFailure {
    const path = typeof endpoint === 'string' ? endpoint : endpoint.path;
    console.warn(`[data worker] ${path}: the answer does not match the contract`, error);
    return this.failure('Server', 200, message('serverError', this.lang), silent);
  }

  private toFailure(error: unknown, silent: boolean): ApiFailure {
    if (error instanceof AbortedError) return this.failure('Aborted', 0, message('network', this.lang), silent);
    // The call's own silence wins: a shared refresh failure is built once for every waiting call.
    if (typeof error === 'object' && error !== null && 'type' in error && 'code' in error) return { ...(error as ApiFailure), silent };
    return this.failure('Failed', 0, message('hasError', this.lang), silent);
  }

  /** Joins the refresh under way, or starts one; resolves when the caller can replay with a fresh token. */
  private refreshAfter(sentToken: string | undefined): Promise<void> {
    if (this.expired) return Promise.reject(this.expiredFailure());
    // The token was already replaced after this call went out: replay without another refresh.
    if (this.credentials && sentToken !== undefined && this.credentials.token !== sentToken && !this.refreshing) {
      return Promise.resolve();
    }
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<void> {
    this.events.emit('session.refreshing', {});
    const userId = this.credentials?.userId;
    if (userId === undefined) throw this.expire();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REFRESH_TIMEOUT_MS);
    let token: string | null = null;
    try {
      // The refresh credential is an httpOnly cookie that travels by itself; only the user id is ours to send.
      const response = await this.fetchImpl(`${this.baseUrl}${API_BASE}${SESSION_ENDPOINTS.refreshToken.path}`, {
        method: 'POST',
        headers: { 'Accept-Language': ACCEPT_LANGUAGE[this.lang], [AUTH_HEADERS.userId]: String(userId) },
        credentials: 'same-origin',
        signal: controller.signal,
      });
      const envelope = asEnvelope(await response.json());
      const data = envelope?.data as { token?: unknown } | null | undefined;
      if (response.ok && envelope?.code === 200 && typeof data?.token === 'string') token = data.token;
    } catch {
      token = null;
    } finally {
      clearTimeout(timer);
    }
    // Logged out (or in as someone else) while refreshing: this token belongs to nobody now.
    if (this.credentials?.userId !== userId) throw this.expiredFailure();
    if (token === null) throw this.expire();
    this.credentials = { token, userId };
    this.events.emit('session.tokenRefreshed', { token });
  }

  private expiredFailure(): ApiFailure {
    return this.failure('TokenExpired', 402, message('tokenExpired', this.lang), false);
  }

  /** Marks the session over and announces it once. */
  private expire(): ApiFailure {
    const failure = this.expiredFailure();
    if (!this.expired) {
      this.expired = true;
      this.events.emit('session.expired', { message: failure.message });
    }
    return failure;
  }
}
