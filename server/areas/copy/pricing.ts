import type { PriceRule } from '../../../contract/copy';

/**
 * A pricing template's arithmetic on decimal strings: `converted` is the source price already in the template's
 * currency (the Bank of Russia's rate, exact to the hundredth); the result is
 * converted × markup + shipping + fixed, rounded by the template's rule. Work is in hundredths as integers, so a
 * template never drifts by a float's last digit.
 */
export function targetPrice(converted: string, rule: Pick<PriceRule, 'markup' | 'shipping' | 'fixed' | 'rounding'>): string {
  const cents = Math.round(toCents(converted) * Number(rule.markup)) + toCents(rule.shipping) + toCents(rule.fixed);
  return formatCents(roundCents(cents, rule.rounding));
}

/** The crossed-out price for a price, when the template sets a factor. */
export function oldPriceFor(price: string, factor: string | undefined): string | null {
  if (!factor) return null;
  const cents = Math.round(toCents(price) * Number(factor));
  return cents > toCents(price) ? formatCents(roundCents(cents, 'unit')) : null;
}

export function roundCents(cents: number, rounding: PriceRule['rounding']): number {
  switch (rounding) {
    case 'cent':
      return cents;
    case 'unit':
      return Math.round(cents / 100) * 100;
    case 'upTo9': {
      // Up to the next whole amount ending in 9 (123.40 → 129, 129.00 → 129).
      const units = Math.ceil(cents / 100);
      return (units + ((9 - (units % 10) + 10) % 10)) * 100;
    }
    case 'upTo10':
      return Math.ceil(cents / 1000) * 1000;
    case 'upTo99':
      // Up to the next .99 (123.40 → 123.99, 124.00 → 124.99).
      return Math.floor(cents / 100) * 100 + 99;
  }
}

function toCents(text: string): number {
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
