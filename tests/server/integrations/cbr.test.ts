import Fastify from 'fastify';
import iconv from 'iconv-lite';
import { createCbrClient, CbrUnavailable } from '../../../server/integrations/cbr/client';
import { parseDaily } from '../../../server/integrations/cbr/format';
import { cbrSimulatorPlugin, createCbrSimulator, CBR_CURRENCIES } from '../../../server/integrations/cbr/simulator';
import { injectFetch } from '../../../server/marketplace/simulator/injectFetch';

const NOW = new Date('2026-11-26T08:00:00Z'); // a Thursday

async function setup() {
  const simulator = createCbrSimulator({ now: () => NOW });
  const app = Fastify();
  await app.register(cbrSimulatorPlugin, { simulator, prefix: '/sim/cbr' });
  const client = createCbrClient({ baseUrl: 'http://cbr.test/sim/cbr/', fetch: injectFetch(app) });
  return { app, simulator, client };
}

describe('Bank of Russia rates: client against its simulator', () => {
  it('reads the daily document in windows-1251 with every published currency', async () => {
    const { app, client } = await setup();
    const daily = await client.daily();
    // Tomorrow's rates are published the day before.
    expect(daily.date).toBe('2026-11-27');
    expect(daily.rates).toHaveLength(CBR_CURRENCIES.length);
    const cny = daily.rates.find((rate) => rate.charCode === 'CNY');
    expect(cny).toMatchObject({ id: 'R01375', numCode: '156', nominal: 1, name: 'Юань' });
    expect(cny?.value).toMatch(/^\d+\.\d{4}$/);
    const jpy = daily.rates.find((rate) => rate.charCode === 'JPY');
    expect(jpy?.nominal).toBe(100);
    const raw = await app.inject({ url: '/sim/cbr/scripts/XML_daily.asp' });
    expect(raw.headers['content-type']).toContain('windows-1251');
    expect(raw.rawPayload.includes(iconv.encode('Юань', 'win1251'))).toBe(true);
  });

  it('answers a Sunday and a Monday with the Saturday rates, as the bank sets them', async () => {
    const { client } = await setup();
    const saturday = await client.daily('2026-11-21');
    expect(saturday.date).toBe('2026-11-21');
    expect((await client.daily('2026-11-22')).date).toBe('2026-11-21');
    const monday = await client.daily('2026-11-23');
    expect(monday.date).toBe('2026-11-21');
    expect(monday.rates).toEqual(saturday.rates);
  });

  it('reads one currency over a range, working days only, the same values as the daily documents', async () => {
    const { client } = await setup();
    const dynamic = await client.dynamic('R01235', '2026-11-01', '2026-11-14');
    expect(dynamic.id).toBe('R01235');
    expect(dynamic.records.map((record) => record.date)).toEqual([
      '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-07',
      '2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13', '2026-11-14',
    ]);
    const daily = await client.daily('2026-11-12');
    expect(dynamic.records.find((record) => record.date === '2026-11-12')?.value).toBe(daily.rates.find((rate) => rate.charCode === 'USD')?.value);
  });

  it('says why when the service refuses, is down, or answers what is not a rate document', async () => {
    const { simulator, client } = await setup();
    await expect(client.dynamic('R99999', '2026-11-01', '2026-11-02')).rejects.toMatchObject({ name: 'CbrUnavailable', reason: 'format' });
    simulator.setDown(true);
    const failure = await client.daily().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CbrUnavailable);
    expect(failure).toMatchObject({ reason: 'refused', message: expect.stringContaining('503') });
    const unreachable = createCbrClient({ baseUrl: 'http://cbr.test/', fetch: () => Promise.reject(new TypeError('fetch failed')) });
    await expect(unreachable.daily()).rejects.toMatchObject({ reason: 'unreachable' });
    expect(() => parseDaily('<ValCurs Date="27.11.2026"><Valute ID="R1"><CharCode>CNY</CharCode><Nominal>1</Nominal><Value>abc</Value></Valute></ValCurs>')).toThrow(/not a decimal/);
  });
});
