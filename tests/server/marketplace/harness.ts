import Fastify, { type FastifyInstance } from 'fastify';
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
