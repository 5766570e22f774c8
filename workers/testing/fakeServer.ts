/**
 * A fake of the API server for the worker's tests: it answers through `fetch` the way the Fastify server does
 * (the `{ code, msg, data }` envelope, the code also as HTTP status), honours the abort signal like a real fetch,
 * and records every request it saw.
 */

export type SeenRequest = {
  method: string;
  url: string;
  /** The API base the request went to: '/api', '/e-api', '/x-api' or ''. */
  base: string;
  /** The path under the base, without the query. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
  signal: AbortSignal | undefined;
};

export type Reply =
  | { status?: number; json: unknown }
  | { status?: number; text: string; contentType?: string }
  | { status?: number; blob: Blob }
  /** The connection fails: fetch rejects as browsers do when the network is down. */
  | 'network'
  /** No answer until the caller gives up. */
  | 'hang';

export type Handler = (request: SeenRequest) => Reply | Promise<Reply>;

export const ok = (data: unknown): Reply => ({ status: 200, json: { code: 200, msg: '操作成功', data } });
export const fail = (code: number, msg = 'error', data: unknown = null): Reply => ({ status: code, json: { code, msg, data } });

const BASES = ['/e-api', '/x-api', '/api'];

function split(url: string): { base: string; path: string; query: URLSearchParams } {
  const parsed = new URL(url, 'http://app.test');
  const base = BASES.find((candidate) => parsed.pathname.startsWith(`${candidate}/`)) ?? '';
  return { base, path: parsed.pathname.slice(base.length), query: parsed.searchParams };
}

function abortError(): Error {
  return new DOMException('The operation was aborted.', 'AbortError');
}

export type FakeServer = {
  fetch: typeof fetch;
  requests: SeenRequest[];
  /** Requests to one path (under any base). */
  to(path: string): SeenRequest[];
  on(path: string, handler: Handler): void;
};

export function createFakeServer(routes: Record<string, Handler> = {}): FakeServer {
  const handlers = new Map(Object.entries(routes));
  const requests: SeenRequest[] = [];

  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const { base, path, query } = split(url);
    const text = typeof init.body === 'string' ? init.body : undefined;
    const request: SeenRequest = {
      method: init.method ?? 'GET',
      url,
      base,
      path,
      query,
      headers: new Headers(init.headers),
      body: text === undefined ? init.body : JSON.parse(text),
      credentials: init.credentials,
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    const signal = init.signal;
    if (signal?.aborted) throw abortError();
    // Answer asynchronously, as a network would.
    await Promise.resolve();
    const handler = handlers.get(path);
    const reply = handler ? await handler(request) : { status: 404, json: { code: 404, msg: `no route ${path}`, data: null } };
    if (signal?.aborted) throw abortError();
    if (reply === 'network') throw new TypeError('Failed to fetch');
    if (reply === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        if (!signal) return;
        signal.addEventListener('abort', () => reject(abortError()), { once: true });
      });
    }
    const status = reply.status ?? 200;
    if ('json' in reply) return new Response(JSON.stringify(reply.json), { status, headers: { 'content-type': 'application/json' } });
    if ('blob' in reply) return new Response(reply.blob, { status, headers: { 'content-type': reply.blob.type } });
    return new Response(reply.text, { status, headers: { 'content-type': reply.contentType ?? 'text/html' } });
  };

  return {
    fetch: fetchImpl as typeof fetch,
    requests,
    to: (path) => requests.filter((request) => request.path === path),
    on: (path, handler) => void handlers.set(path, handler),
  };
}
