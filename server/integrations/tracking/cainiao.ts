import type { TrackEvent, TrackStatus } from '../../../contract/tracking';
import { below, carrierFetch, CarrierUnavailable, type CarrierAnswer, type CarrierClient } from './types';

/**
 * Cainiao's global tracking (the service behind global.cainiao.com): GET `global/detail.json?mailNos=A,B&lang=en-US`,
 * up to 10 numbers a call, no key. Each `module` entry is one number with Cainiao's status and its events
 * (`detailList`, epoch ms with the event's zone). An unknown number comes back with no events.
 */

export const CAINIAO_DEFAULT_URL = 'https://global.cainiao.com';
const BATCH = 10;

const STATUS: Record<string, TrackStatus> = {
  WAIT_ACCEPT: 'infoReceived',
  ORDER_CREATED: 'infoReceived',
  ACCEPT: 'inTransit',
  TRANSPORT: 'inTransit',
  CUSTOMS: 'inTransit',
  ARRIVED: 'inTransit',
  DELIVERING: 'inTransit',
  WAIT_SIGN: 'pickup',
  SIGN: 'delivered',
  DELIVERED: 'delivered',
  RETURN: 'returned',
  FAIL: 'exception',
  EXCEPTION: 'exception',
};
export const cainiaoStatus = (status: string): TrackStatus => STATUS[status] ?? 'inTransit';

type Detail = { time?: unknown; timeZone?: unknown; desc?: unknown; standerdDesc?: unknown; actionCode?: unknown; status?: unknown };
type Module = { mailNo?: unknown; status?: unknown; detailList?: unknown };

/** 'GMT+3' -> '+03:00'. */
function offsetOf(zone: unknown): string {
  const match = /^GMT([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(String(zone ?? ''));
  if (!match) return 'Z';
  return `${match[1]}${match[2]!.padStart(2, '0')}:${match[3] ?? '00'}`;
}

/** An epoch ms as ISO local time in its zone, so the user's own zone can be applied on screen. */
function isoIn(ms: number, offset: string): string {
  if (offset === 'Z') return new Date(ms).toISOString();
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 19)}${offset}`;
}

/** '[Moscow] Arrived at sorting center' -> place 'Moscow'. */
function placeOf(desc: string): { place: string; text: string } {
  const match = /^\[([^\]]{1,80})\]\s*(.*)$/.exec(desc);
  return match ? { place: match[1]!, text: match[2]! } : { place: '', text: desc };
}

export function parseCainiao(json: unknown): Map<string, CarrierAnswer> {
  if (!json || typeof json !== 'object') throw new CarrierUnavailable("Cainiao's answer is not an object", 'format');
  const { success, module } = json as { success?: unknown; module?: unknown };
  if (success !== true) throw new CarrierUnavailable('Cainiao answered without success', 'refused');
  if (!Array.isArray(module)) throw new CarrierUnavailable("Cainiao's answer has no module list", 'format');
  const answers = new Map<string, CarrierAnswer>();
  for (const item of module as Module[]) {
    const number = String(item.mailNo ?? '').toUpperCase();
    const details = Array.isArray(item.detailList) ? (item.detailList as Detail[]) : [];
    if (!number) throw new CarrierUnavailable('Cainiao answered an entry without mailNo', 'format');
    if (details.length === 0) {
      answers.set(number, { found: false });
      continue;
    }
    const events: TrackEvent[] = details.map((detail) => {
      const ms = Number(detail.time);
      if (!Number.isFinite(ms)) throw new CarrierUnavailable(`Cainiao's answer has an unreadable time for ${number}`, 'format');
      const { place, text } = placeOf(String(detail.standerdDesc || detail.desc || ''));
      return { time: isoIn(ms, offsetOf(detail.timeZone)), place, status: cainiaoStatus(String(detail.status ?? item.status ?? '')), text };
    });
    events.sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
    answers.set(number, { found: true, status: cainiaoStatus(String(item.status ?? '')), events });
  }
  return answers;
}

export type CainiaoOptions = { baseUrl: string; fetch?: typeof fetch; timeoutMs?: number };

export function createCainiaoClient(options: CainiaoOptions): CarrierClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  return {
    async track(numbers, lang) {
      const answers = new Map<string, CarrierAnswer>();
      for (let from = 0; from < numbers.length; from += BATCH) {
        const url = new URL(below(options.baseUrl, 'global/detail.json'));
        url.searchParams.set('mailNos', numbers.slice(from, from + BATCH).join(','));
        url.searchParams.set('lang', lang === 'zh' ? 'zh-CN' : 'en-US');
        const response = await carrierFetch(doFetch, 'Cainiao', url.toString(), { method: 'GET' }, timeoutMs);
        if (!response.ok) throw new CarrierUnavailable(`Cainiao answered HTTP ${response.status}`, 'refused');
        let json: unknown;
        try {
          json = await response.json();
        } catch {
          throw new CarrierUnavailable("Cainiao's answer is not JSON", 'format');
        }
        for (const [number, answer] of parseCainiao(json)) answers.set(number, answer);
      }
      for (const number of numbers) if (!answers.has(number)) answers.set(number, { found: false });
      return answers;
    },
  };
}
