import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USER_PATHS } from '../../../contract/admin';
import { CONTACTS_ENDPOINTS } from '../../../contract/chat';
import { routePaths } from '../../../contract/endpoint';
import { ORDER_ENDPOINTS } from '../../../contract/orders';
import { captcha, databaseDigest, DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';

const CONTACTS_PATHS = routePaths(CONTACTS_ENDPOINTS);
const ORDER_PATHS = routePaths(ORDER_ENDPOINTS);

describe.each(DATABASE_TARGETS)('bad input on $kind', (target) => {
  let t: TestApp;
  let admin: Session;
  let seller: Session;
  const logLines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    t = await startTestApp(target, { app: { logger: { level: 'info', stream } } });
    admin = await login(t.app, 'admin', 'admin123');
    seller = await login(t.app, 'seller', 'seller123');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A call that must answer 400 naming `field`, write nothing and never read "Internal server error". */
  const refused = async (field: string, request: InjectOptions) => {
    const before = await databaseDigest(t.database);
    const response = await t.app.inject(request);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ msg: string; data: { field?: string } | null }>();
    expect(body.data).toEqual({ field });
    expect(body.msg).toContain(field);
    expect(body.msg).not.toMatch(/Internal server error|服务器内部错误/);
    expect(await databaseDigest(t.database)).toBe(before);
  };
  const json = (url: string, payload: unknown, headers: Record<string, string>) =>
    ({ method: 'POST' as const, url, headers: { ...headers, 'content-type': 'application/json' }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

  it('refuses a NUL byte in any string, public routes included', async () => {
    await refused('username', json('/api/login', { username: 'admin\u0000', password: 'admin123', ...(await captcha(t.app)) }, {}));
    await refused('auto', json('/api/loginCheck', { username: 'admin', auto: 'a\u0000b' }, {}));
    // The call that once logged a new user's password hash: a NUL in the introduction.
    await refused('introduction', json(ADMIN_USER_PATHS.add, { username: 'nul_intro', password: 'abc12345', introduction: 'hi\u0000' }, admin.headers));
    await refused('search', { method: 'GET', url: `${ORDER_PATHS.list}?search=a%00b`, headers: seller.headers });
  });

  it('refuses lone surrogates', async () => {
    await refused('introduction', json(ADMIN_USER_PATHS.add, '{"username":"surrogate","password":"abc12345","introduction":"\\ud800x"}', admin.headers));
    await refused('name', json(CONTACTS_PATHS.addSection, '{"name":"\\udc00"}', seller.headers));
  });

  it('refuses dates and numbers past a sane range', async () => {
    const order = { orderNumber: 'N-1', productName: 'p', quantity: 1, amount: 1 };
    await refused('inProcessAt', json(ORDER_PATHS.add, { ...order, inProcessAt: 1e308 }, seller.headers));
    // Sent as written: JSON.parse reads it as 2^53, past any sane date.
    await refused('inProcessAt', json(ORDER_PATHS.add, JSON.stringify(order).replace('}', ',"inProcessAt":9007199254740993}'), seller.headers));
    await refused('inProcessFrom', { method: 'GET', url: `${ORDER_PATHS.list}?inProcessFrom=-1e300`, headers: seller.headers });
    await refused('before', { method: 'GET', url: `${CONTACTS_PATHS.history}?kind=friend&id=1&before=99999999999`, headers: seller.headers });
    await refused('followValidTime', json(ADMIN_USER_PATHS.add, { username: 'far_future', password: 'abc12345', followValidTime: 1e16 }, admin.headers));
  });

  it('refuses a non-ASCII API key, and true or [1] as an id', async () => {
    await refused('apiKey', json('/api/store/add', { name: 'x', clientId: '1001', apiKey: 'ключ' }, seller.headers));
    await refused('toId', json(CONTACTS_PATHS.applyFriend, { toId: true }, seller.headers));
    await refused('toId', json(CONTACTS_PATHS.applyFriend, { toId: [1] }, seller.headers));
    await refused('id', json('/api/store/delete', { id: 99999999999 }, seller.headers));
  });

  it("answers a bad sync cursor with a 400 on cursor, not an internal error", async () => {
    await refused('cursor', { method: 'GET', url: `${ORDER_PATHS.sync}?cursor='`, headers: seller.headers });
  });

  it('does not log a wrong captcha or a taken user name as a server error', async () => {
    logLines.length = 0;
    const { uuid } = await captcha(t.app);
    expect((await t.app.inject(json('/api/user/register', { username: 'someone', password: 'abc12345', uuid, code: 'ZZZZ' }, {}))).statusCode).toBe(509);
    expect((await t.app.inject(json('/api/user/register', { username: 'seller', password: 'abc12345', ...(await captcha(t.app)) }, {}))).statusCode).toBe(507);
    expect((await t.app.inject(json(ADMIN_USER_PATHS.add, { username: 'seller', password: 'abc12345' }, admin.headers))).statusCode).toBe(507);
    const errors = logLines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((entry) => entry.level >= 50);
    expect(errors).toEqual([]);
  });
});
