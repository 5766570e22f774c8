import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl } = e2e;

/** A picture Ozon can reach: one of the simulator's own product pictures. */
async function pictureUrl(): Promise<string> {
  const response = await fetch(`${baseUrl}/sim/ozon/v3/product/info/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'client-id': '1003', 'api-key': 'sim-key-1003' },
    body: JSON.stringify({ product_id: [100_300_001] }),
  });
  const { items } = (await response.json()) as { items: { images: string[] }[] };
  const image = items[0]!.images[0]!;
  return image.startsWith('http') ? image : `${baseUrl}${image}`;
}

async function pick(page: Page, label: string, search: string | null, option: RegExp | string) {
  const select = page.getByLabel(label, { exact: true });
  await select.click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  if (search) {
    await select.fill(search);
    // The search's own answer replaces the first page: a click while the list changes under it selects nothing.
    await expect
      .poll(async () => {
        const texts = await options.allTextContents();
        return texts.length > 0 && texts.every((text) => text.toLowerCase().includes(search.toLowerCase()));
      })
      .toBe(true);
  }
  await options.filter({ hasText: option }).first().click();
}

describe('creating a product in the browser', { timeout: 240_000 }, () => {
  it('catches a missing required attribute before sending, then sends and watches the card land', async () => {
    // The demo administrator starts with a shop of their own (simulator shop 1004).
    const page = await e2e.openAs('admin', '/create/create-product-1');
    await page.getByText('杭州家居 Hangzhou Home').first().waitFor();
    await page.getByText('选择商品类型后，这里会列出Ozon要求的属性').waitFor();
    await page.getByLabel('类目 / 商品类型').click();
    await page.getByRole('menuitemcheckbox', { name: '电子产品' }).or(page.locator('.ant-cascader-menu-item', { hasText: '电子产品' })).first().click();
    await page.locator('.ant-cascader-menu-item', { hasText: '耳机和音频' }).click();
    await page.locator('.ant-cascader-menu-item', { hasText: '无线耳机' }).click();
    await page.getByLabel('型号名称', { exact: true }).waitFor();

    await page.getByLabel('商品名称', { exact: true }).fill('Беспроводные наушники TWS A9');
    await page.getByLabel('型号名称', { exact: true }).fill('A9');
    await pick(page, '类型', null, '无线耳机');
    await pick(page, '商品颜色 1', null, 'черный');
    await page.keyboard.press('Escape');
    // The main picture is uploaded from the seller's computer, the second one is a link.
    const pictures = page.getByRole('list', { name: '图片', exact: true }).getByRole('listitem');
    const png = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#2a9d8f' } }).png().toBuffer();
    await page.locator('input[type=file]').setInputFiles([
      { name: '耳机主图.png', mimeType: 'image/png', buffer: png },
      { name: '动图.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') },
    ]);
    await page.getByText('动图.gif 上传失败：不是JPG或PNG图片').waitFor();
    await expect.poll(() => pictures.count(), { timeout: 30_000 }).toBe(1);
    const uploaded = new URL((await pictures.first().locator('img').getAttribute('src'))!, baseUrl).href;
    expect(uploaded).toContain('/edit/picture/');
    const linked = await pictureUrl();
    await page.getByLabel('粘贴图片链接，每行一个').fill(linked);
    await page.getByRole('button', { name: '添加链接' }).click();
    await expect.poll(() => pictures.count()).toBe(2);
    await page.getByText('动图.gif 上传失败：不是JPG或PNG图片').evaluate((line) => line.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'create-pictures-zh');
    for (const [label, value] of [['长 (mm)', '150'], ['宽 (mm)', '80'], ['高 (mm)', '40'], ['重量 (g)', '120']] as const) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
    const offerId = `A9-${Date.now().toString(36).toUpperCase()}`;
    await page.getByLabel('货号 1').fill(offerId);
    await page.getByLabel('售价 1').fill('399');

    // The brand is left out: Ozon requires it, so nothing is sent and the field says why.
    await page.getByRole('button', { name: '提交到Ozon' }).click();
    await page.getByText(/还有 1 项不符合Ozon的要求/).waitFor();
    await page.getByText('「品牌」为必填属性').waitFor();
    await screenshot(page, 'create-missing-brand-zh');

    await pick(page, '品牌', 'Baseus', 'Baseus');
    await page.getByText('「品牌」为必填属性').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: '提交到Ozon' }).click();
    await page.getByText('全部 1 个变体已在Ozon上架').waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('create-variant-status').textContent()).toBe(`${offerId} · 已上架`);
    await screenshot(page, 'create-listed-zh');

    // On Ozon (the simulator) the card carries what the form held.
    const onOzon = await fetch(`${baseUrl}/sim/ozon/v3/product/info/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'client-id': '1004', 'api-key': 'sim-key-1004' },
      body: JSON.stringify({ offer_id: [offerId] }),
    });
    const { items } = (await onOzon.json()) as { items: { name: string; price: string; sku: number; primary_image: string[]; images: string[] }[] };
    expect(items[0]).toMatchObject({ name: 'Беспроводные наушники TWS A9' });
    expect(Number(items[0]!.price)).toBe(399);
    // The uploaded picture is the card's main picture on Ozon, at an address Ozon (anyone) can fetch.
    const main = items[0]!.primary_image[0]!;
    expect(new URL(main).pathname).toBe(new URL(uploaded).pathname);
    expect(items[0]!.images).toHaveLength(2);
    const fetched = await fetch(main);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await fetched.arrayBuffer())).metadata()).width).toBe(800);
    await page.context().close();

    // The backup listing in English: the same form, filled from the card just made.
    const enPage = await e2e.openAs('admin', '/create/create-product-2', { lang: 'en', via: 'login', timeouts: { navigation: 90_000, action: 60_000 } });
    await enPage.getByLabel('Template product').fill(offerId);
    await enPage.getByRole('button', { name: 'Load template' }).click();
    await enPage.getByText('Filled from "Беспроводные наушники TWS A9"; enter a new offer id').waitFor();
    await enPage.getByLabel('Model name', { exact: true }).waitFor();
    expect(await enPage.getByLabel('Model name', { exact: true }).inputValue()).toBe('A9');
    await enPage.getByRole('button', { name: 'Send to Ozon' }).click();
    await enPage.getByText('Enter the offer id').waitFor();
    await screenshot(enPage, 'create-template-en');
    // A picture under Ozon's 200 px passes the browser's checks; the server refuses it, in the page's language.
    const small = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#e76f51' } }).png().toBuffer();
    await enPage.locator('input[type=file]').setInputFiles({ name: 'thumb.png', mimeType: 'image/png', buffer: small });
    const refused = enPage.getByText("thumb.png was not uploaded: Each side of the image must be at least 200 px (Ozon's rule)");
    await refused.waitFor();
    expect(await enPage.getByRole('list', { name: 'Pictures', exact: true }).getByRole('listitem').count()).toBe(2);
    await refused.evaluate((line) => line.scrollIntoView({ block: 'center' }));
    await screenshot(enPage, 'create-pictures-en');
    await enPage.context().close();
  });
});
