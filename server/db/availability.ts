/**
 * Whether the database answers, as this process last found it. A query that fails because the server cannot be
 * reached (a restart, a failover, the network) marks it down; while it is down a probe (`select 1`) runs with a
 * growing wait, and the first answer marks it up again. Nothing is held back meanwhile: each query opens its own
 * connection and fails fast while the server is away, and the first one after its return succeeds.
 */
export type Availability = {
  readonly up: boolean;
  /** When the database was first found unreachable in the current outage (epoch ms); null while up. */
  readonly downSince: number | null;
  /** A query failed: when it was a loss of the database, marks it down (and starts probing). Answers whether it was. */
  failed(error: unknown): boolean;
  /** A query answered: the database is up (before the probe's next turn, if it was down). */
  answered(): void;
  /** Called on every change, with how long the outage lasted when it ends. */
  onChange(listener: (up: boolean, outageMs: number) => void): () => void;
  stop(): void;
};

/** The waits between probes while the database is away: first, doubling up to max. */
export const PROBE_WAIT_MS = { first: 250, max: 5_000 };

/** Node's socket errors that mean the server cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * PostgreSQL's SQLSTATEs of a server going away or not ready: admin_shutdown (a fast or immediate stop), crash_shutdown,
 * cannot_connect_now (starting up or shutting down), too_many_connections; and class 08, connection exceptions.
 */
const SERVER_GONE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres's own words for a connection lost or never made (it gives them no code). */
const LOST_CONNECTION = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|not queryable/i;

/** Whether `error` (or what it wraps: Drizzle's query errors carry the driver's as `cause`) is a loss of the database. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at && depth < 6; depth++) {
    if (typeof at !== 'object') return false;
    const { code, message, errors } = at as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
    // An AggregateError (a host name resolving to several addresses, each refused).
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/** A database that is always up (PGlite: in this process, it cannot go away on its own). */
export function alwaysAvailable(): Availability {
  return { up: true, downSince: null, failed: () => false, answered: () => undefined, onChange: () => () => undefined, stop: () => undefined };
}

export function createAvailability(probe: () => Promise<unknown>, waits = PROBE_WAIT_MS): Availability {
  let downSince: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let wait = waits.first;
  const listeners = new Set<(up: boolean, outageMs: number) => void>();
  const tell = (up: boolean, outageMs: number) => {
    for (const listener of listeners) {
      try {
        listener(up, outageMs);
      } catch {
        // A listener's trouble is its own.
      }
    }
  };
  const answered = () => {
    if (downSince === null) return;
    const outage = Date.now() - downSince;
    downSince = null;
    wait = waits.first;
    if (timer) clearTimeout(timer);
    timer = null;
    tell(true, outage);
  };
  const scheduleProbe = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      probe().then(
        answered,
        (error: unknown) => {
          // A probe that fails for another reason (a bad statement cannot be) still leaves it down: try again.
          void error;
          wait = Math.min(wait * 2, waits.max);
          scheduleProbe();
        },
      );
    }, wait);
    timer.unref?.();
  };
  return {
    get up() {
      return downSince === null;
    },
    get downSince() {
      return downSince;
    },
    failed(error) {
      if (!isDatabaseUnavailable(error)) return false;
      if (downSince === null) {
        downSince = Date.now();
        wait = waits.first;
        tell(false, 0);
      }
      scheduleProbe();
      return true;
    },
    answered,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
