import type { FastifyInstance } from 'fastify';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';
import type { Preferences } from '../../contract/preferences';

type Envelope<T> = { code: number; msg: string; data: T };

async function call<T>(app: FastifyInstance, session: Session, method: 'GET' | 'POST', payload?: Record<string, unknown>) {
  const response = await app.inject({ method, url: '/api/user/preferences', headers: session.headers, ...(payload === undefined ? {} : { payload }) });
  return { status: response.statusCode, body: response.json<Envelope<T>>() };
}

describe.each(DATABASE_TARGETS)('display currency preference ($kind)', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target, { app: { tools: { refreshEveryMs: 0 } } });
  });
  afterEach(async () => test.close());

  it('starts as each amount in its own currency and keeps what each user chose, for that user only', async () => {
    const seller = await login(test.app, 'seller', 'seller123');
    const admin = await login(test.app, 'admin', 'admin123');
    expect((await call<Preferences>(test.app, seller, 'GET')).body.data).toEqual({ displayCurrency: 'original' });

    const saved = await call<Preferences>(test.app, seller, 'POST', { displayCurrency: 'RUB' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ displayCurrency: 'RUB' });

    // Another sign-in of the same user (another browser) finds it; another user does not.
    const again = await login(test.app, 'seller', 'seller123');
    expect((await call<Preferences>(test.app, again, 'GET')).body.data).toEqual({ displayCurrency: 'RUB' });
    expect((await call<Preferences>(test.app, admin, 'GET')).body.data).toEqual({ displayCurrency: 'original' });

    await call(test.app, seller, 'POST', { displayCurrency: 'CNY' });
    expect((await call<Preferences>(test.app, seller, 'GET')).body.data).toEqual({ displayCurrency: 'CNY' });
  });

  it('refuses a currency it does not show, naming the field, and keeps the saved one', async () => {
    const seller = await login(test.app, 'seller', 'seller123');
    await call(test.app, seller, 'POST', { displayCurrency: 'RUB' });
    const refused = await call(test.app, seller, 'POST', { displayCurrency: 'USD' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ data: { field: 'displayCurrency' } });
    expect((await call<Preferences>(test.app, seller, 'GET')).body.data).toEqual({ displayCurrency: 'RUB' });
  });

  it('answers a caller without a session with 402, not a preference', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/user/preferences' });
    expect(response.statusCode).toBe(402);
  });
});
