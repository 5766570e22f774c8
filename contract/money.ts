/**
 * Money arithmetic shared by the server's converter (server/areas/tools/rates.ts) and the browser's display currency
 * (src/app/money.ts): the Bank of Russia's rates are decimal strings with four decimals, roubles for `nominal` units;
 * amounts have two decimals. Conversion is done in integers and rounded half away from zero once, at the end, so the
 * tools page and every amount on screen give the same kopeck (or fen) for the same rate.
 */

/** One currency's rate as the bank sets it: `value` roubles (four decimals) for `nominal` units. */
export type RateValue = { value: string; nominal: number };

/** The rouble has no rate of its own: 1 for 1. */
export const RUB_RATE: RateValue = { value: '1.0000', nominal: 1 };

/** '12.3456' -> 123456n (in units of 10^-scale); a leading minus is kept. */
export function scaledDecimal(decimalText: string, scale: number): bigint {
  const negative = decimalText.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? decimalText.slice(1) : decimalText).split('.');
  const value = BigInt((whole || '0') + fraction.padEnd(scale, '0').slice(0, scale));
  return negative ? -value : value;
}

export function formatScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** numerator / denominator (denominator > 0), rounded half away from zero. */
function roundDivide(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = (2n * (negative ? -numerator : numerator) + denominator) / (2n * denominator);
  return negative ? -magnitude : magnitude;
}

/**
 * `amount` (a decimal string with at most two decimals) of the currency rated `from` in the one rated `to`, to the
 * hundredth: amount x (from's roubles per unit) / (to's roubles per unit). `rate` is one unit of `from` in `to`, six
 * decimals.
 */
export function convertExact(amount: string, from: RateValue, to: RateValue): { result: string; rate: string } {
  const cents = scaledDecimal(amount, 2);
  const fromValue = scaledDecimal(from.value, 4);
  const toValue = scaledDecimal(to.value, 4);
  // cents * (fromValue / from.nominal) / (toValue / to.nominal), all in integers.
  const numerator = cents * fromValue * BigInt(to.nominal);
  const denominator = BigInt(from.nominal) * toValue;
  const rate = roundDivide(10n ** 6n * fromValue * BigInt(to.nominal), denominator);
  return { result: formatScaled(roundDivide(numerator, denominator), 2), rate: formatScaled(rate, 6) };
}
