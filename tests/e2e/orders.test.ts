import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchBrowser, logIn, newContext, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const code = inject('captchaCode');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openAsSeller(path: string): Promise<Page> {
  const context = await newContext(browser, baseUrl);
  const page = await context.newPage();
  await page.goto('/login');
  await logIn(page, 'seller', 'seller123', code);
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto(path);
  return page;
}

const grid = (page: Page) => page.getByRole('grid');
const rowCount = async (page: Page) => Number(await grid(page).getAttribute('aria-rowcount'));

describe('orders in the browser', () => {
  it('enters an order by hand and finds it in the record list', async () => {
    const page = await openAsSeller('/order-manager/record-list');
    await page.getByRole('button', { name: '录入订单' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('订单号').fill('E2E-REC-1');
    await dialog.getByLabel('商品名称').fill('端到端测试商品');
    await dialog.getByLabel('金额').fill('88.5');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('已保存').waitFor();
    await page.getByRole('searchbox').fill('E2E-REC-1');
    await page.getByRole('gridcell', { name: 'E2E-REC-1' }).waitFor();
    expect(await rowCount(page)).toBe(1);
    await screenshot(page, 'orders-record-list');
  });

  it('filters, sorts, selects all, ships and prints labels in the order list', async () => {
    const page = await openAsSeller('/order-manager/order-list');
    await page.waitForFunction(() => Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount')) > 20, null, { timeout: 60_000 });
    const all = await rowCount(page);

    await page.getByLabel('状态').first().click();
    await page.getByTitle('等待备货').click();
    await page.keyboard.press('Escape');
    await page.waitForFunction((before) => Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount')) < before, all);
    const waiting = await rowCount(page);
    expect(waiting).toBeGreaterThan(0);
    await page.locator('[role=row][aria-rowindex] .ant-tag').first().waitFor();
    const statuses = await page.locator('[role=row][aria-rowindex] .ant-tag').allTextContents();
    expect(new Set(statuses)).toEqual(new Set(['等待备货']));

    await page.getByRole('columnheader', { name: /金额/ }).getByRole('button').click();
    await page.getByRole('columnheader', { name: /金额/ }).getByRole('button').click();
    await page.waitForFunction(() => document.querySelector('[role=columnheader][aria-sort=descending]') !== null);

    await page.getByRole('checkbox', { name: `全选 ${waiting} 条` }).check();
    await page.getByText(`已选 ${waiting.toLocaleString('zh-CN')} 条`).waitFor();
    await screenshot(page, 'orders-order-list-selected');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: '打印面单' }).click();
    expect((await download).suggestedFilename()).toBe('labels.pdf');

    await page.getByRole('button', { name: '发货' }).click();
    await page.getByText(/已发货 \d+ 个货件/).waitFor({ timeout: 60_000 });
    await page.waitForFunction((before) => Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount')) < before, waiting, { timeout: 30_000 });
  });
});
