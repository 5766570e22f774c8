import type { TrackEvent, TrackStatus } from '../../../contract/tracking';

/** What one carrier knows of one number. `found: false`: the carrier has no such number (yet). */
export type CarrierAnswer = { found: true; status: TrackStatus; events: TrackEvent[] } | { found: false };

/** Why a carrier gave no answer: it could not be reached, refused the call (key, login, limit), or answered garbage. */
export class CarrierUnavailable extends Error {
  override name = 'CarrierUnavailable';
  constructor(
    message: string,
    readonly reason: 'unreachable' | 'refused' | 'format',
  ) {
    super(message);
  }
}

/** One outside tracking service. `lang` picks the carrier's own language for its event texts where it has one. */
export type CarrierClient = {
  track(numbers: readonly string[], lang: 'zh' | 'en'): Promise<Map<string, CarrierAnswer>>;
};

/**
 * Fetch with a timeout, turning a network failure or a refusal into CarrierUnavailable; `service` names the carrier.
 * `readBody` lists statuses whose body the caller reads itself (a SOAP fault arrives as HTTP 500).
 */
export async function carrierFetch(doFetch: typeof fetch, service: string, url: string, init: RequestInit, timeoutMs: number, readBody: number[] = []): Promise<Response> {
  let response: Response;
  try {
    response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new CarrierUnavailable(`${service} did not answer: ${(error as Error).message}`, 'unreachable');
  }
  if (readBody.includes(response.status)) return response;
  if (response.status >= 500) throw new CarrierUnavailable(`${service} answered HTTP ${response.status}`, 'unreachable');
  if (response.status === 401 || response.status === 403 || response.status === 429) {
    throw new CarrierUnavailable(`${service} refused the call (HTTP ${response.status})`, 'refused');
  }
  return response;
}

/** The service's base with a path below it (a base may carry a path of its own, e.g. the embedded simulator's prefix). */
export function below(base: string, path: string): string {
  return new URL(path, base.endsWith('/') ? base : `${base}/`).toString();
}
