import type { FastifyInstance, FastifyReply } from 'fastify';
import iconv from 'iconv-lite';

/**
 * The Bank of Russia's XML rate services, simulated in-process for the demo and the tests: the same paths, query
 * parameters, windows-1251 documents and refusals as https://www.cbr.ru/scripts/XML_daily.asp and XML_dynamic.asp.
 * Rates are generated deterministically per date from a base near the real ones; like the real service they are set
 * on working days (Tuesday to Saturday) and a Sunday or Monday answers the Saturday's rates.
 */

type Currency = { id: string; numCode: string; charCode: string; nominal: number; name: string; base: number };

/** The currencies the Bank of Russia publishes, with their ids, nominals and Russian names. */
export const CBR_CURRENCIES: readonly Currency[] = [
  { id: 'R01010', numCode: '036', charCode: 'AUD', nominal: 1, name: 'Австралийский доллар', base: 52.4 },
  { id: 'R01020A', numCode: '944', charCode: 'AZN', nominal: 1, name: 'Азербайджанский манат', base: 47.1 },
  { id: 'R01035', numCode: '826', charCode: 'GBP', nominal: 1, name: 'Фунт стерлингов', base: 104.6 },
  { id: 'R01060', numCode: '051', charCode: 'AMD', nominal: 100, name: 'Армянских драмов', base: 20.9 },
  { id: 'R01090B', numCode: '933', charCode: 'BYN', nominal: 1, name: 'Белорусский рубль', base: 26.8 },
  { id: 'R01100', numCode: '975', charCode: 'BGN', nominal: 1, name: 'Болгарский лев', base: 47.4 },
  { id: 'R01115', numCode: '986', charCode: 'BRL', nominal: 1, name: 'Бразильский реал', base: 14.6 },
  { id: 'R01135', numCode: '348', charCode: 'HUF', nominal: 100, name: 'Форинтов', base: 23.6 },
  { id: 'R01150', numCode: '704', charCode: 'VND', nominal: 10000, name: 'Донгов', base: 30.4 },
  { id: 'R01200', numCode: '344', charCode: 'HKD', nominal: 1, name: 'Гонконгский доллар', base: 10.3 },
  { id: 'R01210', numCode: '981', charCode: 'GEL', nominal: 1, name: 'Лари', base: 29.5 },
  { id: 'R01215', numCode: '208', charCode: 'DKK', nominal: 1, name: 'Датская крона', base: 12.4 },
  { id: 'R01230', numCode: '784', charCode: 'AED', nominal: 1, name: 'Дирхам ОАЭ', base: 21.8 },
  { id: 'R01235', numCode: '840', charCode: 'USD', nominal: 1, name: 'Доллар США', base: 80.2 },
  { id: 'R01239', numCode: '978', charCode: 'EUR', nominal: 1, name: 'Евро', base: 92.7 },
  { id: 'R01240', numCode: '818', charCode: 'EGP', nominal: 10, name: 'Египетских фунтов', base: 16.5 },
  { id: 'R01270', numCode: '356', charCode: 'INR', nominal: 100, name: 'Индийских рупий', base: 91.3 },
  { id: 'R01280', numCode: '360', charCode: 'IDR', nominal: 10000, name: 'Рупий', base: 48.7 },
  { id: 'R01335', numCode: '398', charCode: 'KZT', nominal: 100, name: 'Тенге', base: 15.4 },
  { id: 'R01350', numCode: '124', charCode: 'CAD', nominal: 1, name: 'Канадский доллар', base: 57.3 },
  { id: 'R01355', numCode: '634', charCode: 'QAR', nominal: 1, name: 'Катарский риал', base: 22.0 },
  { id: 'R01370', numCode: '417', charCode: 'KGS', nominal: 10, name: 'Киргизских сомов', base: 9.17 },
  { id: 'R01375', numCode: '156', charCode: 'CNY', nominal: 1, name: 'Юань', base: 11.12 },
  { id: 'R01500', numCode: '498', charCode: 'MDL', nominal: 10, name: 'Молдавских леев', base: 46.8 },
  { id: 'R01530', numCode: '554', charCode: 'NZD', nominal: 1, name: 'Новозеландский доллар', base: 46.2 },
  { id: 'R01535', numCode: '578', charCode: 'NOK', nominal: 10, name: 'Норвежских крон', base: 79.0 },
  { id: 'R01565', numCode: '985', charCode: 'PLN', nominal: 1, name: 'Злотый', base: 21.8 },
  { id: 'R01585F', numCode: '946', charCode: 'RON', nominal: 1, name: 'Румынский лей', base: 18.2 },
  { id: 'R01589', numCode: '960', charCode: 'XDR', nominal: 1, name: 'СДР (специальные права заимствования)', base: 109.4 },
  { id: 'R01625', numCode: '702', charCode: 'SGD', nominal: 1, name: 'Сингапурский доллар', base: 61.6 },
  { id: 'R01670', numCode: '972', charCode: 'TJS', nominal: 10, name: 'Таджикских сомони', base: 85.9 },
  { id: 'R01675', numCode: '764', charCode: 'THB', nominal: 10, name: 'Батов', base: 24.6 },
  { id: 'R01700J', numCode: '949', charCode: 'TRY', nominal: 10, name: 'Турецких лир', base: 19.2 },
  { id: 'R01710A', numCode: '934', charCode: 'TMT', nominal: 1, name: 'Новый туркменский манат', base: 22.9 },
  { id: 'R01717', numCode: '860', charCode: 'UZS', nominal: 10000, name: 'Узбекских сумов', base: 66.4 },
  { id: 'R01720', numCode: '980', charCode: 'UAH', nominal: 10, name: 'Гривен', base: 19.3 },
  { id: 'R01760', numCode: '203', charCode: 'CZK', nominal: 10, name: 'Чешских крон', base: 38.3 },
  { id: 'R01770', numCode: '752', charCode: 'SEK', nominal: 10, name: 'Шведских крон', base: 85.4 },
  { id: 'R01775', numCode: '756', charCode: 'CHF', nominal: 1, name: 'Швейцарский франк', base: 99.6 },
  { id: 'R01805F', numCode: '941', charCode: 'RSD', nominal: 100, name: 'Сербских динаров', base: 79.2 },
  { id: 'R01810', numCode: '710', charCode: 'ZAR', nominal: 10, name: 'Рэндов', base: 46.1 },
  { id: 'R01815', numCode: '410', charCode: 'KRW', nominal: 1000, name: 'Вон', base: 56.9 },
  { id: 'R01820', numCode: '392', charCode: 'JPY', nominal: 100, name: 'Иен', base: 52.8 },
];

const DAY_MS = 86_400_000;
/** The earliest date the simulator has rates for (the real service goes back to 1992). */
const FIRST_DATE = Date.UTC(2015, 0, 1);

function iso(day: number): string {
  return new Date(day).toISOString().slice(0, 10);
}

/** The working day whose rates apply on `day`: Sunday and Monday take Saturday's. */
function rateDay(day: number): number {
  const weekday = new Date(day).getUTCDay();
  return weekday === 0 ? day - DAY_MS : weekday === 1 ? day - 2 * DAY_MS : day;
}

/** A deterministic number in [-1, 1) per currency and day. */
function noise(seed: string, day: number): number {
  let hash = 2166136261 ^ Math.floor(day / DAY_MS);
  for (let index = 0; index < seed.length; index += 1) hash = Math.imul(hash ^ seed.charCodeAt(index), 16777619);
  hash = Math.imul(hash ^ (hash >>> 15), 2246822507);
  hash = Math.imul(hash ^ (hash >>> 13), 3266489909);
  return ((hash ^ (hash >>> 16)) >>> 0) / 2 ** 31 - 1;
}

/** The rate of `currency` (roubles for its nominal) set on working day `day`, with four decimals and a comma. */
function valueOn(currency: Currency, day: number): string {
  const years = (day - FIRST_DATE) / (365 * DAY_MS);
  const drift = 1 + 0.04 * Math.sin(years * 2.1 + currency.base) + 0.012 * noise(currency.id, day);
  return (currency.base * drift).toFixed(4).replace('.', ',');
}

function perUnit(value: string, nominal: number): string {
  return (Number(value.replace(',', '.')) / nominal).toFixed(7).replace(/0+$/, '').replace(/\.$/, '').replace('.', ',');
}

function requestDay(text: unknown): number | null {
  const match = /^(\d{2})[/.](\d{2})[/.](\d{4})$/.exec(String(text ?? ''));
  if (!match) return null;
  const day = Date.UTC(Number(match[3]), Number(match[2]) - 1, Number(match[1]));
  return Number.isFinite(day) && iso(day) === `${match[3]}-${match[2]}-${match[1]}` ? day : null;
}

const HEAD = '<?xml version="1.0" encoding="windows-1251"?>';

export type CbrSimulatorOptions = {
  /** "Today" for the service: the last date with rates is the next working day after it. */
  now?: () => Date;
};

export type CbrSimulator = {
  daily(dateReq?: string): { status: number; xml: string };
  dynamic(query: Record<string, unknown>): { status: number; xml: string };
  /** Tests and the demo's fault switch: while down, every call answers 503. */
  setDown(down: boolean): void;
  readonly down: boolean;
};

export function createCbrSimulator(options: CbrSimulatorOptions = {}): CbrSimulator {
  const now = options.now ?? (() => new Date());
  let down = false;
  /** The real service publishes tomorrow's rates in the afternoon; the simulator has them from the start of the day. */
  const lastDay = () => rateDay(Math.floor(now().getTime() / DAY_MS) * DAY_MS + DAY_MS);

  return {
    get down() {
      return down;
    },
    setDown(value) {
      down = value;
    },
    daily(dateReq) {
      const asked = dateReq === undefined ? lastDay() : requestDay(dateReq);
      if (asked === null) return { status: 200, xml: 'Error in parameters' };
      const day = rateDay(Math.min(Math.max(asked, FIRST_DATE), lastDay()));
      const date = iso(day).split('-').reverse().join('.');
      const valutes = CBR_CURRENCIES.map((currency) => {
        const value = valueOn(currency, day);
        return `<Valute ID="${currency.id}"><NumCode>${currency.numCode}</NumCode><CharCode>${currency.charCode}</CharCode><Nominal>${currency.nominal}</Nominal><Name>${currency.name}</Name><Value>${value}</Value><VunitRate>${perUnit(value, currency.nominal)}</VunitRate></Valute>`;
      });
      return { status: 200, xml: `${HEAD}<ValCurs Date="${date}" name="Foreign Currency Market">${valutes.join('')}</ValCurs>` };
    },
    dynamic(query) {
      const from = requestDay(query.date_req1);
      const to = requestDay(query.date_req2);
      const currency = CBR_CURRENCIES.find((entry) => entry.id === query.VAL_NM_RQ);
      if (from === null || to === null || !currency) return { status: 200, xml: 'Error in parameters' };
      const records: string[] = [];
      for (let day = Math.max(from, FIRST_DATE); day <= Math.min(to, lastDay()); day += DAY_MS) {
        const weekday = new Date(day).getUTCDay();
        if (weekday === 0 || weekday === 1) continue;
        const value = valueOn(currency, day);
        records.push(`<Record Date="${iso(day).split('-').reverse().join('.')}" Id="${currency.id}"><Nominal>${currency.nominal}</Nominal><Value>${value}</Value><VunitRate>${perUnit(value, currency.nominal)}</VunitRate></Record>`);
      }
      const range = (day: number) => iso(day).split('-').reverse().join('.');
      return {
        status: 200,
        xml: `${HEAD}<ValCurs ID="${currency.id}" DateRange1="${range(from)}" DateRange2="${range(to)}" name="Foreign Currency Market Dynamic">${records.join('')}</ValCurs>`,
      };
    },
  };
}

/** Mounts the simulator's two documents under a prefix (the real service's paths below it). */
export async function cbrSimulatorPlugin(app: FastifyInstance, options: { simulator: CbrSimulator }) {
  const send = (reply: FastifyReply, answer: { status: number; xml: string }) => {
    if (options.simulator.down) return reply.code(503).type('text/html').send('Service Unavailable');
    return reply.code(answer.status).type('application/xml; charset=windows-1251').send(iconv.encode(answer.xml, 'win1251'));
  };
  app.get<{ Querystring: Record<string, string> }>('/scripts/XML_daily.asp', async (request, reply) =>
    send(reply, options.simulator.daily(request.query.date_req)),
  );
  app.get<{ Querystring: Record<string, string> }>('/scripts/XML_dynamic.asp', async (request, reply) =>
    send(reply, options.simulator.dynamic(request.query)),
  );
}

