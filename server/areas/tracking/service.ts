import { FINAL_STATUSES, TRACK_REFRESH_MS, type Carrier, type TrackEvent, type TrackResult, type TrackStatus } from '../../../contract/tracking';
import type { Database } from '../../db/database';
import type { Integrations } from '../../integrations/plugin';
import { CarrierUnavailable, type CarrierAnswer } from '../../integrations/tracking/types';
import { shopScopeSql } from '../team/shopScope';
import { BUILT_IN_PREFIXES, routeNumber, type OuterCarrier } from './routing';

export type TrackingDeps = { database: Database; carriers: Integrations['tracking']; now: () => Date };
type Lang = 'zh' | 'en';

/** Ozon's posting statuses in the tracking vocabulary. */
const OZON_STATUS: Record<string, TrackStatus> = {
  awaiting_registration: 'infoReceived',
  acceptance_in_progress: 'infoReceived',
  awaiting_approve: 'infoReceived',
  awaiting_packaging: 'infoReceived',
  awaiting_deliver: 'infoReceived',
  sent_by_seller: 'inTransit',
  driver_pickup: 'inTransit',
  delivering: 'inTransit',
  delivered: 'delivered',
  cancelled: 'cancelled',
  arbitration: 'exception',
  client_arbitration: 'exception',
  not_accepted: 'exception',
};

// ------------------------------------------------------------------ prefixes

export async function prefixTable(database: Database): Promise<Record<string, OuterCarrier>> {
  const rows = await database.query<{ prefix: string; carrier: OuterCarrier }>('select prefix, carrier from tracking_prefixes');
  return { ...BUILT_IN_PREFIXES, ...Object.fromEntries(rows.map((row) => [row.prefix, row.carrier])) };
}

export async function prefixesAnswer(deps: TrackingDeps) {
  const table = await prefixTable(deps.database);
  return {
    prefixes: Object.entries(table)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([prefix, carrier]) => ({ prefix, carrier, builtIn: prefix in BUILT_IN_PREFIXES })),
    carriers: [
      { carrier: 'ozon' as const, configured: true },
      { carrier: 'russianPost' as const, configured: deps.carriers.russianPost !== null },
      { carrier: 'cainiao' as const, configured: deps.carriers.cainiao !== null },
      { carrier: 'track17' as const, configured: deps.carriers.track17 !== null },
    ],
  };
}

export async function savePrefix(database: Database, prefix: string, carrier: OuterCarrier, userId: number) {
  await database.query(
    `insert into tracking_prefixes (prefix, carrier, created_by) values ($1, $2, $3)
     on conflict (prefix) do update set carrier = excluded.carrier, created_by = excluded.created_by, created_at = now()`,
    [prefix, carrier, userId],
  );
}

/** Removes an added row; false when the prefix is only built in (nothing to remove). */
export async function deletePrefix(database: Database, prefix: string): Promise<boolean> {
  const removed = await database.query('delete from tracking_prefixes where prefix = $1 returning prefix', [prefix]);
  return removed.length > 0 || !(prefix in BUILT_IN_PREFIXES);
}

// ------------------------------------------------------------------ own postings

type OwnRow = { posting_number: string; tracking_number: string; shop_name: string; status: string; in_process_at: Date; delivering_date: Date | null; updated_at: Date };

/**
 * The seller's own postings among the numbers, by tracking number or posting number, answered from the app's data;
 * a member scoped to some shops owns only their shops' (another's number is tracked at its carrier, like anyone's).
 */
async function ownPostings(database: Database, userId: number, numbers: readonly string[]): Promise<Map<string, TrackResult>> {
  const rows = await database.query<OwnRow>(
    `select distinct on (o.posting_number) o.posting_number, o.tracking_number, o.shop_name, o.status, o.in_process_at, o.delivering_date, o.updated_at
       from orders o
      where o.user_id = $1 and not o.deleted and o.source = 'ozon'${shopScopeSql('o.shop_id')}
        and ((o.tracking_number <> '' and o.tracking_number = any($2::text[]))
          or (o.shop_id in (select id from mp_shops where user_id = $1) and o.posting_number = any($2::text[])))
      order by o.posting_number, o.updated_at desc`,
    [userId, numbers],
  );
  const found = new Map<string, TrackResult>();
  for (const row of rows) {
    const status = OZON_STATUS[row.status] ?? 'inTransit';
    const events: TrackEvent[] = [{ time: row.in_process_at.toISOString(), place: row.shop_name, status: 'infoReceived', text: 'awaiting_packaging' }];
    if (row.delivering_date) events.unshift({ time: row.delivering_date.toISOString(), place: '', status: 'inTransit', text: 'delivering' });
    if (row.status !== 'awaiting_packaging' && row.status !== 'delivering') {
      events.unshift({ time: row.updated_at.toISOString(), place: '', status, text: row.status });
    }
    const result: TrackResult = {
      number: '',
      carrier: 'ozon',
      routedBy: 'own',
      posting: { postingNumber: row.posting_number, shopName: row.shop_name },
      status,
      events,
      fetchedAt: row.updated_at.toISOString(),
      fromCache: false,
      problem: null,
      detail: null,
    };
    for (const key of [row.posting_number, row.tracking_number]) if (key && numbers.includes(key)) found.set(key, { ...result, number: key });
  }
  return found;
}

// ------------------------------------------------------------------ outside carriers with their cache

type CacheRow = { number: string; found: boolean; status: TrackStatus | null; events: TrackEvent[]; fetched_at: Date };

/** A cached answer is served while it is final (delivered, returned) or younger than TRACK_REFRESH_MS. */
export function isFresh(row: { found: boolean; status: TrackStatus | null; fetched_at: Date }, now: Date): boolean {
  if (row.found && row.status && FINAL_STATUSES.includes(row.status)) return true;
  return now.getTime() - row.fetched_at.getTime() < TRACK_REFRESH_MS;
}

function resultOf(number: string, carrier: Carrier, routedBy: 'prefix' | 'auto', answer: CarrierAnswer, fetchedAt: Date, fromCache: boolean): TrackResult {
  return {
    number,
    carrier,
    routedBy,
    posting: null,
    status: answer.found ? answer.status : 'notFound',
    events: answer.found ? answer.events : [],
    fetchedAt: fetchedAt.toISOString(),
    fromCache,
    problem: null,
    detail: null,
  };
}

async function fromCarrier(deps: TrackingDeps, carrier: OuterCarrier, routed: { number: string; routedBy: 'prefix' | 'auto' }[], lang: Lang): Promise<TrackResult[]> {
  const client = deps.carriers[carrier];
  const numbers = routed.map((r) => r.number);
  const routedBy = new Map(routed.map((r) => [r.number, r.routedBy]));
  const failed = (problem: TrackResult['problem'], detail: string | null, stale?: CacheRow): TrackResult[] =>
    numbers.map((number) => ({
      number,
      carrier,
      routedBy: routedBy.get(number)!,
      posting: null,
      status: stale ? (stale.found ? stale.status : 'notFound') : null,
      events: stale?.events ?? [],
      fetchedAt: stale ? stale.fetched_at.toISOString() : null,
      fromCache: stale !== undefined,
      problem,
      detail,
    }));
  if (!client) return failed('notConfigured', null);

  const now = deps.now();
  const cached = new Map(
    (
      await deps.database.query<CacheRow>(
        'select number, found, status, events, fetched_at from tracking_cache where carrier = $1 and lang = $2 and number = any($3::text[])',
        [carrier, lang, numbers],
      )
    ).map((row) => [row.number, row]),
  );
  const results = new Map<string, TrackResult>();
  const toRead: string[] = [];
  for (const number of numbers) {
    const row = cached.get(number);
    if (row && isFresh(row, now)) {
      const answer: CarrierAnswer = row.found && row.status ? { found: true, status: row.status, events: row.events } : { found: false };
      results.set(number, resultOf(number, carrier, routedBy.get(number)!, answer, row.fetched_at, true));
    } else toRead.push(number);
  }
  if (toRead.length > 0) {
    try {
      const answers = await client.track(toRead, lang);
      for (const number of toRead) {
        const answer = answers.get(number) ?? { found: false };
        results.set(number, resultOf(number, carrier, routedBy.get(number)!, answer, now, false));
        await deps.database.query(
          `insert into tracking_cache (carrier, number, lang, found, status, events, fetched_at) values ($1, $2, $3, $4, $5, $6, $7)
           on conflict (carrier, number, lang) do update set found = excluded.found, status = excluded.status, events = excluded.events, fetched_at = excluded.fetched_at`,
          [carrier, number, lang, answer.found, answer.found ? answer.status : null, JSON.stringify(answer.found ? answer.events : []), now],
        );
      }
    } catch (error) {
      if (!(error instanceof CarrierUnavailable)) throw error;
      // The carrier is down or refuses: its numbers say so, with what was read before when there is something.
      const problem = error.reason === 'refused' ? 'carrierRefused' : 'carrierDown';
      for (const number of toRead) results.set(number, failed(problem, error.message, cached.get(number)).find((r) => r.number === number)!);
    }
  }
  return numbers.map((number) => results.get(number)!);
}

/**
 * Tracks numbers for one user: own postings from the app's data, the rest grouped by carrier and read in parallel,
 * each carrier's failure confined to its own numbers. Answers in the order asked, each number once.
 */
export async function trackNumbers(deps: TrackingDeps, userId: number, asked: readonly string[], lang: Lang): Promise<TrackResult[]> {
  const numbers = [...new Set(asked)];
  const own = await ownPostings(deps.database, userId, numbers);
  const prefixes = await prefixTable(deps.database);
  const byCarrier = new Map<OuterCarrier, { number: string; routedBy: 'prefix' | 'auto' }[]>();
  for (const number of numbers) {
    if (own.has(number)) continue;
    const { carrier, routedBy } = routeNumber(number, prefixes);
    byCarrier.set(carrier, [...(byCarrier.get(carrier) ?? []), { number, routedBy }]);
  }
  const outside = (await Promise.all([...byCarrier].map(([carrier, routed]) => fromCarrier(deps, carrier, routed, lang)))).flat();
  const byNumber = new Map([...own, ...outside.map((result) => [result.number, result] as const)]);
  return numbers.map((number) => byNumber.get(number)!);
}
