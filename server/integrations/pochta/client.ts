import type { OfficeDetails } from '../../../contract/postcodes';
import { below, carrierFetch, CarrierUnavailable } from '../tracking/types';

/**
 * Russian Post's post-office service (the "Otpravka" API, https://otpravka.pochta.ru/specification#/services-postoffice):
 * GET `postoffice/1.0/{postal-code}` with an application token (`Authorization: AccessToken ...`) and the user's key
 * (`X-User-Authorization: Basic ...`). It answers the office's address, coordinates and hours per weekday; 404 for an
 * index it does not know.
 */

export const POCHTA_DEFAULT_URL = 'https://otpravka-api.pochta.ru';

export type PochtaClient = {
  /** The office's details; null when the service does not know the index. Throws CarrierUnavailable. */
  office(index: string): Promise<OfficeDetails | null>;
  /** The indexes of the offices serving an address written as a person writes it (street and house). */
  byAddress(address: string): Promise<string[]>;
};

type Hours = { 'weekday-id'?: unknown; 'begin-worktime'?: unknown; 'end-worktime'?: unknown; lunches?: { 'begin-time'?: unknown; 'end-time'?: unknown }[] };
type Office = { 'address-source'?: unknown; 'is-closed'?: unknown; latitude?: unknown; longitude?: unknown; 'working-hours'?: Hours[] };

/** '08:00:00.000' -> '08:00'. */
const hhmm = (value: unknown) => {
  const match = /^(\d{2}):(\d{2})/.exec(String(value ?? ''));
  return match ? `${match[1]}:${match[2]}` : null;
};
const coordinate = (value: unknown) => (value === undefined || value === null || value === '' || !Number.isFinite(Number(value)) ? null : Number(value));

export function parseOffice(json: unknown): OfficeDetails {
  if (!json || typeof json !== 'object') throw new CarrierUnavailable("Russian Post's office answer is not an object", 'format');
  const office = json as Office;
  if (typeof office['address-source'] !== 'string') throw new CarrierUnavailable("Russian Post's office answer has no address-source", 'format');
  const hours = (Array.isArray(office['working-hours']) ? office['working-hours'] : []).map((day) => {
    const weekday = Number(day['weekday-id']);
    if (!Number.isInteger(weekday) || weekday < 1 || weekday > 7) throw new CarrierUnavailable("Russian Post's office answer has a bad weekday-id", 'format');
    return {
      weekday,
      open: hhmm(day['begin-worktime']),
      close: hhmm(day['end-worktime']),
      lunch: (day.lunches ?? []).flatMap((lunch) => {
        const from = hhmm(lunch['begin-time']);
        const to = hhmm(lunch['end-time']);
        return from && to ? [{ from, to }] : [];
      }),
    };
  });
  hours.sort((a, b) => a.weekday - b.weekday);
  return { address: office['address-source'], hours, closed: office['is-closed'] === true, latitude: coordinate(office.latitude), longitude: coordinate(office.longitude) };
}

export type PochtaOptions = { baseUrl: string; token: string; userKey: string; fetch?: typeof fetch; timeoutMs?: number };

export function createPochtaClient(options: PochtaOptions): PochtaClient {
  const doFetch = options.fetch ?? fetch;
  const headers = () => ({ authorization: `AccessToken ${options.token}`, 'x-user-authorization': `Basic ${options.userKey}`, accept: 'application/json;charset=UTF-8' });
  return {
    async office(index) {
      const response = await carrierFetch(
        doFetch,
        "Russian Post's post-office service",
        below(options.baseUrl, `postoffice/1.0/${encodeURIComponent(index)}`),
        { headers: headers() },
        options.timeoutMs ?? 10_000,
      );
      if (response.status === 404) return null;
      if (!response.ok) throw new CarrierUnavailable(`Russian Post's post-office service answered HTTP ${response.status}`, 'refused');
      let json: unknown;
      try {
        json = await response.json();
      } catch {
        throw new CarrierUnavailable("Russian Post's office answer is not JSON", 'format');
      }
      return parseOffice(json);
    },
    async byAddress(address) {
      const url = new URL(below(options.baseUrl, 'postoffice/1.0/by-address'));
      url.searchParams.set('address', address);
      const response = await carrierFetch(doFetch, "Russian Post's post-office service", url.toString(), { headers: headers() }, options.timeoutMs ?? 10_000);
      if (!response.ok) throw new CarrierUnavailable(`Russian Post's post-office service answered HTTP ${response.status}`, 'refused');
      const json = (await response.json().catch(() => null)) as { 'is-matched'?: unknown; postoffices?: unknown } | null;
      if (!json || !Array.isArray(json.postoffices)) throw new CarrierUnavailable("Russian Post's by-address answer has no postoffices", 'format');
      return json['is-matched'] === false ? [] : json.postoffices.map(String).filter((index) => /^\d{6}$/.test(index));
    },
  };
}
