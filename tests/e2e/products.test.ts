import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import sharp from 'sharp';
import { screenshot, settledDialog, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl } = e2e;

const openAs = (path: string, lang: 'zh' | 'en' = 'zh') => e2e.openAs('seller', path, { lang, via: 'login' });

const rowCount = async (page: Page) => Number(await page.getByRole('grid').getAttribute('aria-rowcount'));

/** The demo shops' products once synced: rows in the grid and no sync note. */
async function productsShown(page: Page): Promise<number> {
  await page.waitForFunction(() => Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount')) > 20, null, { timeout: 240_000 });
  await page.getByText(/正在同步商品|Syncing products/).waitFor({ state: 'detached', timeout: 60_000 });
  // The same count twice, 1.5 s apart (a sync between two frames shows no note).
  let total = await rowCount(page);
  for (let checks = 0; checks < 20; checks++) {
    await page.waitForTimeout(1_500);
    const now = await rowCount(page);
    if (now === total) return total;
    total = now;
  }
  throw new Error(`the product count did not settle (last ${total})`);
}

describe('product list', () => {
  it('filters by status, sorts by price, and opens a product with its sales chart', async () => {
    const page = await openAs('/product/oz-product-list');
    const all = await productsShown(page);
    await screenshot(page, 'products-zh');

    await page.getByRole('group', { name: '状态' }).getByText('已归档', { exact: true }).click();
    await page.waitForFunction((n) => Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount')) < n, all);
    const archived = await rowCount(page);
    expect(archived).toBeGreaterThan(0);
    await expect
      .poll(async () => {
        const shown = await page.locator('[role=grid] .product-status').allTextContents();
        return shown.length > 0 && shown.every((text) => text.includes('已归档'));
      })
      .toBe(true);
    await page.getByRole('group', { name: '状态' }).getByText('全部', { exact: true }).click();
    await expect.poll(() => rowCount(page)).toBe(all);

    await page.getByRole('columnheader', { name: /售价/ }).click();
    await expect.poll(async () => page.getByRole('columnheader', { name: /售价/ }).getAttribute('aria-sort')).toBe('ascending');
    const prices = await page.locator('[role=grid] .product-price').allTextContents();
    const values = prices.slice(0, 8).map((text) => Number(text.replace(/[^\d.]/g, '')));
    expect(values).toEqual([...values].sort((a, b) => a - b));

    // A row opens on a double click (or a click on its first cell).
    await page.locator('[role=grid] [role=row][aria-rowindex="2"]').dblclick();
    await page.getByTestId('product-drawer').waitFor();
    await page.getByTestId('product-sales-chart').waitFor();
    await screenshot(page, 'products-drawer-zh');
    await page.context().close();
  }, 420_000);

  it('reads in English', async () => {
    const en = await openAs('/product/oz-product-list', 'en');
    await productsShown(en);
    await en.getByRole('button', { name: 'Set price' }).waitFor();
    await screenshot(en, 'products-en');
    await en.getByRole('group', { name: 'Status' }).getByText('Selling', { exact: true }).click();
    await en.getByRole('checkbox', { name: 'Select row 1', exact: true }).check();
    await en.getByRole('button', { name: /Change pictures/ }).click();
    const dialog = await settledDialog(en);
    await dialog.getByText("Keep the card's other pictures (the new ones go first)").click();
    await dialog.getByText("All of the card's current pictures will be replaced by these").waitFor();
    // Ozon's daily update quota of the shop, read before anything is sent.
    await dialog.getByText("Ozon's daily limit for product updates").waitFor();
    await dialog.getByTestId('quota-table').getByRole('cell', { name: /\d+ \/ \d+/ }).waitFor();
    await screenshot(en, 'products-pictures-en');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await en.context().close();
  }, 300_000);

  it("fixes a price in its cell, Ozon's rules named as they are broken", async () => {
    const page = await openAs('/product/oz-product-list');
    await productsShown(page);
    await page.getByRole('group', { name: '状态' }).getByText('在售', { exact: true }).click();
    await page.locator('[role=grid] .product-price').first().click();
    const price = page.getByRole('spinbutton', { name: /^售价/ });
    const editor = page.locator('.price-editor');
    await price.fill('1000');
    await editor.getByLabel('最低价').fill('900');
    await editor.getByLabel('划线价').fill('1040');
    await expect.poll(async () => page.getByTestId('price-problem').textContent()).toContain('划线价须比售价至少高 50');
    expect(await editor.getByRole('button', { name: '保存' }).isDisabled()).toBe(true);
    await screenshot(page, 'products-price-refused-zh');
    await editor.getByLabel('最低价').fill('1100');
    await editor.getByLabel('划线价').fill('1050');
    await expect.poll(async () => page.getByTestId('price-problem').textContent()).toContain('最低价不能高于售价');
    await editor.getByLabel('最低价').fill('900');
    await expect.poll(() => editor.getByRole('button', { name: '保存' }).isEnabled()).toBe(true);
    await price.press('Enter');
    await page.getByText('改价：1 个商品已完成').waitFor({ timeout: 60_000 });
    await page.context().close();
  });

  it("sets stock over both shops, each at its own warehouse, and shows the products Ozon refuses with the reason", async () => {
    const page = await openAs('/product/oz-product-list');
    await productsShown(page);
    // Ten cards of each demo shop; some are under moderation or declined (no stock for them).
    await page.getByRole('searchbox').fill('-0001');
    await expect.poll(() => rowCount(page)).toBeLessThan(100);
    await page.getByRole('checkbox', { name: /全选|Select all/ }).check();
    await page.getByRole('button', { name: /改库存/ }).click();
    const dialog = await settledDialog(page);
    // One warehouse per shop, each picker offering only its shop's warehouses.
    for (const shop of ['深圳数码', '义乌小百货']) {
      // Each line's own list: two shops may both have a "义乌仓", and the last line's list may still be closing.
      const picker = dialog.getByRole('combobox', { name: new RegExp(`^${shop}.*的仓库$`) });
      await picker.click();
      await expect.poll(() => picker.getAttribute('aria-controls')).toBeTruthy();
      const list = await picker.getAttribute('aria-controls');
      await page.locator(`.ant-select-dropdown:visible:has([id="${list}"]) .ant-select-item-option`).first().click();
    }
    await dialog.getByLabel('库存数量').fill('25');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByTestId('product-action-failures').waitFor({ timeout: 60_000 });
    const failures = await page.getByTestId('product-action-failures').locator('.ant-list-item').count();
    expect(failures).toBeGreaterThan(0);
    expect(await page.getByTestId('product-action-failures').textContent()).toMatch(/审核/);
    expect(await page.getByTestId('product-action-failures').textContent()).not.toMatch(/该仓库不属于商品所在店铺/);
    expect(await dialog.getByRole('status').textContent()).toMatch(/完成 \d+ 个/);
    await screenshot(page, 'products-stock-outcome-zh');
    await page.context().close();
  });
});

describe('product pictures', () => {
  it('puts an uploaded picture and a linked one on a batch, the upload as the main picture', async () => {
    const page = await openAs('/product/oz-product-list');
    await productsShown(page);
    await page.getByRole('group', { name: '状态' }).getByText('在售', { exact: true }).click();
    await page.getByRole('searchbox').fill('SKU-1002-0001');
    await expect.poll(() => rowCount(page)).toBeLessThan(100);
    const linked = new URL((await page.locator('[role=grid] img.product-thumb').first().getAttribute('src'))!, baseUrl).href;
    await page.getByRole('checkbox', { name: '选择第 1 行', exact: true }).check();
    await page.getByRole('checkbox', { name: '选择第 2 行', exact: true }).check();
    await page.getByRole('button', { name: /改图片/ }).click();
    const dialog = await settledDialog(page);
    const png = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#e85d04' } }).png().toBuffer();
    await dialog.locator('input[type=file]').setInputFiles({ name: '主图.png', mimeType: 'image/png', buffer: png });
    const picks = dialog.getByRole('list', { name: '已选图片' }).getByRole('listitem');
    await expect.poll(() => picks.count(), { timeout: 30_000 }).toBe(1);
    await dialog.getByLabel('图片链接（https://…）').fill('ftp://example.com/a.jpg');
    await dialog.getByRole('button', { name: '添加' }).click();
    await dialog.getByText('请输入以 http:// 或 https:// 开头的图片链接').waitFor();
    await dialog.getByLabel('图片链接（https://…）').fill(linked);
    await dialog.getByRole('button', { name: '添加' }).click();
    await expect.poll(() => picks.count()).toBe(2);
    await expect.poll(() => picks.first().textContent()).toContain('主图');
    await dialog.getByText('Ozon每日更新商品额度').waitFor();
    await screenshot(page, 'products-pictures-zh');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText(/改图片：2 个商品已完成/).waitFor({ timeout: 60_000 });
    // The list shows the uploaded picture as each card's main picture.
    await expect
      .poll(async () => (await page.locator('[role=grid] img.product-thumb').evaluateAll((images) => images.slice(0, 2).map((image) => image.getAttribute('src')))).every((src) => src?.includes('/edit/picture/')), { timeout: 60_000 })
      .toBe(true);
    await page.context().close();
  }, 420_000);
});

describe('product export', () => {
  it('saves the current result as Excel and as CSV', async () => {
    const page = await openAs('/product/oz-product-list');
    await productsShown(page);
    await page.getByRole('searchbox').fill('SKU-1002-0001');
    await expect.poll(() => rowCount(page)).toBeLessThan(100);
    const shown = await rowCount(page);
    const saveAs = async (format: string) => {
      const saved = page.waitForEvent('download');
      await page.getByRole('button', { name: '导出' }).hover();
      await page.getByRole('menuitem', { name: format }).click();
      return (await saved).path();
    };

    const sheet = await readSheet(readFileSync(await saveAs('Excel (.xlsx)')));
    expect(sheet[0]).toContain('货号');
    expect(sheet).toHaveLength(shown + 1);
    const offer = sheet[0]!.indexOf('货号');
    expect(sheet.slice(1).every((row) => String(row[offer]).includes('SKU-1002-0001'))).toBe(true);
    const price = sheet[0]!.indexOf('售价');
    expect(price).toBeGreaterThan(-1);
    expect(sheet.slice(1).every((row) => typeof row[price] === 'number')).toBe(true);
    await screenshot(page, 'products-export-zh');

    const text = readFileSync(await saveAs('CSV (.csv)'), 'utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toContain('货号');
    expect(lines).toHaveLength(shown + 1);
    expect(lines.slice(1).every((line) => line.includes('SKU-1002-0001'))).toBe(true);
    await page.context().close();
  }, 300_000);
});
