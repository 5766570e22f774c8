import type { TrackEvent, TrackStatus } from '../../../contract/tracking';
import { below, carrierFetch, CarrierUnavailable, type CarrierAnswer, type CarrierClient } from './types';

/**
 * 17TRACK's tracking API v2.2 (https://api.17track.net/en/doc): POST JSON arrays of `{ number }` with the key in the
 * `17token` header, at most 40 numbers a call. A number must be registered before 17TRACK follows it: `gettrackinfo`
 * rejects an unregistered one (-18019902), which we then `register` and read again.
 * Answers: `{ code: 0, data: { accepted: [...], rejected: [{ number, error: { code, message } }] } }`; a non-zero
 * top-level `code` is a refusal of the whole call (a wrong key, no quota).
 */

export const TRACK17_DEFAULT_URL = 'https://api.17track.net';
export const TRACK17_NOT_REGISTERED = -18019902;
const BATCH = 40;

const STATUS: Record<string, TrackStatus> = {
  NotFound: 'notFound',
  InfoReceived: 'infoReceived',
  InTransit: 'inTransit',
  PickedUp: 'inTransit',
  Departure: 'inTransit',
  Arrival: 'inTransit',
  OutForDelivery: 'inTransit',
  AvailableForPickup: 'pickup',
  Delivered: 'delivered',
  Returning: 'returned',
  Returned: 'returned',
  Expired: 'exception',
  DeliveryFailure: 'exception',
  Exception: 'exception',
};
export const track17Status = (status: string): TrackStatus => STATUS[status] ?? 'inTransit';

type Accepted = {
  number?: unknown;
  track_info?: {
    latest_status?: { status?: unknown };
    tracking?: { providers?: { events?: { time_iso?: unknown; description?: unknown; location?: unknown; stage?: unknown }[] }[] };
  } | null;
};
type Rejected = { number?: unknown; error?: { code?: unknown; message?: unknown } };
type Envelope = { code?: unknown; data?: { accepted?: Accepted[]; rejected?: Rejected[]; errors?: { message?: unknown }[] } };

function envelopeOf(json: unknown): NonNullable<Envelope['data']> {
  if (!json || typeof json !== 'object') throw new CarrierUnavailable("17TRACK's answer is not an object", 'format');
  const { code, data } = json as Envelope;
  if (code !== 0) throw new CarrierUnavailable(`17TRACK refused the call: ${String(data?.errors?.[0]?.message ?? code)}`, 'refused');
  if (!data || typeof data !== 'object') throw new CarrierUnavailable("17TRACK's answer has no data", 'format');
  return data;
}

export function parseTrackInfo(json: unknown): { answers: Map<string, CarrierAnswer>; unregistered: string[] } {
  const data = envelopeOf(json);
  const answers = new Map<string, CarrierAnswer>();
  const unregistered: string[] = [];
  for (const item of data.accepted ?? []) {
    const number = String(item.number ?? '').toUpperCase();
    const events: TrackEvent[] = [];
    for (const provider of item.track_info?.tracking?.providers ?? []) {
      for (const event of provider.events ?? []) {
        const time = String(event.time_iso ?? '');
        if (!Number.isFinite(Date.parse(time))) throw new CarrierUnavailable(`17TRACK's answer has an unreadable time for ${number}`, 'format');
        events.push({ time, place: String(event.location ?? ''), status: track17Status(String(event.stage ?? '')), text: String(event.description ?? '') });
      }
    }
    const status = track17Status(String(item.track_info?.latest_status?.status ?? 'NotFound'));
    events.sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
    answers.set(number, status === 'notFound' && events.length === 0 ? { found: false } : { found: true, status, events });
  }
  for (const item of data.rejected ?? []) {
    const number = String(item.number ?? '').toUpperCase();
    if (Number(item.error?.code) === TRACK17_NOT_REGISTERED) unregistered.push(number);
    answers.set(number, { found: false });
  }
  return { answers, unregistered };
}

export type Track17Options = { baseUrl: string; apiKey: string; fetch?: typeof fetch; timeoutMs?: number };

export function createTrack17Client(options: Track17Options): CarrierClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 20_000;
  async function post(path: string, numbers: readonly string[]): Promise<unknown> {
    const response = await carrierFetch(
      doFetch,
      '17TRACK',
      below(options.baseUrl, `track/v2.2/${path}`),
      { method: 'POST', headers: { 'content-type': 'application/json', '17token': options.apiKey }, body: JSON.stringify(numbers.map((number) => ({ number }))) },
      timeoutMs,
    );
    if (!response.ok) throw new CarrierUnavailable(`17TRACK answered HTTP ${response.status}`, 'refused');
    try {
      return await response.json();
    } catch {
      throw new CarrierUnavailable("17TRACK's answer is not JSON", 'format');
    }
  }
  return {
    async track(numbers) {
      const answers = new Map<string, CarrierAnswer>();
      for (let from = 0; from < numbers.length; from += BATCH) {
        const batch = numbers.slice(from, from + BATCH);
        const read = parseTrackInfo(await post('gettrackinfo', batch));
        for (const [number, answer] of read.answers) answers.set(number, answer);
        if (read.unregistered.length === 0) continue;
        // Registered now and read once more: 17TRACK may already have its events, else they come with a later read.
        envelopeOf(await post('register', read.unregistered));
        for (const [number, answer] of parseTrackInfo(await post('gettrackinfo', read.unregistered)).answers) answers.set(number, answer);
      }
      for (const number of numbers) if (!answers.has(number)) answers.set(number, { found: false });
      return answers;
    },
  };
}
