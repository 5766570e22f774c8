import { describe, expect, it } from 'vitest';
import { loadPinyin, matchesMenu } from '@/app/layout/menu';

describe('menu search', () => {
  it('finds a page by its title as written, and by pinyin or initials once the dictionary is in', async () => {
    expect(matchesMenu('订单', ['订单管理'], true)).toBe(true);
    expect(matchesMenu('Orders', ['Orders', '订单管理'], true)).toBe(true);
    await loadPinyin();
    expect(matchesMenu('ddgl', ['订单管理'], true)).toBe(true);
    expect(matchesMenu('dingdan', ['订单管理'], true)).toBe(true);
    expect(matchesMenu('ddgl', ['订单管理'], false)).toBe(false);
    expect(matchesMenu('', ['订单管理'], true)).toBe(false);
  });
});
