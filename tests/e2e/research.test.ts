import type { Locator, Page } from 'playwright-core';
import { RESEARCH_ENDPOINTS, type ProductResult } from '../../contract/research';
import { api, screenshot, useBrowser } from './browser';

const e2e = useBrowser();

const open = (path: string, lang: 'zh' | 'en' = 'zh', user: 'analyst' | 'seller' = 'analyst') => e2e.openAs(user, path, { lang });

/** The result grid's body rows (the header row is the grid's first). */
const bodyRows = (page: Page): Locator => page.locator('[role=grid] [role=row][aria-rowindex]:not([aria-rowindex="1"])');

/** The texts of one column's rendered cells, found by its header text. */
async function columnTexts(page: Page, header: string): Promise<string[]> {
  const headers = page.getByRole('columnheader');
  const texts = await headers.allTextContents();
  const index = texts.findIndex((text) => text.replace(/[▲▼]/g, '').trim() === header);
  if (index < 0) throw new Error(`no column ${header} in ${texts.join(' | ')}`);
  const column = await headers.nth(index).getAttribute('aria-colindex');
  const cells = bodyRows(page).locator(`[role=gridcell][aria-colindex="${column}"]`);
  await cells.first().waitFor();
  return cells.allTextContents();
}
const amountOf = (text: string) => Number(text.replace(/[^\d.]/g, ''));
const ordered = (values: number[], direction: 'asc' | 'desc') => values.every((value, i) => i === 0 || (direction === 'asc' ? values[i - 1]! <= value : values[i - 1]! >= value));

const HOT = {
  zh: { price: '价格 (₽)', min: '最低', max: '最高', search: '查询', nameColumn: '商品', priceColumn: '价格', salesColumn: '30天销量', sales: '每日销量', keywords: '带来流量的关键词', total: /件商品，已载入前/ },
  en: { price: 'Price (₽)', min: 'min', max: 'max', search: 'Search', nameColumn: 'Product', priceColumn: 'Price', salesColumn: 'Units 30d', sales: 'Units sold per day', keywords: 'Keywords it ranks for', total: /products, the first [\d,]+ loaded/ },
};

describe('market research in the browser', () => {
  it.each(['zh', 'en'] as const)('hot products (%s): a price filter, a sort by price, then a product with its history and keywords', async (lang) => {
    const l = HOT[lang];
    const page = await open('/search/hot-product-pro', lang);
    page.setDefaultTimeout(60_000);
    const total = page.getByTestId('research-total');
    await total.waitFor();
    const before = (await total.textContent())!;
    // Best sellers first: the server's default order.
    await expect.poll(async () => ordered((await columnTexts(page, l.salesColumn)).map(amountOf), 'desc')).toBe(true);

    await page.getByLabel(`${l.price} ${l.min}`).fill('500');
    await page.getByLabel(`${l.price} ${l.max}`).fill('3000');
    await page.getByRole('button', { name: l.search, exact: true }).click();
    await expect.poll(async () => (await total.textContent()) !== before).toBe(true);
    expect(await total.textContent()).toMatch(l.total);
    await expect
      .poll(async () => {
        const prices = (await columnTexts(page, l.priceColumn)).map(amountOf);
        return prices.length > 3 && prices.every((price) => price >= 500 && price <= 3000) && ordered((await columnTexts(page, l.salesColumn)).map(amountOf), 'desc');
      })
      .toBe(true);

    // A header sorts the whole market on the server: price ascending, then descending, each the query's own top rows.
    const priceHeader = page.getByRole('columnheader', { name: new RegExp(`^${l.priceColumn.replace(/[()]/g, '\\$&')}`) });
    await priceHeader.getByRole('button').click();
    await page.locator('[role=columnheader][aria-sort=ascending]').waitFor();
    await expect.poll(async () => ordered((await columnTexts(page, l.priceColumn)).map(amountOf), 'asc')).toBe(true);
    await priceHeader.getByRole('button').click();
    await page.locator('[role=columnheader][aria-sort=descending]').waitFor();
    await expect.poll(async () => ordered((await columnTexts(page, l.priceColumn)).map(amountOf), 'desc')).toBe(true);
    const top = (await columnTexts(page, l.priceColumn)).map(amountOf)[0]!;
    expect(top).toBeLessThanOrEqual(3000);
    const query = { priceMin: 500, priceMax: 3000, period: 30, sort: { column: 'price', direction: 'desc' }, limit: 8 };
    const expected = (await api<{ data: ProductResult }>(page, RESEARCH_ENDPOINTS.hotProducts.path, query)).data.rows.map((row) => row.name);
    await expect.poll(async () => (await columnTexts(page, l.nameColumn)).slice(0, 8)).toEqual(expected);

    // Scrolling to the end of the loaded rows loads the next page of the sorted result.
    const loaded = (await total.textContent())!;
    await expect
      .poll(async () => {
        await page.getByRole('grid').evaluate((grid) => grid.scrollTo({ top: grid.scrollHeight }));
        return (await total.textContent()) !== loaded;
      })
      .toBe(true);
    const more = (await total.textContent())!.match(lang === 'zh' ? /已载入前 ([\d,]+) 件/ : /the first ([\d,]+) loaded/)!;
    expect(amountOf(more[1]!)).toBeGreaterThan(2_000);
    await page.getByRole('grid').evaluate((grid) => grid.scrollTo({ top: 0 }));

    // The first product opens in the drawer: its figures, 90 days of sales and prices, the keywords it ranks for.
    await bodyRows(page).first().locator('[role=gridcell] a').first().click();
    const drawer = page.getByRole('dialog');
    const title = drawer.locator('.ant-drawer-title');
    await title.waitFor();
    const shown = (await bodyRows(page).locator('[role=gridcell] a').allTextContents()).slice(0, 3);
    expect(shown).toContain(await title.textContent());
    const price = amountOf((await drawer.locator('.ant-descriptions-item').nth(1).locator('.ant-descriptions-item-content').textContent())!);
    expect(price).toBeGreaterThanOrEqual(500);
    expect(price).toBeLessThanOrEqual(3000);
    await drawer.getByText(l.sales, { exact: true }).waitFor();
    expect(await drawer.getByTestId('chart-sales').getAttribute('data-points')).toBe('90');
    expect(await drawer.getByTestId('chart-prices').getAttribute('data-points')).toBe('90');
    await drawer.getByText(l.keywords, { exact: true }).waitFor();
    await screenshot(page, `research-hot-drawer-${lang}`);
  }, 240_000);

  it("puts the seller's own Ozon search queries beside the market's keywords", async () => {
    const page = await open('/search/key-word', 'zh', 'seller');
    page.setDefaultTimeout(60_000);
    const own = page.getByTestId('own-queries');
    // The demo shops' products sync at start; their queries come from Ozon (the simulator) once they are there.
    const firstQuery = own.locator('.ant-table-row a').first();
    await expect.poll(async () => {
      if (await firstQuery.count()) return true;
      await page.reload();
      return false;
    }, { timeout: 90_000, interval: 3_000 }).toBe(true);
    await page.getByText(/买家在Ozon上通过这些搜索词找到你的商品/).waitFor();
    const query = (await firstQuery.textContent())!;
    // A query looks itself up among the market's keywords; picking one shows the own queries related to it.
    await firstQuery.click();
    expect(await page.getByPlaceholder('输入关键词（俄语），例如 чехол').inputValue()).toBe(query);
    const market = page.locator('.research-keyword-layout .ant-table-row a').filter({ hasText: query }).first();
    await market.waitFor();
    const keyword = (await market.textContent())!;
    await market.click();
    await page.getByTestId('keyword-title').filter({ hasText: keyword }).waitFor();
    await own.locator('.ant-table-row').first().waitFor();
    const related = await own.locator('.ant-table-row a').allTextContents();
    expect(related.length).toBeGreaterThan(0);
    for (const text of related) expect(keyword.includes(text) || text.includes(keyword)).toBe(true);
    await page.getByText(`与「${keyword}」相关`, { exact: false }).waitFor();
    await own.scrollIntoViewIfNeeded();
    await screenshot(page, 'research-keyword-own-zh');
  }, 240_000);

  it('shows a keyword: its searches per day, the products ranking for it and related keywords', async () => {
    const page = await open('/search/key-word', 'en');
    await page.getByPlaceholder('A keyword (in Russian), e.g. чехол').fill('чехол');
    await page.getByPlaceholder('A keyword (in Russian), e.g. чехол').press('Enter');
    const first = page.locator('.ant-table-row a').first();
    await first.filter({ hasText: 'чехол' }).waitFor();
    const keyword = (await first.textContent())!;
    await first.click();
    await page.getByTestId('keyword-title').filter({ hasText: keyword }).waitFor();
    expect(await page.getByTestId('chart-frequency').getAttribute('data-points')).toBe('90');
    await page.getByText('Products ranking for it').waitFor();
    await page.getByText('Related keywords').waitFor();
    await screenshot(page, 'research-keyword-en');
  });

  it('explains a potential product\'s score in its four parts', async () => {
    const page = await open('/search/potential-product');
    await page.getByTestId('research-total').waitFor();
    await page.getByTestId('score-bar').first().hover();
    const explained = page.getByTestId('score-explained');
    await explained.waitFor();
    const text = (await explained.textContent())!;
    for (const part of ['需求增长', '竞争少', '评论门槛低', '价格带', '权重 40%', '潜力分 = Σ 百分位 × 权重', '在全部市场商品中的百分位']) expect(text).toContain(part);
    await screenshot(page, 'research-potential-zh');
  });
});
