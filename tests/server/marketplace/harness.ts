import Fastify, { type FastifyInstance } from 'fastify';
import { createSyncService } from '../../../server/areas/sync/service';
import type { Database } from '../../../server/db/database';
import { encryptSecret } from '../../../server/marketplace/crypto';
import { OzonError } from '../../../server/marketplace/ozon/errors';
import { createOzonClient, type OzonClientOptions } from '../../../server/marketplace/ozon/client';
import { createRateLimiter } from '../../../server/marketplace/ozon/limiter';
import { OZON_ENDPOINTS } from '../../../server/marketplace/ozon/versions';
import { createOzonSimulator, ozonSimulatorPlugin, type SimulatorOptions } from '../../../server/marketplace/simulator/plugin';

/** A simulator on its own Fastify instance, listening on a free port, and clients that talk to it over HTTP. */
export async function startSimulator(options: SimulatorOptions = {}) {
  const simulator = createOzonSimulator({
    ordersPerShop: 1_200,
    productsPerShop: 300,
    ...options,
    control: { labelReadyDelayMs: 0, taskDelayMs: 0, ...options.control },
  });
  const app: FastifyInstance = Fastify();
  await app.register(ozonSimulatorPlugin, { prefix: '/sim/ozon', simulator });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `${address}/sim/ozon`;
  // One limiter for every client, as in the server: limits belong to the Client-Id, not to a client object.
  const limiter = createRateLimiter({ perMinuteByPath: { [OZON_ENDPOINTS.analyticsData.path]: 600 } });
  const client = (clientId = '1001', overrides: Partial<OzonClientOptions> = {}) =>
    createOzonClient({
      baseUrl,
      clientId,
      apiKey: `sim-key-${clientId}`,
      // Fast backoff, and analytics' 1-a-minute limit lifted, so tests take seconds.
      retry: { retries: 4, baseDelayMs: 5, maxDelayMs: 40 },
      limiter,
      timeoutMs: 5_000,
      ...overrides,
    });
  return { simulator, app, baseUrl, client, close: () => app.close() };
}

/** The OzonError a call fails with (the test fails when it succeeds or fails otherwise). */
export async function refusal(promise: Promise<unknown>): Promise<OzonError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OzonError);
  return error as OzonError;
}

const SHOP_SECRET = Buffer.from('ab'.repeat(32), 'hex');

/**
 * A shop of user 1 (already in `database`) for each of the simulator's Client-Ids, and a sync service that reads
 * them from the simulator (pushes and errors dropped), with `pageSize` records a page.
 */
export async function simulatedShops(database: Database, sim: Awaited<ReturnType<typeof startSimulator>>, clientIds: readonly string[], pageSize: number) {
  const shops: number[] = [];
  for (const clientId of clientIds) {
    const [row] = await database.query<{ id: number }>(
      `insert into mp_shops (user_id, name, client_id, api_key_enc) values (1, $1, $2, $3) returning id`,
      [`shop ${clientId}`, clientId, encryptSecret(SHOP_SECRET, `sim-key-${clientId}`)],
    );
    shops.push(row!.id);
  }
  const sync = createSyncService({
    database,
    secretKey: SHOP_SECRET,
    clientFor: ({ clientId }) => sim.client(clientId),
    push: () => undefined,
    log: { error: () => undefined },
    pageSize,
  });
  return { shops, sync };
}
