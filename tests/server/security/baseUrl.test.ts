import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../contract/errors';
import { baseUrlFetch, checkBaseUrl, type BaseUrlPolicy } from '../../../server/marketplace/baseUrl';
import { createOzonSimulator } from '../../../server/marketplace/simulator/plugin';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';
import { startSimulator } from '../marketplace/harness';

describe('checkBaseUrl', () => {
  const policy = (resolved: string[] | Error, extra: Partial<BaseUrlPolicy> = {}): BaseUrlPolicy => ({
    ozonApiUrl: null,
    allowedHosts: [],
    simulator: null,
    resolve: async () => {
      if (resolved instanceof Error) throw resolved;
      return resolved;
    },
    ...extra,
  });
  const refusal = async (p: BaseUrlPolicy, url: string) => checkBaseUrl(p, url).then(() => null, (error: { text: string; field: string }) => `${error.field}:${error.text}`);

  it("accepts Ozon's API host when it resolves to public addresses only", async () => {
    expect(await refusal(policy(['185.73.194.80']), 'https://api-seller.ozon.ru')).toBeNull();
    expect(await refusal(policy(['185.73.194.80', '10.0.0.7']), 'https://api-seller.ozon.ru')).toBe('baseUrl:baseUrlPrivate');
    expect(await refusal(policy(['::ffff:127.0.0.1']), 'https://api-seller.ozon.ru')).toBe('baseUrl:baseUrlPrivate');
    expect(await refusal(policy(new Error('ENOTFOUND')), 'https://api-seller.ozon.ru')).toBe('baseUrl:baseUrlUnresolved');
  });

  it('refuses any other host, loopback and private addresses included', async () => {
    for (const url of ['http://127.0.0.1:18777/x', 'http://[::1]/', 'http://169.254.169.254/latest', 'https://example.com/', 'http://localhost:8080/sim/ozon']) {
      expect(await refusal(policy(['93.184.215.14']), url)).toBe('baseUrl:baseUrlNotAllowed');
    }
  });

  it("allows OZON_API_URL's host, the administrator's hosts (private or not) and the simulator on this server", async () => {
    expect(await refusal(policy(['203.0.113.5'], { ozonApiUrl: 'https://ozon-gateway.example/' }), 'https://ozon-gateway.example/v1')).toBeNull();
    const allowed = policy(new Error('no DNS needed'), { allowedHosts: ['ozon-proxy.internal', '10.0.0.5:8443'] });
    expect(await refusal(allowed, 'http://ozon-proxy.internal/api')).toBeNull();
    expect(await refusal(allowed, 'https://10.0.0.5:8443/')).toBeNull();
    expect(await refusal(allowed, 'https://10.0.0.5:9000/')).toBe('baseUrl:baseUrlNotAllowed');
    const simulator = policy([], { simulator: { port: 8080, prefix: '/sim/ozon' } });
    expect(await refusal(simulator, 'http://localhost:8080/sim/ozon')).toBeNull();
    expect(await refusal(simulator, 'http://127.0.0.1:8080/api/store/list')).toBe('baseUrl:baseUrlNotAllowed');
    expect(await refusal(simulator, 'http://127.0.0.1:5432/sim/ozon')).toBe('baseUrl:baseUrlNotAllowed');
  });
});

describe('baseUrlFetch: the address checked is the address connected to (DNS rebinding)', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      hits += 1;
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a name that resolved to a public address when the shop was saved and to loopback at the call is not connected to', async () => {
    let answers = [['185.73.194.80'], ['127.0.0.1']];
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return answers.shift() ?? ['127.0.0.1'];
    };
    const policy: BaseUrlPolicy = { ozonApiUrl: 'https://rebind.example', allowedHosts: [], simulator: null, resolve };
    const baseUrl = `http://rebind.example:${port}`;
    await expect(checkBaseUrl(policy, baseUrl)).resolves.toBeUndefined();
    await expect(baseUrlFetch(policy, baseUrl)(`${baseUrl}/v1/roles`, { method: 'POST' })).rejects.toThrow();
    answers = [['10.1.2.3', '185.73.194.80']];
    await expect(baseUrlFetch(policy, baseUrl)(`${baseUrl}/v1/roles`, { method: 'POST' })).rejects.toThrow();
    await expect(baseUrlFetch(policy, `http://127.0.0.1:${port}`)(`http://127.0.0.1:${port}/v1/roles`)).rejects.toThrow();
    expect(hits).toBe(0);
    // The connections resolved the name themselves, through the checking lookup (not the system's own).
    expect(asked).toEqual(['rebind.example', 'rebind.example', 'rebind.example']);
  });

  it('an address the administrator allows is connected to as it is', async () => {
    const policy: BaseUrlPolicy = { ozonApiUrl: null, allowedHosts: [`127.0.0.1:${port}`], simulator: null, resolve: async () => ['127.0.0.1'] };
    const answer = await baseUrlFetch(policy, `http://127.0.0.1:${port}`)(`http://127.0.0.1:${port}/v1/roles`, { method: 'POST' });
    expect(answer.status).toBe(200);
    expect(hits).toBe(1);
  });
});

describe.each(DATABASE_TARGETS)('shop base URLs on $kind', (target) => {
  let t: TestApp;
  let external: Awaited<ReturnType<typeof startSimulator>>;
  let probe: Server;
  let probeHits = 0;
  let probePort = 0;
  let seller: Session;
  beforeAll(async () => {
    external = await startSimulator();
    probe = createServer((_request, response) => {
      probeHits += 1;
      response.end('{}');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    probePort = (probe.address() as AddressInfo).port;
    const simulator = createOzonSimulator({ ordersPerShop: 20, productsPerShop: 5, control: { labelReadyDelayMs: 0, taskDelayMs: 0 } });
    t = await startTestApp(target, { env: { OZON_ALLOWED_HOSTS: new URL(external.baseUrl).host }, app: { marketplace: { simulator } } });
    seller = await login(t.app, 'seller', 'seller123');
  });
  afterAll(async () => {
    await t?.close();
    await external?.close();
    probe?.close();
  });

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: seller.headers, payload });
  const shops = async () => (await t.database.query<{ base_url: string | null }>(`select base_url from mp_shops`)).map((row) => row.base_url);

  it('refuses a loopback base URL without calling it or storing the shop', async () => {
    const response = await post('/api/store/add', { name: 'x', clientId: '1001', apiKey: 'sim-key-1001', baseUrl: `http://127.0.0.1:${probePort}/sim/ozon` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 400, msg: MESSAGES.baseUrlNotAllowed.zh, data: { field: 'baseUrl' } });
    expect(probeHits).toBe(0);
    expect(await shops()).toEqual([]);
  });

  it('adds a shop on a host the administrator allows, and refuses to move it to a private address', async () => {
    const added = await post('/api/store/add', { name: 'proxy', clientId: '1001', apiKey: 'sim-key-1001', baseUrl: external.baseUrl });
    expect(added.statusCode).toBe(200);
    const moved = await post('/api/store/update', { id: added.json().data.id, baseUrl: 'http://10.1.2.3/' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().data).toEqual({ field: 'baseUrl' });
    expect(await shops()).toEqual([external.baseUrl]);
  });
});
