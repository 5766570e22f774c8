import type { Page } from 'playwright-core';
import { api, screenshot, settledDialog, useBrowser } from './browser';

const e2e = useBrowser();

/** The page's waits are long enough for a machine loaded by other work (sign-in and the first sync can take a minute). */
const openAs = (path: string, lang: 'zh' | 'en' = 'zh') => e2e.openAs('seller', path, { lang, via: 'login', timeouts: { navigation: 120_000, action: 60_000 } });
const rowCount = async (page: Page) => Number(await page.getByRole('grid').getAttribute('aria-rowcount'));

/**
 * Holds the simulator's product import tasks pending, or lets them end (its control endpoint, present on every
 * non-production server): a batch then stays at the import step for as long as the test needs.
 */
async function holdImports(hold: boolean): Promise<void> {
  const response = await fetch(`${e2e.baseUrl}/sim/ozon/__sim/control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ holdImportTasks: hold }),
  });
  if (!response.ok) throw new Error(`simulator control: ${response.status}`);
}

/** The picker once the demo shops' products are cached. */
async function productsShown(page: Page): Promise<void> {
  await page.waitForFunction(() => Number(document.querySelector('[role=grid]')?.getAttribute('aria-rowcount')) > 20, null, { timeout: 240_000 });
  await page.getByText(/正在同步商品|Syncing products/).waitFor({ state: 'detached', timeout: 60_000 });
}

describe('delist and re-upload', () => {
  it('re-uploads two products and watches each to the end, then finds them in the history', async () => {
    const page = await openAs('/product/oz-reupload-product');
    await productsShown(page);
    await page.getByRole('searchbox').fill('SKU-1002-0002');
    await expect.poll(() => rowCount(page)).toBeLessThan(12);
    await screenshot(page, 'reupload-pick-zh');
    const offers = await page.locator('[role=grid] [role=row]').evaluateAll((rows) => rows.slice(1, 3).map((row) => (row.textContent ?? '').match(/SKU-1002-\d{5}/)?.[0] ?? ''));
    await page.getByRole('checkbox', { name: '选择第 1 行', exact: true }).check();
    await page.getByRole('checkbox', { name: '选择第 2 行', exact: true }).check();
    await page.getByRole('button', { name: '重新上架（2）' }).click();
    const dialog = await settledDialog(page);
    await dialog.getByText('Ozon每日新建额度').waitFor();
    await dialog.getByRole('cell', { name: /深圳数码/ }).waitFor();
    await screenshot(page, 'reupload-confirm-zh');
    await dialog.getByRole('button', { name: '开始重新上架' }).click();
    // Ozon's import task and moderation each take a few seconds in the simulator; the dialog follows both.
    await expect.poll(async () => page.getByTestId('reupload-progress').textContent(), { timeout: 90_000, interval: 1_000 }).toBe('完成 2 · 进行中 0 · 失败 0');
    for (const offer of offers) await dialog.getByText(`${offer}-R1`).waitFor();
    await screenshot(page, 'reupload-done-zh');
    await dialog.getByRole('button', { name: '完成' }).click();

    await page.getByRole('tab', { name: '重新上架记录' }).click();
    for (const offer of offers) await page.getByRole('cell', { name: `${offer}-R1`, exact: true }).waitFor();
    await screenshot(page, 'reupload-history-zh');
    // The new cards are in the product list under their new offer ids.
    await page.getByRole('tab', { name: '选择商品' }).click();
    await page.getByRole('searchbox').fill(`${offers[0]}-R1`);
    await expect.poll(() => rowCount(page), { timeout: 30_000 }).toBe(1);
    await page.context().close();
  }, 420_000);

  it('carries a batch on in the server after its page is closed, and the page opened again follows it to the end', async () => {
    // Ozon holds the import tasks until the page is closed and opened again: the batch is surely mid-way then.
    await holdImports(true);
    try {
      const page = await openAs('/product/oz-reupload-product');
      await productsShown(page);
      await page.getByRole('searchbox').fill('SKU-1002-0006');
      await expect.poll(() => rowCount(page)).toBeLessThan(12);
      const offers = await page.locator('[role=grid] [role=row]').evaluateAll((rows) => rows.slice(1, 3).map((row) => (row.textContent ?? '').match(/SKU-1002-\d{5}/)?.[0] ?? ''));
      expect(offers.every((offer) => offer.length > 0)).toBe(true);
      await page.getByRole('checkbox', { name: '选择第 1 行', exact: true }).check();
      await page.getByRole('checkbox', { name: '选择第 2 行', exact: true }).check();
      await page.getByRole('button', { name: '重新上架（2）' }).click();
      const dialog = await settledDialog(page);
      await dialog.getByRole('button', { name: '开始重新上架' }).click();
      await expect.poll(async () => page.getByTestId('reupload-progress').textContent(), { timeout: 60_000, interval: 500 }).toBe('完成 0 · 进行中 2 · 失败 0');
      // Both old cards are stored and the new ones sent to Ozon's import, which is still at work.
      type Open = { data: { openBatches: { batchId: string; unsettled: number }[]; list: { newOfferId: string; step: string }[] } };
      const history = () => api<Open>(page, '/product/reUpload/history?page=1&rows=50&search=SKU-1002-0006');
      const importing = async () => (await history()).data.list.filter((row) => offers.some((offer) => row.newOfferId === `${offer}-R1`) && row.step === 'importing').length;
      await expect.poll(importing, { timeout: 120_000, interval: 1_000 }).toBe(2);
      await page.context().close();

      // Opened again: the page knows of the batch only from the server, which holds it mid-way.
      const again = await openAs('/product/oz-reupload-product');
      await again.getByRole('tab', { name: '重新上架记录' }).click();
      const notice = again.getByText('有 2 个商品正在后台重新上架');
      await notice.waitFor({ timeout: 60_000 });
      for (const offer of offers) await again.getByRole('cell', { name: `${offer}-R1`, exact: true }).waitFor();
      await screenshot(again, 'reupload-reopened-zh');
      // Ozon finishes its work; the server carries the batch on to the end while the page only watches.
      await holdImports(false);
      await again.getByRole('button', { name: '查看进度' }).click();
      const watching = await settledDialog(again);
      await expect.poll(async () => again.getByTestId('reupload-progress').textContent(), { timeout: 120_000, interval: 1_000 }).toBe('完成 2 · 进行中 0 · 失败 0');
      for (const offer of offers) await watching.getByText(`${offer}-R1`).waitFor();
      await watching.getByRole('button', { name: '完成' }).click();
      await notice.waitFor({ state: 'detached', timeout: 60_000 });
      await again.context().close();
    } finally {
      await holdImports(false);
    }
  }, 420_000);

  it('reads in English, with the quota before anything is sent', async () => {
    const page = await openAs('/product/oz-reupload-product', 'en');
    await productsShown(page);
    await page.getByRole('searchbox').fill('SKU-1002-0004');
    await expect.poll(() => rowCount(page)).toBeLessThan(12);
    await page.getByRole('checkbox', { name: 'Select row 1', exact: true }).check();
    await page.getByRole('button', { name: 'Re-upload (1)' }).click();
    const dialog = await settledDialog(page);
    await dialog.getByText("Ozon's daily limit for new products").waitFor();
    await screenshot(page, 'reupload-confirm-en');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await screenshot(page, 'reupload-pick-en');
    await page.context().close();
  }, 300_000);
});
