import sharp from 'sharp';
import type { Download, Page } from 'playwright-core';
import { api, openDesignerAsSeller, screenshot, settledDialog, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl } = e2e;

async function bytesOf(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function exportAs(page: Page, label: string): Promise<Buffer> {
  await page.getByTestId('designer-export').hover();
  const waiting = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: label }).click();
  return bytesOf(await waiting);
}

const layerNames = (page: Page) => page.locator('.designer-layer-name').allTextContents();

type OzonCard = { offer_id: string; primary_image: string[]; images: string[] };

/** A card as Ozon answers it (the simulator's /v3/product/info/list), read with the shop's own key. */
async function cardOnOzon(clientId: string, offerId: string): Promise<OzonCard> {
  const response = await fetch(`${baseUrl}/sim/ozon/v3/product/info/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'client-id': clientId, 'api-key': `sim-key-${clientId}` },
    body: JSON.stringify({ offer_id: [offerId] }),
  });
  const card = ((await response.json()) as { items: OzonCard[] }).items[0];
  if (!card) throw new Error(`no card ${offerId} in shop ${clientId}`);
  return card;
}

const openDesigner = (lang: 'zh' | 'en' = 'zh', patienceMs?: number) => openDesignerAsSeller(e2e, lang, patienceMs);

describe('the poster designer in the browser', () => {
  it('builds a main image from a template with text and a picture, undoes and redoes, exports PNG, SVG and JSON at the canvas size', async () => {
    const page = await openDesigner();

    // A 3:4 main image from the sale template.
    await page.getByRole('button', { name: /Ozon主图 3:4\s*900×1200/ }).click();
    await page.getByTestId('layout-sale').click();
    await page.getByRole('tab', { name: '元素' }).click();
    await page.getByTestId('element-heading').click();
    const picture = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#13c2c2' } }).png().toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('insert-picture').click();
    await (await chooser).setFiles({ name: 'product.png', mimeType: 'image/png', buffer: picture });
    await page.getByRole('tab', { name: '图层' }).click();
    await expect.poll(() => layerNames(page)).toEqual(['product.png', '双击编辑标题', '-30%', '限时特惠 · 包邮到俄罗斯', '新品上市']);

    // Undo takes the picture away, redo brings it back.
    await page.getByRole('button', { name: '撤销 (Ctrl+Z)' }).click();
    await expect.poll(() => layerNames(page)).toEqual(['双击编辑标题', '-30%', '限时特惠 · 包邮到俄罗斯', '新品上市']);
    await page.getByRole('button', { name: '重做 (Ctrl+Shift+Z)' }).click();
    await expect.poll(() => layerNames(page)).toHaveLength(5);
    await screenshot(page, 'designer-zh');

    // Exports have the canvas's size, whatever the zoom on screen.
    const png = await exportAs(page, 'PNG 图片');
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 900, height: 1200 });
    const svg = (await exportAs(page, 'SVG 矢量图')).toString('utf8');
    expect(svg).toMatch(/<svg[^>]*width="900"[^>]*height="1200"/);
    const json = JSON.parse((await exportAs(page, 'JSON 设计文件')).toString('utf8')) as { width: number; height: number; objects: { type: string; text?: string }[] };
    expect([json.width, json.height]).toEqual([900, 1200]);
    expect(json.objects.map((o) => o.type)).toEqual(['Textbox', 'Textbox', 'Group', 'Textbox', 'Image']);

    await page.context().close();
  });

  it("puts a design on a demo shop's product as its main picture, and Ozon's card then starts with it", async () => {
    const page = await openDesigner('zh', 60_000);

    // A 3:4 main image from the sale template, with a heading of the seller's.
    await page.getByRole('button', { name: /Ozon主图 3:4\s*900×1200/ }).click();
    await page.getByTestId('layout-sale').click();
    await page.getByRole('tab', { name: '元素' }).click();
    await page.getByTestId('element-heading').click();

    // Put on products: demo shop 1001, its first product, as the main picture (the drawer's defaults: JPG, main).
    await page.getByTestId('publish-open').click();
    const drawer = page.getByRole('dialog', { name: '把设计图放到Ozon商品上' });
    await drawer.waitFor();
    const stores = (await api(page, '/store/list')) as { data: { name: string; clientId: string }[] };
    const shop = stores.data.find((s) => s.clientId === '1001')!;
    await drawer.getByRole('combobox', { name: '店铺' }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: shop.name }).click();
    await drawer.locator('.ant-select').filter({ hasText: shop.name }).waitFor();
    const row = drawer.locator('.ant-table-tbody tr.ant-table-row').first();
    await row.waitFor();
    const offerId = (await row.locator('.wm-template-meta').textContent())!.trim();
    const before = await cardOnOzon(shop.clientId, offerId);
    await row.getByRole('checkbox').check();
    await drawer.getByText('已选 1 个商品').waitFor();
    expect(await drawer.getByRole('radio', { name: '主图（替换当前主图）' }).isChecked()).toBe(true);
    await screenshot(page, 'designer-publish-choose-zh');
    await drawer.getByTestId('publish-start').click();

    // The outcome per product: sent, and Ozon's import of the picture done.
    const outcomes = drawer.getByTestId('publish-outcomes');
    await outcomes.getByText('完成：1 个商品已提交到Ozon，0 个失败').waitFor({ timeout: 120_000 });
    const outcome = outcomes.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: offerId });
    await outcome.getByText('已提交', { exact: true }).waitFor();
    await outcome.getByText('Ozon已导入', { exact: true }).waitFor();
    const url = (await outcomes.locator('a[href]').first().getAttribute('href'))!;
    const ownPath = new URL(url).pathname;
    // The row shows the card's main picture as Ozon answered: the design now.
    expect(await outcome.getByTestId('publish-outcome-picture').getAttribute('src')).toBe(ownPath);
    await screenshot(page, 'designer-publish-done-zh');

    // The address Ozon fetches serves the design at the canvas size, to anyone (no session).
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 900, height: 1200 });

    // On Ozon (the simulator's /v3/product/info/list, as the shop's key reads it) the card's main picture is the design.
    // The old main picture went; the card's other pictures stayed, after it.
    const card = await cardOnOzon(shop.clientId, offerId);
    expect(card.primary_image).toEqual([url]);
    expect(card.images).toEqual([url, ...before.images.slice(1)]);

    // The product list shows it too: the row's picture, and first in the product's drawer, loaded in the browser.
    await page.goto('/product/oz-product-list');
    await page.getByRole('searchbox').fill(offerId);
    const listed = page.locator('[role=grid] [role=row]').filter({ hasText: offerId });
    await expect.poll(() => listed.locator('img.product-thumb').getAttribute('src'), { timeout: 120_000 }).toBe(ownPath);
    await listed.dblclick();
    const pictures = page.getByTestId('product-drawer').locator('.ant-image img');
    await expect.poll(() => pictures.first().evaluate((img: HTMLImageElement) => [new URL(img.src).pathname, img.naturalWidth, img.naturalHeight])).toEqual([ownPath, 900, 1200]);
    // The card's other pictures follow it, each loading in the browser.
    await expect.poll(() => pictures.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth > 0))).toEqual(card.images.map(() => true));
    await screenshot(page, 'designer-publish-product-zh');
    await page.context().close();
  }, 300_000);

  it('"Save as" makes a new design and keeps the first; after a reload both open with their own objects', async () => {
    const page = await openDesigner('en', 60_000);
    const status = page.locator('.designer-toolbar-end .ant-tag');
    const nameDialog = async (expectedName: string | null, name: string) => {
      const dialog = await settledDialog(page);
      const input = dialog.getByLabel('Design name');
      if (expectedName !== null) expect(await input.inputValue()).toBe(expectedName);
      await input.fill(name);
      await dialog.getByRole('button', { name: 'OK' }).click();
      await dialog.waitFor({ state: 'hidden' });
      // Saved, or the reason it was not (the page shows a failed save in an alert).
      const outcome = async () => {
        const failure = page.locator('.designer-alert.ant-alert-error');
        return (await failure.count()) ? `failed: ${await failure.textContent()}` : status.textContent();
      };
      await expect.poll(outcome, { timeout: 150_000 }).toBe('Saved');
    };

    // The first design: a heading and a rectangle, saved under a name.
    await page.getByRole('tab', { name: 'Elements' }).click();
    await page.getByTestId('element-heading').click();
    await page.getByTestId('element-rect').click();
    await page.locator('.designer-toolbar-end').getByRole('button', { name: /Save$/ }).click();
    await nameDialog(null, 'Summer main');
    await page.getByRole('tab', { name: 'Layers' }).click();
    const first = await layerNames(page);
    expect(first).toHaveLength(2);

    // A badge more, saved as a new design: the dialog offers a copy's name.
    await page.getByRole('tab', { name: 'Elements' }).click();
    await page.getByTestId('element-badge').click();
    await page.getByTestId('designer-export').hover();
    await page.getByRole('menuitem', { name: 'Save as' }).click();
    await nameDialog('Summer main (copy)', 'Summer main B');
    expect(await page.locator('.designer-name').textContent()).toBe('Summer main B');
    await page.getByRole('tab', { name: 'Layers' }).click();
    const second = await layerNames(page);
    expect(second).toHaveLength(3);

    // After a reload both are in "My designs"; each opens to its own objects.
    await page.reload();
    await page.getByTestId('designer-canvas').waitFor();
    const openDesign = async (name: string) => {
      await page.getByRole('button', { name: 'My designs' }).click();
      const card = page.locator('.designer-designs .ant-card').filter({ has: page.locator('.ant-card-meta-title', { hasText: new RegExp(`^${name}$`) }) });
      await card.getByRole('button', { name: 'Open' }).click();
      await expect.poll(() => page.locator('.designer-name').textContent(), { timeout: 60_000 }).toBe(name);
    };
    await page.getByRole('button', { name: 'My designs' }).click();
    const titles = page.locator('.designer-designs .ant-card-meta-title');
    await expect.poll(() => titles.allTextContents(), { timeout: 60_000 }).toEqual(['Summer main B', 'Summer main']);
    await page.keyboard.press('Escape');
    await openDesign('Summer main');
    await page.getByRole('tab', { name: 'Layers' }).click();
    await expect.poll(() => layerNames(page), { timeout: 60_000 }).toEqual(first);
    await screenshot(page, 'designer-save-as-en');
    await openDesign('Summer main B');
    await expect.poll(() => layerNames(page), { timeout: 60_000 }).toEqual(second);
    await page.context().close();
  }, 300_000);
});
