import pg from 'pg';
import { isDatabaseUnavailable } from './availability';

/**
 * PostgreSQL's LISTEN/NOTIFY between the server instances sharing one database. A notification reaches every
 * connection listening on its channel when the statement that sent it commits, in the order sent; one is at most
 * NOTIFY_MAX_BYTES (PostgreSQL refuses 8000 bytes and more). Nothing is kept for a listener that was not connected.
 */
export type Notifications = {
  /** Sends the payloads on `channel`, in order, in one statement. */
  notify(channel: string, payloads: readonly string[]): Promise<void>;
  /**
   * Listens on `channel` over a connection of its own, connecting again after a loss (what was sent meanwhile is
   * missed). Resolves once listening; answers a stop.
   */
  listen(channel: string, onPayload: (payload: string) => void, log: NotificationsLog): Promise<() => Promise<void>>;
};

export type NotificationsLog = { warn(object: unknown, message: string): void };

/** PostgreSQL's limit is 8000 bytes; a little room is kept. */
export const NOTIFY_MAX_BYTES = 7900;

// Short at most: pushes between instances are missed until the listener is back.
const RECONNECT_MS = { first: 500, max: 5_000 };

export function postgresNotifications(connectionString: string, pool: pg.Pool): Notifications {
  return {
    async notify(channel, payloads) {
      if (payloads.length === 0) return;
      await pool.query('select pg_notify($1, payload) from unnest($2::text[]) as payload', [channel, payloads]);
    },
    async listen(channel, onPayload, log) {
      let client: pg.Client | null = null;
      let stopped = false;
      let wait = RECONNECT_MS.first;
      let retry: ReturnType<typeof setTimeout> | null = null;

      const connect = async (): Promise<void> => {
        const connection = new pg.Client({ connectionString });
        connection.on('notification', (message) => {
          if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
        });
        const lost = (error?: Error) => {
          if (client !== connection) return;
          client = null;
          connection.end().catch(() => undefined);
          if (stopped) return;
          log.warn({ err: error, channel }, 'notification listener lost its connection; connecting again');
          scheduleRetry();
        };
        connection.on('error', lost);
        connection.on('end', () => lost());
        await connection.connect();
        // pg quotes nothing in LISTEN: the channel is one of ours, a plain identifier.
        await connection.query(`listen ${channel}`);
        client = connection;
        wait = RECONNECT_MS.first;
      };

      const scheduleRetry = () => {
        retry = setTimeout(() => {
          retry = null;
          connect().catch((error: unknown) => {
            if (stopped) return;
            log.warn({ err: error, channel }, 'notification listener could not connect');
            wait = Math.min(wait * 2, RECONNECT_MS.max);
            scheduleRetry();
          });
        }, wait);
        retry.unref?.();
      };

      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad notification channel name: ${channel}`);
      // A server started while the database is away listens once it is back, as after a loss.
      await connect().catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
        log.warn({ err: error, channel }, 'notification listener could not connect; trying again');
        scheduleRetry();
      });
      return async () => {
        stopped = true;
        if (retry) clearTimeout(retry);
        const connection = client;
        client = null;
        await connection?.end();
      };
    },
  };
}
