import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();

const row = (page: Page, clientId: string) => page.locator('tr.ant-table-row', { hasText: `Client-Id ${clientId}` });
/** The entity's tag in a shop's row once it says synced (data-status is the page's own state, not styling). */
const synced = (page: Page, clientId: string, entity: string) => row(page, clientId).locator(`[data-entity="${entity}"][data-status="done"]`);

describe('shops in the browser', () => {
  it('shows the demo shops synced, refuses a wrong key clearly, and syncs an added simulator shop', async () => {
    const page = await e2e.openAs('seller', '/store/store-list');

    // The demo shops 1001 and 1002 were connected at start and synced in the background.
    for (const clientId of ['1001', '1002']) {
      await synced(page, clientId, 'postings').waitFor({ timeout: 60_000 });
      await synced(page, clientId, 'products').waitFor({ timeout: 60_000 });
    }
    expect(await row(page, '1001').locator('[data-entity="postings"]').textContent()).toMatch(/订单 [\d,]+/);
    expect(await row(page, '1003').count()).toBe(0);
    await screenshot(page, 'store-list-zh');

    // A wrong key: the server asks Ozon (the simulator), which refuses it; the dialog says why.
    await page.getByRole('button', { name: '添加店铺' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('店铺名称').fill('广州服饰');
    await dialog.getByLabel('Client-Id').fill('1003');
    await dialog.getByLabel('Api-Key').fill('wrong-key');
    await dialog.getByRole('button', { name: '保存' }).click();
    // Said once, under the key.
    const wrongKey = page.getByText('Api-Key无效，请检查Client-Id和Api-Key后重试', { exact: true });
    await dialog.getByText('Api-Key无效，请检查Client-Id和Api-Key后重试', { exact: true }).waitFor();
    expect(await wrongKey.count()).toBe(1);
    await screenshot(page, 'store-add-wrong-key-zh');
    expect(await row(page, '1003').count()).toBe(0);

    // The right key: the shop is added and its data arrives.
    await dialog.getByLabel('Api-Key').fill('sim-key-1003');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(page, '1003').waitFor();
    await synced(page, '1003', 'postings').waitFor({ timeout: 90_000 });
    await synced(page, '1003', 'promotions').waitFor({ timeout: 90_000 });
    expect(await row(page, '1003').locator('[data-entity="postings"]').textContent()).toMatch(/订单 [1-9][\d,]*/);
    await screenshot(page, 'store-added-synced-zh');
    await page.context().close();
  });

  it('reads in English', async () => {
    const page = await e2e.openAs('seller', '/store/store-list', { lang: 'en', via: 'login' });
    await synced(page, '1001', 'postings').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Add shop' }).waitFor();
    expect(await row(page, '1001').locator('[data-entity="postings"]').textContent()).toMatch(/Orders [\d,]+/);
    await screenshot(page, 'store-list-en');
    await page.context().close();
  });
});
