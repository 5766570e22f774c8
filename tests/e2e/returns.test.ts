import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();

const openAsSeller = (path: string, lang: 'zh' | 'en' = 'zh') => e2e.openAs('seller', path, { lang, via: 'login' });

/**
 * The grid of the page on screen. Cached tabs stay mounted (hidden by <Activity>), so after the return list opens the
 * order list and back, a bare `[role=grid]` or `[role=row]` also matches the hidden tab's rows.
 */
const grid = (page: Page) => page.locator('[role=grid]:visible');
const bodyRows = (page: Page) => grid(page).locator('[role=row][aria-rowindex]:not([aria-rowindex="1"])');
const rowCount = async (page: Page) => Number(await grid(page).getAttribute('aria-rowcount'));
/** The texts of one column in the rows on screen, found by its header (as the order list's tests find it). */
async function columnTexts(page: Page, header: string): Promise<string[]> {
  const headers = grid(page).getByRole('columnheader');
  const texts = await headers.allTextContents();
  const index = texts.findIndex((text) => text.replace(/[▲▼]/g, '').trim() === header);
  if (index < 0) throw new Error(`no column ${header} in ${texts.join(' | ')}`);
  await headers.nth(index).scrollIntoViewIfNeeded();
  const column = await headers.nth(index).getAttribute('aria-colindex');
  const cells = bodyRows(page).locator(`[role=gridcell][aria-colindex="${column}"]`);
  await cells.first().waitFor();
  return cells.allTextContents();
}
/** Rows arrive once the demo shops' returns have synced (postings first, then returns). */
const someRows = (page: Page) => expect.poll(() => rowCount(page), { timeout: 120_000 }).toBeGreaterThan(5);

describe('returns', () => {
  it('filters FBS and FBO returns by reason and opens one return, then its order', { timeout: 240_000 }, async () => {
    const page = await openAsSeller('/return/return-list');
    await someRows(page);
    const before = await rowCount(page);
    await screenshot(page, 'returns-list-zh');

    await page.getByRole('combobox', { name: '退货原因' }).click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    const reason = (await option.innerText()).trim();
    await option.click();
    await page.keyboard.press('Escape');
    await expect.poll(async () => new Set(await columnTexts(page, '退货原因')), { timeout: 30_000 }).toEqual(new Set([reason]));
    expect(await rowCount(page)).toBeLessThan(before);
    const schemes = new Set(await columnTexts(page, '模式'));
    for (const scheme of schemes) expect(['FBS', 'FBO']).toContain(scheme);

    // An FBS return: its order is in the order list.
    await page.getByRole('checkbox', { name: 'FBS', exact: true }).click();
    await expect.poll(() => bodyRows(page).first().getAttribute('aria-busy')).toBeNull();
    const [posting] = await columnTexts(page, '货件号');
    await bodyRows(page).first().locator('a').first().click();
    const drawer = page.getByRole('dialog', { name: `退货详情 · ${posting}` });
    await drawer.waitFor();
    await drawer.getByText(reason).first().waitFor();
    await drawer.getByRole('button', { name: '在订单列表中打开' }).waitFor();
    await screenshot(page, 'returns-drawer-zh');
    await drawer.getByRole('button', { name: '在订单列表中打开' }).click();
    await page.waitForURL((url) => url.pathname === '/order-manager/order-list');
    await expect.poll(() => page.getByRole('searchbox').first().inputValue()).toBe(posting);
    await expect.poll(async () => new Set(await columnTexts(page, '货件号')), { timeout: 30_000 }).toEqual(new Set([posting]));

    // The order's drawer shows its return, which opens the return list at that posting.
    await bodyRows(page).first().getByRole('gridcell').nth(1).click();
    const order = page.getByRole('dialog', { name: `货件 ${posting}` });
    await order.getByTestId('order-returns').waitFor();
    await screenshot(page, 'returns-order-drawer-zh');
    await order.getByRole('button', { name: '查看退货' }).first().click();
    await page.waitForURL((url) => url.pathname === '/return/return-list-new');
    await expect.poll(() => page.getByRole('searchbox').first().inputValue()).toBe(posting);
    await page.context().close();
  });

  it('takes an rFBS return from requested to money returned', { timeout: 240_000 }, async () => {
    const page = await openAsSeller('/return/return-list-new');
    await someRows(page);
    await page.getByRole('checkbox', { name: 'rFBS', exact: true }).click();
    // rFBS requests sync after the shops' FBS and FBO returns.
    await expect.poll(async () => (await columnTexts(page, '模式')).includes('rFBS'), { timeout: 120_000 }).toBe(true);
    await page.getByRole('combobox', { name: '状态' }).fill('待卖家审核');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '待卖家审核' }).click({ timeout: 60_000 });
    await page.keyboard.press('Escape');
    await expect.poll(async () => new Set(await columnTexts(page, '状态')), { timeout: 30_000 }).toEqual(new Set(['待卖家审核']));
    const [posting] = await columnTexts(page, '货件号');
    await bodyRows(page).first().locator('a').first().click();
    const drawer = page.getByRole('dialog', { name: `退货详情 · ${posting}` });
    await drawer.waitFor();
    // The buyer's photos (the simulator's pictures, named by the address the server reached it at) load on this page.
    const photos = drawer.locator('.ant-image img');
    await expect.poll(() => photos.evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0))).toBe(true);
    await screenshot(page, 'returns-rfbs-drawer-zh');

    const decide = async (button: string, status: string) => {
      await drawer.getByRole('button', { name: button }).click();
      const dialog = page.getByRole('dialog', { name: new RegExp(`^${button}`) });
      await dialog.waitFor();
      // Over the drawer: once antd's opening zoom is over, so the click lands on the button it aims at.
      await page.waitForFunction(() => document.querySelector('.ant-modal[class*="-appear"], .ant-modal[class*="-enter"]') === null);
      await dialog.getByRole('button', { name: '确 定' }).or(dialog.getByRole('button', { name: '确定' })).click();
      await dialog.getByText(`已完成：${button}。当前状态：${status}`).waitFor({ timeout: 30_000 });
      await dialog.locator('.ant-modal-footer').getByRole('button', { name: /^关\s?闭$/ }).click();
      await drawer.getByText(status).first().waitFor();
    };
    await decide('同意退货', '已同意，待买家寄回');
    await decide('确认收到退货', '卖家已收货');
    await decide('全额退款', '已全额退款');
    await drawer.getByText('该申请当前无需操作').waitFor();
    await screenshot(page, 'returns-rfbs-refunded-zh');
    await page.getByRole('button', { name: 'Close' }).or(page.locator('.ant-drawer-close')).first().click();
    // The list shows the outcome: without the status filter, the posting's return is refunded.
    await page.getByRole('button', { name: /^重\s?置$/ }).click();
    await page.getByRole('searchbox').first().fill(posting!);
    await expect.poll(async () => await columnTexts(page, '状态'), { timeout: 30_000 }).toEqual(['已全额退款']);
    await page.context().close();
  });

  it('shows the return list in English', async () => {
    const page = await openAsSeller('/return/return-list-new', 'en');
    await someRows(page);
    await screenshot(page, 'returns-list-new-en');
    await page.getByRole('columnheader', { name: /Reason/ }).first().waitFor();
    await bodyRows(page).first().locator('a').first().click();
    await page.getByTestId('return-drawer').waitFor();
    await screenshot(page, 'returns-drawer-en');
    await page.context().close();
  });
});
