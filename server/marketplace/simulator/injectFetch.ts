import type { FastifyInstance } from 'fastify';

/**
 * A `fetch` that answers from a Fastify instance in the same process (`inject`, no socket): how the server talks
 * to its embedded simulator when no OZON_API_URL is configured. Honours the caller's abort signal (timeouts).
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const signal = init.signal;
    if (signal?.aborted) throw signal.reason;
    const answer = app.inject({
      method: (init.method ?? 'GET') as 'GET' | 'POST',
      url: url.pathname + url.search,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      payload: typeof init.body === 'string' ? init.body : undefined,
    });
    const response = await new Promise<Awaited<typeof answer>>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      answer.then(resolve, reject);
    });
    const headers = new Headers();
    for (const [key, value] of Object.entries(response.headers)) if (value !== undefined) headers.set(key, String(value));
    return new Response(response.rawPayload.length ? new Uint8Array(response.rawPayload) : null, { status: response.statusCode, headers });
  }) as typeof fetch;
}
