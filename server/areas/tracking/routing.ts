import type { Carrier } from '../../../contract/tracking';

/**
 * Which carrier a tracking number goes to when it is not one of the seller's own postings. The seller-tool rule: a
 * number's first two characters select a carrier when they are a listed prefix; otherwise the carrier is told from
 * the number's form, and what no rule recognises goes to the tracking aggregator (17TRACK), which detects carriers
 * itself. An administrator's rows (tracking_prefixes) override and extend the built-in ones.
 */

export type OuterCarrier = Exclude<Carrier, 'ozon'>;

/** Documented in the README; an administrator can re-route them. */
export const BUILT_IN_PREFIXES: Readonly<Record<string, OuterCarrier>> = {
  /** Cainiao's own numbers (AliExpress standard shipping): LP and 14 digits. */
  LP: 'cainiao',
};

/** The number's form: a UPU S10 number of Russian Post (two letters, nine digits, RU) or its 14-digit domestic number. */
export function carrierByForm(number: string): OuterCarrier {
  if (/^[A-Z]{2}\d{9}RU$/.test(number) || /^\d{14}$/.test(number)) return 'russianPost';
  if (/^LP\d{14}$/.test(number)) return 'cainiao';
  return 'track17';
}

export function routeNumber(number: string, prefixes: Readonly<Record<string, OuterCarrier>>): { carrier: OuterCarrier; routedBy: 'prefix' | 'auto' } {
  const byPrefix = prefixes[number.slice(0, 2)];
  return byPrefix ? { carrier: byPrefix, routedBy: 'prefix' } : { carrier: carrierByForm(number), routedBy: 'auto' };
}
