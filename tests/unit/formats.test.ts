import { describe, expect, it } from 'vitest';
import { timeFormat } from '../../src/app/formats';

describe('timeFormat', () => {
  it('formats a time and shows a dash for one JavaScript cannot hold, instead of throwing', () => {
    expect(timeFormat('en').format(Date.UTC(2026, 10, 25, 9, 30))).toMatch(/25\/11\/2026/);
    // An order with inProcessAt 9007199254740993 once blanked both order pages with "RangeError: Invalid time value".
    for (const bad of [2 ** 53 + 2, Number.NaN, Number.POSITIVE_INFINITY, -1e300]) {
      expect(timeFormat('zh').format(bad)).toBe('—');
    }
    expect(timeFormat('en').format(new Date(Number.NaN))).toBe('—');
  });
});
