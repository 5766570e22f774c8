import { describe, expect, it } from 'vitest';
import { loadPinyin, matchesMenu, menuPages } from '@/app/layout/menu';
import { appRoutes } from '@/app/routes';

describe('menu search', () => {
  it('finds a page by its title as written, and by pinyin or initials once the dictionary is in', async () => {
    expect(matchesMenu('订单', ['订单管理'], true)).toBe(true);
    expect(matchesMenu('Orders', ['Orders', '订单管理'], true)).toBe(true);
    await loadPinyin();
    expect(matchesMenu('ddgl', ['订单管理'], true)).toBe(true);
    expect(matchesMenu('dingdan', ['订单管理'], true)).toBe(true);
    // ü is typed v, as on a pinyin keyboard.
    expect(matchesMenu('huilv', ['汇率换算'], true)).toBe(true);
    expect(matchesMenu('hlhs', ['汇率换算'], true)).toBe(true);
    expect(matchesMenu('ddgl', ['订单管理'], false)).toBe(false);
    expect(matchesMenu('', ['订单管理'], true)).toBe(false);
  });

  it('offers every page with the groups it sits in, a group of one page included, and no hidden route', () => {
    const pages = menuPages(appRoutes);
    const orderList = pages.find((page) => page.route.path === '/order-manager/order-list');
    expect(orderList?.groups.map((group) => group.path)).toEqual(['/order-manager']);
    expect(pages.find((page) => page.route.path === '/store/store-list')?.groups.map((group) => group.path)).toEqual(['/store']);
    expect(pages.some((page) => page.route.path === '/login' || page.route.path === '/flows')).toBe(false);
  });
});
