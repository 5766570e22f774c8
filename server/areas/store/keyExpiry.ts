import { and, eq, gt, isNotNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { KEY_EXPIRY_WARNING_DAYS } from '../../../contract/store';
import { mpSettings, mpShops, users } from '../../db/schema';
import { shopKeyMail } from '../../integrations/mail/messages';
import { deliverMail } from '../signin/services';

declare module 'fastify' {
  interface FastifyInstance {
    /** Mails the owners of shops whose API key expires within KEY_EXPIRY_WARNING_DAYS, once per key; answers how many. */
    warnShopKeys(): Promise<number>;
  }
}

const DAY_MS = 86_400_000;
const EVERY_MS = 60 * 60_000;
/** The mp_settings key that remembers which expiry of a shop's key was mailed: a new key (a new date) is mailed again. */
const warnedKey = (shopId: number) => `shopKey.warned.${shopId}`;

/**
 * "A shop key about to expire" (issue 43) through the owner's organisation's mail service: every hour, each shop whose
 * key expires within the warning days and whose owner has an e-mail address. Each (shop, expiry) is claimed in
 * mp_settings by a conditional upsert before the mail goes, so instances sharing the database send it once; a mail
 * that fails gives the claim back for the next run.
 */
export async function warnShopKeys(app: FastifyInstance): Promise<number> {
  const now = app.now();
  const due = await app.db
    .select({ id: mpShops.id, name: mpShops.name, ownerId: mpShops.userId, expiresAt: mpShops.keyExpiresAt, email: users.email })
    .from(mpShops)
    .innerJoin(users, eq(users.id, mpShops.userId))
    .where(and(isNotNull(mpShops.keyExpiresAt), gt(mpShops.keyExpiresAt, now), lte(mpShops.keyExpiresAt, new Date(now.getTime() + KEY_EXPIRY_WARNING_DAYS * DAY_MS)), isNotNull(users.email)));
  let sent = 0;
  for (const shop of due) {
    const expiry = shop.expiresAt!.toISOString();
    const claimed = await app.db
      .insert(mpSettings)
      .values({ key: warnedKey(shop.id), value: expiry, updatedAt: now })
      .onConflictDoUpdate({ target: mpSettings.key, set: { value: expiry, updatedAt: now }, setWhere: sql`${mpSettings.value} is distinct from ${JSON.stringify(expiry)}::jsonb` })
      .returning({ key: mpSettings.key });
    if (claimed.length === 0) continue;
    const daysLeft = Math.ceil((shop.expiresAt!.getTime() - now.getTime()) / DAY_MS);
    try {
      await deliverMail(app, shop.ownerId, shop.email!, shopKeyMail(shop.name, expiry.slice(0, 10), daysLeft));
      sent += 1;
    } catch (error) {
      app.log.warn({ err: error, shop: shop.id }, 'shop key expiry mail not sent; tried again next run');
      await app.db.delete(mpSettings).where(eq(mpSettings.key, warnedKey(shop.id)));
    }
  }
  return sent;
}

export const shopKeyWarningsPlugin = fp(
  async function shopKeyWarningsPlugin(app: FastifyInstance) {
    const run = () =>
      warnShopKeys(app).catch((error: unknown) => {
        app.log.error({ err: error }, 'shop key expiry mails failed; the next run tries again');
        return 0;
      });
    app.decorate('warnShopKeys', run);
    let timer: ReturnType<typeof setInterval> | null = null;
    app.addHook('onReady', async () => {
      timer = setInterval(() => void run(), EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
    });
  },
  { name: 'shop-key-warnings', dependencies: ['messaging'] },
);
