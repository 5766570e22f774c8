import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { mpSettings } from '../../db/schema';

/**
 * How a log is kept (the operation log, the access log): a retention in days from mp_settings, a purge every 6 hours.
 * Apart from the operation log (log.ts), which imports the routing code, because the access policies that the
 * routing checks keep their log with these too.
 */
const PURGE_EVERY_MS = 6 * 3600_000;

/** The retention in days a setting of mp_settings holds, or the default when it holds none. */
export async function retentionDays(app: FastifyInstance, key: string, fallback: number): Promise<number> {
  const [setting] = await app.db.select({ value: mpSettings.value }).from(mpSettings).where(eq(mpSettings.key, key)).limit(1);
  return typeof setting?.value === 'number' && setting.value > 0 ? setting.value : fallback;
}

/** A log's purge, run every 6 hours once the app is ready (a failed one is logged; the next runs as usual); answers it. */
export function everySixHours(app: FastifyInstance, what: string, work: () => Promise<void>): () => Promise<void> {
  const purge = async () => {
    try {
      await work();
    } catch (error) {
      app.log.error({ err: error }, `${what} purge failed; the next one runs as usual`);
    }
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => void purge(), PURGE_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
  return purge;
}
