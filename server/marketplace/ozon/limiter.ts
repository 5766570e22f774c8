import { OZON_REQUESTS_PER_SECOND, type OzonEndpoint } from './versions';

/**
 * Token buckets per Client-Id: one for Ozon's 50 requests/s across all methods, one per method that has its own
 * limit (stocks 80/min, analytics 1/min). Every client of the same Client-Id in this process shares them, so
 * several sync jobs of one shop cannot add up past Ozon's limits, while different shops never wait on each other.
 * (Several server instances each keep their own buckets; Ozon's 429 plus the client's backoff covers the excess.)
 */
export type OzonRateLimiter = {
  /** Resolves when a request of `endpoint` for `clientId` may go out. */
  acquire(clientId: string, endpoint: OzonEndpoint, lane?: RequestLane): Promise<void>;
};

/**
 * Who is waiting: a person (a chat reply, a shipment, a list they opened) or background work (sync, pollers, the
 * price guard). Background requests leave a few tokens of the shop's budget untouched, so a seller's click goes out
 * at once while the shop's first sync runs at nearly full speed.
 */
export type RequestLane = 'interactive' | 'background';

type Bucket = { tokens: number; capacity: number; perMs: number; last: number };

export type RateLimiterOptions = {
  perSecond?: number;
  /** Overrides of per-method limits, by path (tests shorten the 1-a-minute analytics limit). */
  perMinuteByPath?: Record<string, number>;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

/**
 * A bucket that never lets more than `limit` through in ANY window of `windowMs`, whatever window Ozon counts in:
 * a plain bucket of capacity L refilled at L per window lets 2L through across a window edge, so the burst is a
 * fifth of the limit and the refill the rest.
 */
function sizing(limit: number, windowMs: number) {
  const capacity = Math.max(1, Math.floor(limit / 5));
  return { capacity, perMs: Math.max(1, limit - capacity) / windowMs };
}

/** The share of the per-second burst that background requests leave for interactive ones. */
const BACKGROUND_RESERVE = 0.4;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createRateLimiter(options: RateLimiterOptions = {}): OzonRateLimiter {
  // Ozon counts arrivals, we count departures: network jitter bunches requests into one of Ozon's windows, so aim
  // at 80% of the documented limit by default.
  const perSecond = options.perSecond ?? OZON_REQUESTS_PER_SECOND * 0.8;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const buckets = new Map<string, Bucket>();

  const bucket = (key: string, capacity: number, perMs: number): Bucket => {
    let b = buckets.get(key);
    if (!b) {
      b = { tokens: capacity, capacity, perMs, last: now() };
      buckets.set(key, b);
    }
    return b;
  };
  const refill = (b: Bucket, t: number) => {
    b.tokens = Math.min(b.capacity, b.tokens + (t - b.last) * b.perMs);
    b.last = t;
  };
  const waitFor = (b: Bucket, need = 1) => (b.tokens >= need ? 0 : Math.ceil((need - b.tokens) / b.perMs));

  return {
    async acquire(clientId, endpoint, lane = 'interactive') {
      const perMinute = options.perMinuteByPath?.[endpoint.path] ?? endpoint.perMinute;
      const overall = sizing(perSecond, 1_000);
      const reserve = lane === 'background' ? Math.floor(overall.capacity * BACKGROUND_RESERVE) : 0;
      for (;;) {
        const t = now();
        const all = bucket(`${clientId}`, overall.capacity, overall.perMs);
        refill(all, t);
        const perMethod = perMinute ? sizing(perMinute, 60_000) : undefined;
        const method = perMethod ? bucket(`${clientId} ${endpoint.path}`, perMethod.capacity, perMethod.perMs) : undefined;
        if (method) refill(method, t);
        const wait = Math.max(waitFor(all, 1 + reserve), method ? waitFor(method) : 0);
        if (wait === 0) {
          all.tokens -= 1;
          if (method) method.tokens -= 1;
          return;
        }
        await sleep(wait);
      }
    },
  };
}

/** The process-wide limiter every Ozon client uses unless given another. */
export const sharedOzonLimiter: OzonRateLimiter = createRateLimiter();
