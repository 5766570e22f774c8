import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USER_PATHS } from '../../../contract/admin';
import { CHAT_ENDPOINTS, CONTACTS_ENDPOINTS } from '../../../contract/chat';
import { routePaths } from '../../../contract/endpoint';
import { FEATURE_UPDATE_PATHS, NOTICE_PATHS } from '../../../contract/notice';
import { ORDER_ENDPOINTS } from '../../../contract/orders';
import { STORE_ENDPOINTS } from '../../../contract/store';
import { INPUT_ERROR_CODES } from '../../../server/http/errors';
import { createOzonSimulator } from '../../../server/marketplace/simulator/plugin';
import { captcha, databaseDigest, DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';

const CHAT_PATHS = routePaths(CHAT_ENDPOINTS);
const CONTACTS_PATHS = routePaths(CONTACTS_ENDPOINTS);
const ORDER_PATHS = routePaths(ORDER_ENDPOINTS);
const STORE_PATHS = routePaths(STORE_ENDPOINTS);

type Caller = 'public' | 'seller' | 'admin';
/** A write route and a body it accepts (or nearly): each field in turn is replaced by each bad value. */
type WriteRoute = { path: string; as: Caller; body: () => Promise<Record<string, unknown>> | Record<string, unknown> };

const order = { orderNumber: 'F-1', productName: 'fuzz', quantity: 1, amount: 1, inProcessAt: Date.UTC(2026, 0, 1) };
const ids = ['fuzz-order'];

const ROUTES: WriteRoute[] = [
  { path: '/api/login', as: 'public', body: async () => ({ username: 'newbie', password: 'wrong12345', ...(await captchaOf()) }) },
  { path: '/api/user/register', as: 'public', body: async () => ({ username: 'fuzz_user', password: 'abc12345', ...(await captchaOf()) }) },
  { path: '/api/loginCheck', as: 'public', body: () => ({ username: 'seller', auto: 'x' }) },
  { path: '/api/user/checkPsw', as: 'seller', body: () => ({ password: 'x' }) },
  { path: ORDER_PATHS.add, as: 'seller', body: () => order },
  { path: ORDER_PATHS.update, as: 'seller', body: () => ({ ...order, id: 'fuzz-order' }) },
  { path: ORDER_PATHS.delete, as: 'seller', body: () => ({ ids }) },
  { path: ORDER_PATHS.ship, as: 'seller', body: () => ({ ids }) },
  { path: ORDER_PATHS.addTrackNumber, as: 'seller', body: () => ({ items: [{ id: 'fuzz-order', trackingNumber: 'T1' }] }) },
  { path: ORDER_PATHS.updateTrack, as: 'seller', body: () => ({ id: 'fuzz-order', trackingNumber: 'T1' }) },
  { path: ORDER_PATHS.setEubOrder, as: 'seller', body: () => ({ ids, trackingNumber: 'T1' }) },
  { path: ORDER_PATHS.updateStock, as: 'seller', body: () => ({ items: [{ storeId: 1, offerId: 'o', warehouseId: 'w', stock: 1 }] }) },
  { path: STORE_PATHS.add, as: 'seller', body: () => ({ name: 'fuzz', clientId: '1003', apiKey: 'wrong-key' }) },
  { path: STORE_PATHS.update, as: 'seller', body: () => ({ id: 1, name: 'fuzz' }) },
  { path: STORE_PATHS.delete, as: 'seller', body: () => ({ id: 999 }) },
  { path: STORE_PATHS.multiDelete, as: 'seller', body: () => ({ ids: [999] }) },
  { path: STORE_PATHS.syncOrderList, as: 'seller', body: () => ({ storeId: 999 }) },
  { path: CHAT_PATHS.send, as: 'seller', body: () => ({ storeId: 999, chatId: 'c', text: 'hi' }) },
  { path: CHAT_PATHS.read, as: 'seller', body: () => ({ storeId: 999, chatId: 'c' }) },
  { path: CONTACTS_PATHS.applyFriend, as: 'seller', body: () => ({ toId: 999, message: 'hi' }) },
  { path: CONTACTS_PATHS.acceptFriend, as: 'seller', body: () => ({ requestId: 999 }) },
  { path: CONTACTS_PATHS.addSection, as: 'seller', body: () => ({ name: 'fuzz' }) },
  { path: CONTACTS_PATHS.renameSection, as: 'seller', body: () => ({ id: 999, name: 'fuzz' }) },
  { path: CONTACTS_PATHS.createGroup, as: 'seller', body: () => ({ name: 'fuzz', introduction: 'x' }) },
  { path: CONTACTS_PATHS.decideGroup, as: 'seller', body: () => ({ requestId: 999, accept: true }) },
  { path: CONTACTS_PATHS.addNotice, as: 'seller', body: () => ({ groupId: 999, title: 'x' }) },
  { path: CONTACTS_PATHS.send, as: 'seller', body: () => ({ kind: 'friend', id: 999, content: 'hi' }) },
  { path: CONTACTS_PATHS.read, as: 'seller', body: () => ({ kind: 'friend', id: 999, messageId: 1 }) },
  { path: ADMIN_USER_PATHS.add, as: 'admin', body: () => ({ username: 'fuzz_admin', password: 'abc12345', introduction: 'x', followValidTime: Date.UTC(2027, 0, 1) }) },
  { path: ADMIN_USER_PATHS.update, as: 'admin', body: () => ({ id: 999, introduction: 'x' }) },
  { path: ADMIN_USER_PATHS.delete, as: 'admin', body: () => ({ ids: [999] }) },
  { path: NOTICE_PATHS.add, as: 'admin', body: () => ({ text: 'fuzz' }) },
  { path: NOTICE_PATHS.update, as: 'admin', body: () => ({ id: 999, text: 'fuzz' }) },
  { path: FEATURE_UPDATE_PATHS.add, as: 'admin', body: () => ({ startDate: '2026-01-01', items: [{ zh: 'x', en: 'x' }] }) },
];

/** Values no field of any route means: each must be refused with a 4xx, never a 500 or a write. */
const BAD_VALUES: unknown[] = ['a\u0000b', '\ud800', 1e308, -1e300, 2 ** 53 + 2, 99999999999, true, [1], { $gt: '' }, "'; select 1 --", 'x'.repeat(20_000)];

let captchaOf: () => Promise<{ uuid: string; code: string }>;

describe.each(DATABASE_TARGETS)('write routes under generated bad values on $kind', (target) => {
  let t: TestApp;
  const sessions: Partial<Record<Caller, Session>> = {};
  beforeAll(async () => {
    const simulator = createOzonSimulator({ ordersPerShop: 5, productsPerShop: 5, control: { labelReadyDelayMs: 0, taskDelayMs: 0 } });
    t = await startTestApp(target, { app: { marketplace: { simulator } } });
    captchaOf = () => captcha(t.app);
    sessions.seller = await login(t.app, 'seller', 'seller123');
    sessions.admin = await login(t.app, 'admin', 'admin123');
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(ROUTES)('$path: no 500, and nothing written when a field is refused', async (route) => {
    const headers = route.as === 'public' ? {} : sessions[route.as]!.headers;
    const fields = Object.keys(await route.body());
    let before = await databaseDigest(t.database);
    for (const field of fields) {
      for (const bad of BAD_VALUES) {
        const base = await route.body();
        const value = Array.isArray(base[field]) && typeof base[field][0] === 'object' ? [{ ...base[field][0], [Object.keys(base[field][0])[0]!]: bad }] : bad;
        const response = await t.app.inject({ method: 'POST', url: route.path, headers, payload: { ...base, [field]: value } });
        const what = `${route.path} ${field}=${JSON.stringify(value).slice(0, 40)}: ${response.statusCode} ${response.body.slice(0, 200)}`;
        // A refusal of the input: a 4xx or one of the catalogue's input codes (507 name taken, 508/509 captcha).
        expect(response.statusCode < 500 || INPUT_ERROR_CODES.has(response.statusCode), what).toBe(true);
        const after = await databaseDigest(t.database);
        // An answer naming a field refused the input: nothing may have been written (a wrong password's failure
        // count, answered without a field, is a write the limit needs).
        if (response.json<{ data: { field?: string } | null }>().data?.field) expect(after, `${what} wrote`).toBe(before);
        before = after;
      }
    }
  });
});
