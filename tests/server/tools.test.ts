import type { FastifyInstance } from 'fastify';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';
import type { ConvertAnswer, HistoryAnswer, RatesAnswer } from '../../contract/tools';

type Envelope<T> = { code: number; msg: string; data: T };

async function get<T>(app: FastifyInstance, session: Session | null, url: string) {
  const response = await app.inject({ method: 'GET', url, headers: session?.headers ?? {} });
  return { status: response.statusCode, body: response.json<Envelope<T>>() };
}

/** Cents of `amount` times roubles-per-nominal, the way a person checks it by hand (exact in doubles at these sizes). */
function byHand(amount: string, value: string, nominal: number): string {
  const cents = Math.round(Number(amount) * 100);
  const rate = Math.round(Number(value) * 10_000);
  const result = Math.round((cents * rate) / (nominal * 10_000));
  return `${Math.floor(result / 100)}.${String(result % 100).padStart(2, '0')}`;
}

describe.each(DATABASE_TARGETS)('exchange rates ($kind)', (target) => {
  let test: TestApp;
  let seller: Session;
  beforeEach(async () => {
    test = await startTestApp(target, { app: { tools: { refreshEveryMs: 0 } } });
    seller = await login(test.app, 'seller', 'seller123');
  });
  afterEach(async () => test.close());

  it("answers every currency the bank publishes, for the next working day's date, from the bank", async () => {
    // The test clock is Tuesday 2025-06-10: the bank has already set Wednesday's rates.
    const { status, body } = await get<RatesAnswer>(test.app, seller, '/api/tool/rates');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ date: '2025-06-11', stale: false, problem: null, source: 'cbr' });
    expect(body.data.rates.map((rate) => rate.code)).toEqual(expect.arrayContaining(['CNY', 'USD', 'EUR', 'JPY']));
    expect(body.data.rates.find((rate) => rate.code === 'JPY')).toMatchObject({ nominal: 100, name: 'Иен' });
  });

  it('converts exactly to the kopeck, through the nominal, between any two currencies', async () => {
    const rates = (await get<RatesAnswer>(test.app, seller, '/api/tool/rates')).body.data.rates;
    const jpy = rates.find((rate) => rate.code === 'JPY');
    if (!jpy) throw new Error('no JPY');
    const toRub = await get<ConvertAnswer>(test.app, seller, '/api/tool/rates/convert?from=JPY&to=RUB&amount=12345.67');
    expect(toRub.status).toBe(200);
    expect(toRub.body.data).toMatchObject({ from: 'JPY', to: 'RUB', amount: '12345.67', date: '2025-06-11' });
    expect(toRub.body.data.result).toBe(byHand('12345.67', jpy.value, jpy.nominal));
    const cny = rates.find((rate) => rate.code === 'CNY');
    const usd = rates.find((rate) => rate.code === 'USD');
    if (!cny || !usd) throw new Error('no CNY or USD');
    const cross = await get<ConvertAnswer>(test.app, seller, '/api/tool/rates/convert?from=cny&to=usd&amount=100');
    const expected = Math.round((10_000 * Math.round(Number(cny.value) * 1e4)) / Math.round(Number(usd.value) * 1e4)) / 100;
    expect(Number(cross.body.data.result)).toBe(expected);
    expect(cross.body.data.result).toMatch(/^\d+\.\d{2}$/);
  });

  it('keeps converting with the stored rates and their date while the bank is down', async () => {
    await get(test.app, seller, '/api/tool/rates');
    test.app.integrations.cbr.simulator?.setDown(true);
    test.clock.advance(2 * 86_400_000);
    seller = await login(test.app, 'seller', 'seller123');
    const { status, body } = await get<ConvertAnswer>(test.app, seller, '/api/tool/rates/convert?from=CNY&to=RUB&amount=1');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ date: '2025-06-11', stale: true });
    expect(body.data.problem).toContain('503');
  });

  it('says the bank cannot be reached when nothing is stored yet, and names a bad field', async () => {
    test.app.integrations.cbr.simulator?.setDown(true);
    const down = await get(test.app, seller, '/api/tool/rates/convert?from=CNY&to=RUB&amount=1');
    expect(down.status).toBe(502);
    expect(down.body.msg).toContain('俄罗斯央行');
    test.app.integrations.cbr.simulator?.setDown(false);
    const unknown = await get(test.app, seller, '/api/tool/rates/convert?from=XYZ&to=RUB&amount=1');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ data: { field: 'from' } });
    const amount = await get(test.app, seller, '/api/tool/rates/convert?from=CNY&to=RUB&amount=1.234');
    expect(amount.status).toBe(400);
    expect(amount.body).toMatchObject({ data: { field: 'amount' } });
    const range = await get(test.app, seller, '/api/tool/rates/history?code=USD&from=2025-06-01&to=2025-05-01');
    expect(range.status).toBe(400);
  });

  it("reads a currency's history once, then answers it from storage while the bank is down", async () => {
    const first = await get<HistoryAnswer>(test.app, seller, '/api/tool/rates/history?code=USD&from=2025-05-01&to=2025-06-10');
    expect(first.status).toBe(200);
    expect(first.body.data.complete).toBe(true);
    const dates = first.body.data.points.map((point) => point.date);
    expect(dates[0]).toBe('2025-05-01');
    // Working days only: no Sunday or Monday.
    expect(dates.every((date) => ![0, 1].includes(new Date(`${date}T00:00:00Z`).getUTCDay()))).toBe(true);
    test.app.integrations.cbr.simulator?.setDown(true);
    const again = await get<HistoryAnswer>(test.app, seller, '/api/tool/rates/history?code=USD&from=2025-05-01&to=2025-06-10');
    expect(again.body.data).toMatchObject({ complete: true, points: first.body.data.points });
  });

  it('is open to every signed-in user and to no one else', async () => {
    const newbie = await login(test.app, 'newbie', 'newbie123');
    expect((await get(test.app, newbie, '/api/tool/rates')).status).toBe(200);
    expect((await get(test.app, null, '/api/tool/rates')).status).not.toBe(200);
  });
});
