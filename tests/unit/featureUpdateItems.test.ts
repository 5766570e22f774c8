import { describe, expect, it } from 'vitest';
import { isAnnounceable } from '@/app/layout/notices';
import { appRoutes, constructionPage } from '@/app/routes';

describe('the feature-update dialog', () => {
  it('announces a line only once the page it names is built', () => {
    expect(isAnnounceable({ zh: '订单', en: 'Orders', path: '/order-manager/order-list' })).toBe(true);
    const routes = [...appRoutes, { path: '/building/page', construction: 'plugin' as const, page: constructionPage }];
    expect(isAnnounceable({ zh: '建设中', en: 'Building', path: '/building/page' }, routes)).toBe(false);
    expect(isAnnounceable({ zh: '无页面', en: 'No page', path: '/no/such-page' })).toBe(false);
    expect(isAnnounceable({ zh: '通用', en: 'General' })).toBe(true);
  });
});
