import { describe, expect, it } from 'vitest';
import { noticeTimeMs } from '@contract/session';
import { calendarDate, dateFormat, secondsFormat, timeFormat } from '../../src/app/formats';

describe('the one date and time format', () => {
  it('formats a time and shows a dash for one JavaScript cannot hold, instead of throwing', () => {
    // An order with inProcessAt 9007199254740993 once blanked both order pages with "RangeError: Invalid time value".
    for (const bad of [2 ** 53 + 2, Number.NaN, Number.POSITIVE_INFINITY, -1e300]) {
      expect(timeFormat('zh').format(bad)).toBe('—');
    }
    expect(timeFormat('en').format(new Date(Number.NaN))).toBe('—');
  });

  it('writes one shape per language: 2026-11-25 09:30 in zh, 25 Nov 2026, 09:30 in en', () => {
    const time = new Date(2026, 10, 25, 9, 30, 5).getTime();
    expect(timeFormat('zh').format(time)).toBe('2026-11-25 09:30');
    expect(secondsFormat('zh').format(time)).toBe('2026-11-25 09:30:05');
    expect(dateFormat('zh').format(time)).toBe('2026-11-25');
    expect(timeFormat('en').format(time)).toBe('25 Nov 2026, 09:30');
    expect(dateFormat('en').format(time)).toBe('25 Nov 2026');
    // A calendar date is that day wherever the reader is.
    expect(calendarDate('zh', '2026-11-12')).toBe('2026-11-12');
    expect(calendarDate('en', '2026-11-12')).toBe('12 Nov 2026');
  });

  it('reads a notice time (China time) as the moment it names', () => {
    expect(new Date(noticeTimeMs('2026-11-26 13:07:00')).toISOString()).toBe('2026-11-26T05:07:00.000Z');
  });
});
