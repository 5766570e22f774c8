import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();

/** A 1688 offer among the source simulator's saved pages (the plugin's test collects the other one). */
const OFFER = { link: 'https://detail.1688.com/offer/698765432109.html', title: '厨房硅胶铲 耐高温不粘锅专用 食品级 家用炒菜铲' };

async function pick(page: Page, label: string, option: RegExp | string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

describe('collecting, editing and uploading a product in the browser', { timeout: 300_000 }, () => {
  it('collects by link, maps a category, fills its attributes, uploads to a shop and watches Ozon list it', async () => {
    const page = await e2e.openAs('seller', '/collection/collection-list', { timeouts: { action: 60_000, navigation: 60_000 } });
    await page.getByPlaceholder(/粘贴 1688 或 Ozon 商品链接/).fill(OFFER.link);
    await page.getByRole('button', { name: '采集', exact: true }).click();
    const row = page.getByRole('row', { name: new RegExp(OFFER.title) });
    await row.waitFor();
    await row.getByRole('button', { name: '编辑' }).click();

    const editor = page.getByRole('dialog');
    await editor.getByText('编辑采集商品').waitFor();
    // Collected by link here, the offer's pictures are the saved page's, served by this server.
    await expect.poll(() => editor.locator('img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await editor.getByLabel('类目 / 商品类型').click();
    await page.locator('.ant-cascader-menu-item', { hasText: '电子产品' }).first().click();
    await page.locator('.ant-cascader-menu-item', { hasText: '耳机和音频' }).click();
    await page.locator('.ant-cascader-menu-item', { hasText: '无线耳机' }).click();
    await editor.getByLabel('品牌', { exact: true }).waitFor();
    for (const [label, value] of [['长', '260'], ['宽', '60'], ['高', '30'], ['重量', '90']] as const) await editor.getByLabel(label, { exact: true }).fill(value);

    // Saved without the brand and the type: a draft, and what the upload still needs is said.
    await editor.getByRole('button', { name: '保存' }).click();
    await editor.getByRole('alert').getByText(/上传前还需：.*「品牌」为必填属性/).waitFor();
    await pick(page, '品牌', 'Baseus');
    await pick(page, '类型', '无线耳机');
    await editor.getByRole('button', { name: '保存' }).click();
    await editor.getByRole('alert').waitFor({ state: 'detached' });
    await screenshot(page, 'collection-editor-attributes-zh');
    await editor.getByRole('button', { name: '取消' }).click();
    await editor.waitFor({ state: 'hidden' });

    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: /上传到店铺/ }).click();
    const dialog = page.getByRole('dialog');
    await pick(page, '店铺', /./);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: '上传', exact: true }).click();
    await dialog.getByText(/已提交 \d+ 个商品卡片，Ozon 正在导入。/).waitFor();
    await dialog.getByRole('link', { name: '查看上传记录' }).click();

    await page.waitForURL((url) => url.pathname === '/collection/upload-history');
    const uploads = page.getByRole('row', { name: /厨房硅胶铲/ });
    await uploads.first().waitFor();
    // The history follows Ozon's import to its end: every variant listed.
    await expect.poll(async () => (await uploads.allInnerTexts()).every((text) => text.includes('已上架')), { timeout: 120_000, interval: 2_000 }).toBe(true);
    await screenshot(page, 'collection-upload-history-zh');
  });
});
