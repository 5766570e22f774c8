import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();

type TrendPoint = { bucket: string; previousBucket: string; current: number; previous: number };
const chartData = async <T>(page: Page, testId: string): Promise<T> => JSON.parse((await page.getByTestId(testId).getAttribute('data-chart')) ?? 'null') as T;

/**
 * The demo shops sync right after start: reload until their orders are rolled up and the sync has settled (the
 * revenue the same in two loads a few seconds apart), so the checks below compare figures of one state.
 */
async function openWithSales(page: Page) {
  let last = '';
  for (let attempt = 0; ; attempt++) {
    await page.getByTestId('chart-trend').or(page.getByTestId('analysis-empty')).first().waitFor({ timeout: 60_000 });
    if (await page.getByTestId('chart-trend').isVisible()) {
      const revenue = (await page.getByTestId('kpi-revenue').locator('.ant-statistic-content').textContent()) ?? '';
      if (revenue === last) return;
      last = revenue;
    }
    if (attempt === 30) throw new Error('no settled sales after 30 reloads');
    await page.waitForTimeout(3_000);
    await page.reload();
  }
}

describe('sales analysis in the browser', () => {
  it('draws a period: the trend against the previous period, shops, top SKUs, categories and ABC, in zh and en', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const page = await e2e.openAs('seller', '/analyze/sale-analyze', { lang, via: 'login' });
      await openWithSales(page);
      // The last 30 days, day by day, each beside the same day of the 30 before.
      const trend = await chartData<TrendPoint[]>(page, 'chart-trend');
      expect(trend).toHaveLength(30);
      expect(new Date(`${trend[1]!.bucket}T00:00:00Z`).getTime() - new Date(`${trend[0]!.bucket}T00:00:00Z`).getTime()).toBe(86_400_000);
      expect(new Date(`${trend[0]!.bucket}T00:00:00Z`).getTime() - new Date(`${trend[0]!.previousBucket}T00:00:00Z`).getTime()).toBe(30 * 86_400_000);
      const revenue = trend.reduce((t, p) => t + p.current, 0);
      expect(revenue).toBeGreaterThan(0);
      // The revenue card shows the same total the chart draws.
      const card = (await page.getByTestId('kpi-revenue').locator('.ant-statistic-content').textContent()) ?? '';
      expect(Number(card.replace(/[^\d.]/g, ''))).toBeCloseTo(revenue, 0);
      const shops = await chartData<{ shop: string; revenue: number }[]>(page, 'chart-shops');
      expect(shops.map((s) => s.shop).sort()).toEqual(['义乌小百货 Yiwu Goods', '深圳数码 Shenzhen Digital'].sort());
      expect(shops.reduce((t, s) => t + s.revenue, 0)).toBeCloseTo(revenue, 0);
      const top = await chartData<{ revenue: number }[]>(page, 'chart-top');
      expect(top.length).toBeGreaterThan(0);
      expect(top.map((s) => s.revenue)).toEqual([...top.map((s) => s.revenue)].sort((a, b) => b - a));
      const categories = await chartData<{ category: string; share: number }[]>(page, 'chart-categories');
      expect(categories.reduce((t, c) => t + c.share, 0)).toBeCloseTo(100, 0);
      const abc = await chartData<{ share: number }[]>(page, 'chart-abc');
      expect(abc[0]!.share).toBeGreaterThanOrEqual(80);
      await page.getByTestId('chart-trend').locator('canvas').first().waitFor();
      // The revenue axis reads in 万 in zh and in K/M in en, with the currency's sign.
      const axisLabel = lang === 'zh' ? /^¥\d+(\.\d)?万$/ : /^¥\d+(\.\d)?[KM]$/;
      await expect.poll(async () => ((await page.getByTestId('chart-trend').getAttribute('data-axis-labels')) ?? '').split('|').some((label) => axisLabel.test(label))).toBe(true);
      await screenshot(page, `sale-analyze-${lang}`);
      await page.getByTestId('chart-top').scrollIntoViewIfNeeded();
      await screenshot(page, `sale-analyze-charts-${lang}`);

      // By week: Monday buckets (the first may start mid-week), the same revenue.
      await page.getByText(lang === 'zh' ? '按周' : 'Week', { exact: true }).click();
      await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="chart-trend"]')?.getAttribute('data-chart') ?? '[]').length <= 6);
      const weeks = await chartData<TrendPoint[]>(page, 'chart-trend');
      expect(weeks.slice(1).every((p) => new Date(`${p.bucket}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
      expect(weeks.reduce((t, p) => t + p.current, 0)).toBeCloseTo(revenue, 0);

      // The breakdown picker: by warehouse, the parts add up to the period's revenue.
      const byCategory = await page.getByTestId('breakdown').getAttribute('data-chart');
      await page.getByTestId('breakdown-picker').getByText(lang === 'zh' ? '按仓库' : 'By warehouse', { exact: true }).click();
      await page.waitForFunction((before) => document.querySelector('[data-testid="breakdown"]')?.getAttribute('data-chart') !== before, byCategory);
      const parts = await chartData<{ revenue: number; share: number }[]>(page, 'breakdown');
      expect(parts.reduce((t, p) => t + p.revenue, 0)).toBeCloseTo(revenue, 0);
      expect(parts.reduce((t, p) => t + p.share, 0)).toBeCloseTo(1, 3);

      // The SKU table pages on the server: a second page, then an Excel export of the whole table.
      const table = page.getByTestId('sku-table');
      const total = Number(((await page.getByText(lang === 'zh' ? /^共 \d+ 个SKU$/ : /^\d+ SKUs$/).textContent()) ?? '').replace(/\D/g, ''));
      expect(total).toBeGreaterThan(20);
      const firstPage = await table.locator('tbody tr.ant-table-row').first().textContent();
      await page.locator('.ant-pagination-item-2').click();
      await page.waitForFunction((before) => document.querySelector('[data-testid="sku-table"] tbody tr.ant-table-row')?.textContent !== before, firstPage);
      await screenshot(page, `sale-analyze-table-${lang}`);
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').click()]);
      expect(file.suggestedFilename()).toMatch(/^sales-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx$/);
      await page.context().close();
    }
  }, 400_000);
});
