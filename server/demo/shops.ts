import type { Database } from '../db/database';
import { encryptSecret } from '../marketplace/crypto';
import type { OzonSimulator } from '../marketplace/simulator/plugin';

/** The simulator shops the demo `seller` starts with; 1003 (sim-key-1003) is left for a newcomer to add. */
export const DEMO_SHOP_CLIENT_IDS = ['1001', '1002'] as const;
/** The demo administrator's own shop: the create pages are theirs, and ask Ozon with a shop. */
export const DEMO_ADMIN_SHOP_CLIENT_IDS = ['1004'] as const;

const DEMO_SHOPS = [
  { username: 'seller', clientIds: DEMO_SHOP_CLIENT_IDS, seededKey: 'demo.shopsSeeded' },
  { username: 'admin', clientIds: DEMO_ADMIN_SHOP_CLIENT_IDS, seededKey: 'demo.adminShopsSeeded' },
] as const;

/**
 * Connects the demo `seller` to simulator shops 1001 and 1002 and the demo `admin` to 1004 (keys encrypted like any
 * shop's). Once per database and user: a seller who deletes a demo shop does not get it back at the next start.
 * Every start sets their keys' expiry to the simulator's of today. The scheduler syncs them in the background.
 * Answers the seller's shops' ids (also when they were seeded before).
 */
export async function seedDemoShops(database: Database, secretKey: Buffer, simulator: OzonSimulator): Promise<number[]> {
  let sellerShops: number[] = [];
  for (const { username, clientIds, seededKey } of DEMO_SHOPS) {
    const [user] = await database.query<{ id: number }>(`select id from users where username = $1`, [username]);
    if (!user) continue;
    const [seeded] = await database.query(`select 1 from mp_settings where key = $1`, [seededKey]);
    if (!seeded) {
      for (const clientId of clientIds) {
        const shop = simulator.shop(clientId);
        await database.query(
          `insert into mp_shops (user_id, name, client_id, api_key_enc, key_expires_at, roles)
           values ($1, $2, $3, $4, $5::timestamptz, $6::jsonb) on conflict (user_id, client_id) do nothing`,
          [user.id, shop.config.name ?? `Ozon ${clientId}`, clientId, encryptSecret(secretKey, shop.config.apiKey), shop.expiresAt(), JSON.stringify(shop.config.roles ?? ['Admin'])],
        );
      }
      await database.query(`insert into mp_settings (key, value) values ($1, 'true'::jsonb) on conflict (key) do nothing`, [seededKey]);
    }
    // The simulator's keys run from the day it started: the shops show them as they are today.
    for (const clientId of clientIds) {
      await database.query(`update mp_shops set key_expires_at = $3::timestamptz where user_id = $1 and client_id = $2 and base_url is null`, [
        user.id,
        clientId,
        simulator.shop(clientId).expiresAt(),
      ]);
    }
    if (username === 'seller') {
      const rows = await database.query<{ id: number }>(`select id from mp_shops where user_id = $1 and client_id = any($2::text[]) order by client_id`, [
        user.id,
        [...clientIds],
      ]);
      sellerShops = rows.map((r) => r.id);
    }
  }
  return sellerShops;
}
