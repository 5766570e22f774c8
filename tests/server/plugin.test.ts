import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { extractProduct } from '../../contract/collectSources';
import type { CollectAnswer } from '../../contract/collection';
import type { IssuedToken, PluginInfo } from '../../contract/plugin';
import { PLUGIN_TOKEN_HEADER, PLUGIN_TOKEN_MAX } from '../../contract/pluginProtocol';
import { buildPlugin } from '../../plugin/build';
import { pageFactsOf } from '../../server/integrations/sources/page';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

const FIXTURES = join(import.meta.dirname, '../../server/integrations/sources/fixtures');
/** The 1688 offer as the plugin's content script reads it on the live page. */
const PRODUCT = extractProduct('1688', pageFactsOf(readFileSync(join(FIXTURES, '1688-712345678901.html'), 'utf8'), 'https://detail.1688.com/offer/712345678901.html'));

describe.each(DATABASE_TARGETS)('the browser plugin on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let pluginDir: string;

  beforeAll(async () => {
    pluginDir = mkdtempSync(join(tmpdir(), 'plugin-build-'));
    await buildPlugin(pluginDir, { minify: false });
    t = await startTestApp(target, { app: { plugin: { dir: pluginDir } } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
  });
  afterAll(async () => {
    await t.close();
    rmSync(pluginDir, { recursive: true, force: true });
  });

  const call = <T>(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));
  const issue = async (label = 'Chrome 办公室') => (await call<IssuedToken>('POST', '/api/plugin/token/create', seller.headers, { label })).body.data;
  const withToken = (token: string) => ({ [PLUGIN_TOKEN_HEADER]: token, 'accept-language': 'en' });

  it('answers 401 outside the collection roles and 402 without a session', async () => {
    const calls: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/plugin/info'],
      ['GET', '/api/plugin/package'],
      ['POST', '/api/plugin/token/create', { label: 'x' }],
      ['POST', '/api/plugin/token/revoke', { id: 1 }],
      ['GET', '/api/plugin/me'],
    ];
    const analyst = await login(t.app, 'analyst', 'analyst123');
    for (const [method, url, payload] of calls) {
      expect((await call(method, url, analyst.headers, payload)).status, `${url} as an analyst`).toBe(401);
      expect((await call(method, url, {}, payload)).status, `${url} signed out`).toBe(402);
    }
  });

  it('issues a token shown once, kept only as a hash, listed by its first characters', async () => {
    const issued = await issue();
    expect(issued.token).toMatch(/^sbp_[\w-]{43}$/);
    expect(issued.info).toMatchObject({ label: 'Chrome 办公室', hint: issued.token.slice(0, 10), lastUsedAt: null });
    expect(issued.info.expiresAt - issued.info.createdAt).toBe(365 * 86_400_000);
    const info = (await call<PluginInfo>('GET', '/api/plugin/info', seller.headers)).body.data;
    expect(info.tokens[0]).toEqual(issued.info);
    expect(JSON.stringify(info)).not.toContain(issued.token);
    const stored = await t.database.query<{ token_hash: string }>('select token_hash from plugin_tokens where id = $1', [issued.info.id]);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(issued.token.slice(4));
  });

  it('collects with the plugin token into the token owner’s collection, and notes when it was used', async () => {
    const { token, info } = await issue();
    expect((await call('GET', '/api/plugin/me', withToken(token))).body.data).toEqual({ id: seller.id, name: 'seller' });
    const answer = await call<CollectAnswer>('POST', '/api/CollectProduct', withToken(token), { product: PRODUCT });
    expect(answer.status).toBe(200);
    expect(answer.body.data.item).toMatchObject({ site: '1688', sourceId: '712345678901', via: 'plugin', currency: 'CNY' });
    expect(answer.body.data.path).toBe(`/collection/collection-list?id=${answer.body.data.item.id}`);
    const listed = await call<{ list: { id: number }[] }>('GET', '/api/collection/list', seller.headers);
    expect(listed.body.data.list.map((i) => i.id)).toContain(answer.body.data.item.id);
    const after = (await call<PluginInfo>('GET', '/api/plugin/info', seller.headers)).body.data.tokens.find((x) => x.id === info.id);
    expect(after?.lastUsedAt).toBe(t.clock.now().getTime());
  });

  it('opens nothing but the plugin’s calls: the rest of the account refuses a plugin token', async () => {
    const { token } = await issue();
    const calls: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/collection/list'],
      ['GET', '/api/plugin/info'],
      ['POST', '/api/plugin/token/create', { label: 'more' }],
      ['POST', '/api/collection/delete', { ids: [1] }],
      ['GET', '/api/getInfo'],
    ];
    for (const [method, url, payload] of calls) {
      const answer = await call(method, url, withToken(token), payload);
      expect(answer.status, url).toBe(401);
      expect(answer.body.msg, url).toBe('A plugin token can only collect products');
    }
    // A made-up token, or a session token sent as a plugin token, is not one.
    for (const wrong of ['sbp_nope', seller.token]) {
      const answer = await call('POST', '/api/CollectProduct', withToken(wrong), { product: PRODUCT });
      expect(answer.status).toBe(401);
      expect(answer.body.msg).toMatch(/plugin token is invalid/);
    }
  });

  it('revokes a token at once; another user cannot revoke it', async () => {
    const { token, info } = await issue();
    const admin = await login(t.app, 'admin', 'admin123');
    expect((await call('POST', '/api/plugin/token/revoke', admin.headers, { id: info.id })).status).toBe(404);
    expect((await call('POST', '/api/plugin/token/revoke', seller.headers, { id: info.id })).body.data).toEqual({ count: 1 });
    expect((await call('POST', '/api/CollectProduct', withToken(token), { product: PRODUCT })).status).toBe(401);
    const tokens = (await call<PluginInfo>('GET', '/api/plugin/info', seller.headers)).body.data.tokens;
    expect(tokens.map((x) => x.id)).not.toContain(info.id);
    expect((await call('POST', '/api/plugin/token/revoke', seller.headers, { id: info.id })).status).toBe(404);
  });

  it('stops every plugin token when the password changes', async () => {
    const { token } = await issue('before the change');
    expect((await call('GET', '/api/plugin/me', withToken(token))).status).toBe(200);
    const changed = await call('POST', '/api/user/changePsw', seller.headers, { oldPassword: 'seller123', newPassword: 'seller12345' });
    expect(changed.status).toBe(200);
    expect((await call('GET', '/api/plugin/me', withToken(token))).status).toBe(401);
    // Tokens of the old password are gone from the list and from the count.
    expect((await call<PluginInfo>('GET', '/api/plugin/info', seller.headers)).body.data.tokens).toEqual([]);
  });

  it(`holds at most ${PLUGIN_TOKEN_MAX} live tokens per user`, async () => {
    const live = (await call<PluginInfo>('GET', '/api/plugin/info', seller.headers)).body.data.tokens.length;
    for (let i = live; i < PLUGIN_TOKEN_MAX; i++) await issue(`browser ${i}`);
    const refused = await call('POST', '/api/plugin/token/create', { ...seller.headers, 'accept-language': 'en' }, { label: 'one more' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`At most ${PLUGIN_TOKEN_MAX} plugin tokens can be live at once; revoke one you no longer use`);
  });

  it('offers the plugin as a zip made for the origin it is downloaded from, with no secret in it', async () => {
    const info = (await call<PluginInfo>('GET', '/api/plugin/info', seller.headers)).body.data;
    expect(info.version).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
    const response = await t.app.inject({ method: 'GET', url: '/api/plugin/package', headers: { ...seller.headers, host: 'seller.example:8443', 'x-forwarded-proto': 'https' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="seller-plugin-${info.version}.zip"`);
    const files = unzipSync(response.rawPayload);
    expect(Object.keys(files).sort()).toEqual(
      ['_locales/en/messages.json', '_locales/zh_CN/messages.json', 'app.json', 'background.js', 'bridge.js', 'collect.js', 'icons/128.png', 'icons/16.png', 'icons/32.png', 'icons/48.png', 'manifest.json', 'popup.html', 'popup.js'].sort(),
    );
    const manifest = JSON.parse(strFromU8(files['manifest.json']!));
    // Without a trusted proxy the forwarded protocol is not believed: the origin is the one the request reached.
    const origin = 'http://seller.example:8443';
    expect(manifest).toMatchObject({ manifest_version: 3, version: info.version, permissions: ['storage'], host_permissions: [`${origin}/*`], background: { service_worker: 'background.js' } });
    expect(manifest.content_scripts).toEqual([
      { matches: expect.arrayContaining(['https://www.ozon.ru/product/*', 'https://detail.1688.com/offer/*']), js: ['collect.js'], run_at: 'document_idle' },
      { matches: [`${origin}/*`], js: ['bridge.js'], run_at: 'document_idle' },
    ]);
    expect(JSON.parse(strFromU8(files['app.json']!))).toEqual({ origin });
    expect(JSON.parse(strFromU8(files['_locales/en/messages.json']!)).collect.message).toBe('Collect to the back office');
    expect(info.size).toBeGreaterThan(1000);
  });

  it('says so when this server has no built plugin', async () => {
    const bare = await startTestApp(target, { app: { plugin: { dir: join(tmpdir(), 'no-plugin-here') } } });
    try {
      await bare.app.ready();
      const session = await login(bare.app, 'seller', 'seller123');
      const info = await bare.app.inject({ method: 'GET', url: '/api/plugin/info', headers: session.headers });
      expect(info.json<{ data: PluginInfo }>().data).toMatchObject({ version: null, size: null });
      const zip = await bare.app.inject({ method: 'GET', url: '/api/plugin/package', headers: { ...session.headers, 'accept-language': 'en' } });
      expect(zip.statusCode).toBe(404);
      expect(zip.json<{ msg: string }>().msg).toBe('This server has no built plugin yet (run npm run build)');
    } finally {
      await bare.close();
    }
  });


  // Last: the clock moves a year on.
  it('ends a token past its year', async () => {
    const [oldest] = (await call<PluginInfo>('GET', '/api/plugin/info', seller.headers)).body.data.tokens.slice(-1);
    await call('POST', '/api/plugin/token/revoke', seller.headers, { id: oldest!.id });
    const { token } = await issue();
    t.clock.advance(365 * 86_400_000 + 1000);
    expect((await call('GET', '/api/plugin/me', withToken(token))).status).toBe(401);
  });
});
