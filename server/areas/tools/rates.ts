import type { Database } from '../../db/database';
import type { CbrClient, CbrUnavailable } from '../../integrations/cbr/client';
import type { CbrRate } from '../../integrations/cbr/format';

/**
 * Exchange rates for the tools page and the listing pages' pricing: the Bank of Russia's official rates, read on a
 * schedule and kept in fx_rates, so every answer comes from what is stored and says which date it is for and when it
 * was read. Conversion is exact: rates have four decimals, amounts two, and the result is rounded half up to the
 * kopeck (or cent) once, at the end.
 */

export type RatesDeps = { database: Database; cbr: CbrClient; now: () => Date };

export type StoredRate = { code: string; cbrId: string; numCode: string; nominal: number; name: string; value: string };
export type RatesOfDay = { date: string; fetchedAt: string; rates: StoredRate[] };

/** The rouble has no row of its own: its rate is 1 for 1. */
export const RUB: StoredRate = { code: 'RUB', cbrId: '', numCode: '643', nominal: 1, name: 'Российский рубль', value: '1.0000' };

export class RatesError extends Error {
  override name = 'RatesError';
  constructor(
    readonly reason: 'noRates' | 'unknownCurrency',
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

type RateToStore = Pick<CbrRate, 'id' | 'numCode' | 'charCode' | 'nominal' | 'name' | 'value'> & { date: string };

async function store(database: Database, rates: readonly RateToStore[], now: Date) {
  if (rates.length === 0) return;
  const params: unknown[] = [];
  const rows = rates.map((rate) => {
    params.push(rate.date, rate.charCode, rate.id, rate.numCode, rate.nominal, rate.name, rate.value, now.toISOString());
    const at = params.length - 8;
    return `($${at + 1}::date, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::int, $${at + 6}, $${at + 7}::numeric, $${at + 8}::timestamptz)`;
  });
  await database.query(
    `insert into fx_rates (date, code, cbr_id, num_code, nominal, name, value, fetched_at)
     values ${rows.join(', ')}
     on conflict (date, code) do update set cbr_id = excluded.cbr_id, num_code = excluded.num_code, nominal = excluded.nominal,
       name = excluded.name, value = excluded.value, fetched_at = excluded.fetched_at`,
    params,
  );
}

/** Reads the bank's latest rates (or those of `date`) and keeps them; answers the date they are for. */
export async function refreshRates(deps: RatesDeps, date?: string): Promise<string> {
  const daily = await deps.cbr.daily(date);
  await store(deps.database, daily.rates.map((rate) => ({ ...rate, date: daily.date })), deps.now());
  return daily.date;
}

type RateRow = { date: string; code: string; cbr_id: string; num_code: string; nominal: number; name: string; value: string; fetched_at: string };

const toStored = (row: RateRow): StoredRate => ({ code: row.code, cbrId: row.cbr_id, numCode: row.num_code, nominal: row.nominal, name: row.name, value: row.value });

/** The stored rates of the latest date on or before `date` (any date when absent), or null when none are stored. */
export async function storedRates(database: Database, date?: string): Promise<RatesOfDay | null> {
  const rows = await database.query<RateRow>(
    `select to_char(date, 'YYYY-MM-DD') as date, code, cbr_id, num_code, nominal, name, value::text as value, fetched_at::text as fetched_at
     from fx_rates
     where date = (select max(date) from fx_rates where ($1::date is null or date <= $1::date))
     order by code`,
    [date ?? null],
  );
  const first = rows[0];
  if (!first) return null;
  const fetchedAt = rows.reduce((latest, row) => (row.fetched_at > latest ? row.fetched_at : latest), first.fetched_at);
  return { date: first.date, fetchedAt: new Date(fetchedAt).toISOString(), rates: rows.map(toStored) };
}

/**
 * The rates for a date (the latest when absent): stored ones when the stored date is current, else read from the
 * bank first; when the bank cannot be reached, the latest stored with `stale` set (and the reason). Nothing stored
 * and the bank down: a RatesError.
 */
export async function ratesFor(deps: RatesDeps, date?: string): Promise<RatesOfDay & { stale: boolean; problem: string | null }> {
  const stored = await storedRates(deps.database, date);
  const wanted = date ?? tomorrow(deps.now());
  // Rates are set on working days only, so a stored date before the one asked for may still be current: the bank is
  // asked again at most once an hour for it.
  const readRecently = stored !== null && deps.now().getTime() - Date.parse(stored.fetchedAt) < REREAD_AFTER_MS;
  if (stored && (daysBetween(stored.date, wanted) <= 0 || readRecently)) return { ...stored, stale: false, problem: null };
  try {
    await refreshRates(deps, date);
  } catch (error) {
    if (stored) return { ...stored, stale: true, problem: (error as CbrUnavailable).message };
    throw new RatesError('noRates', (error as Error).message);
  }
  const fresh = await storedRates(deps.database, date);
  if (!fresh) throw new RatesError('noRates', 'the bank answered no rates');
  return { ...fresh, stale: false, problem: null };
}

const REREAD_AFTER_MS = 3_600_000;

function tomorrow(now: Date): string {
  return new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

/** Exact to the hundredth, rounded once: shared with the browser's display currency. */
export { convertExact } from '../../../contract/money';

export function findRate(rates: readonly StoredRate[], code: string, field: string): StoredRate {
  if (code === 'RUB') return RUB;
  const rate = rates.find((entry) => entry.code === code);
  if (!rate) throw new RatesError('unknownCurrency', `no rate for ${code}`, field);
  return rate;
}

export type HistoryPoint = { date: string; value: string; nominal: number };

/**
 * One currency's rate on each date it was set from `from` to `to`: read from the bank for the whole range when what is
 * stored does not cover it, else (or when the bank cannot be reached) what is stored, with `complete` false then.
 */
export async function rateHistory(deps: RatesDeps, code: string, from: string, to: string): Promise<{ points: HistoryPoint[]; complete: boolean; problem: string | null }> {
  const latest = await ratesFor(deps);
  const rate = findRate(latest.rates, code, 'code');
  const read = async () =>
    (
      await deps.database.query<{ date: string; value: string; nominal: number }>(
        `select to_char(date, 'YYYY-MM-DD') as date, value::text as value, nominal from fx_rates
         where code = $1 and date between $2::date and $3::date order by date`,
        [code, from, to],
      )
    ).map((row) => ({ date: row.date, value: row.value, nominal: row.nominal }));
  if (code === 'RUB') return { points: [], complete: true, problem: null };
  let points = await read();
  // Working days are five of seven: fewer stored than that share of the range means the range was never read whole.
  const expected = Math.floor(((daysBetween(from, to) + 1) * 5) / 7) - 3;
  if (points.length >= expected) return { points, complete: true, problem: null };
  try {
    const dynamic = await deps.cbr.dynamic(rate.cbrId, from, to);
    const rows = dynamic.records.map((record) => ({ ...record, id: rate.cbrId, numCode: rate.numCode, charCode: code, name: rate.name }));
    for (let start = 0; start < rows.length; start += 500) await store(deps.database, rows.slice(start, start + 500), deps.now());
    points = await read();
    return { points, complete: true, problem: null };
  } catch (error) {
    return { points, complete: false, problem: (error as Error).message };
  }
}
