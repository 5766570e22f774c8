import sharp from 'sharp';
import type { Locator, Page } from 'playwright-core';
import { openDesignerAsSeller, screenshot, useBrowser } from './browser';

const e2e = useBrowser();

/**
 * The seller at the designer's watermarks. In its first minutes the server syncs the demo shops in the background,
 * and on a busy machine single answers then take up to 20 s (measured: health checks of 6 to 20 s for about a minute,
 * some two minutes after start), so a page load outlasts Playwright's 30 s default: every wait here is for what the
 * seller sees, with room for those stalls.
 */
async function openDesigner(lang: 'zh' | 'en'): Promise<Page> {
  const page = await openDesignerAsSeller(e2e, lang, 120_000);
  await page.getByTestId('watermark-open').click();
  await page.getByTestId('watermark-drawer').waitFor();
  return page;
}

/** The open modal once antd's opening zoom is over (the drawer around it is a dialog too, so not `settledDialog`). */
async function settledModal(page: Page): Promise<Locator> {
  const modal = page.locator('.ant-modal').last();
  await modal.waitFor();
  await page.waitForFunction(() => document.querySelector('.ant-modal[class*="-appear"], .ant-modal[class*="-enter"]') === null);
  return modal;
}

/**
 * The pixels of a picture as the page shows it. The app's content security policy lets the page fetch nothing but
 * its own origin (a blob: address included), so the <img> the seller sees is drawn on a canvas and read back.
 */
async function shownPixels(image: Locator) {
  await image.evaluate((img: HTMLImageElement) => img.decode());
  const dataUrl = await image.evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    canvas.getContext('2d')!.drawImage(img, 0, 0);
    return canvas.toDataURL('image/png');
  });
  const { data, info } = await sharp(Buffer.from(dataUrl.split(',')[1]!, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, at: (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)) };
}

/** The template dialog filled and saved; answers when the template is in the list. */
async function saveTemplate(page: Page, dialog: Locator, saveLabel: string, name: string) {
  await dialog.getByRole('button', { name: saveLabel }).click();
  await page.getByTestId('watermark-template').filter({ hasText: name }).waitFor();
}

describe('watermarks in the browser', () => {
  it("makes a template, previews it on a product, watermarks three products' pictures and puts them on their Ozon cards", async () => {
    const page = await openDesigner('zh');

    // A picture template: a red badge bottom-right.
    await page.getByRole('button', { name: '新建模板' }).click();
    const dialog = await settledModal(page);
    await dialog.getByLabel('模板名称').fill('红色角标');
    await dialog.getByText('图片', { exact: true }).click();
    const badge = await sharp({ create: { width: 200, height: 100, channels: 4, background: '#ff0000' } }).png().toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: '选择图片' }).click();
    await (await chooser).setFiles({ name: 'badge.png', mimeType: 'image/png', buffer: badge });
    await dialog.getByRole('radio', { name: '右下' }).click();
    // Opaque, so the mark's pixels are its own colour whatever the product's picture is.
    await dialog.getByRole('slider').first().focus();
    await page.keyboard.press('End');
    await dialog.getByRole('slider').first().and(page.locator('[aria-valuenow="100"]')).waitFor();
    await saveTemplate(page, dialog, '保存模板', '红色角标');

    // Preview on the first product: the watermarked picture has the red mark in its bottom-right corner, the
    // top-left corner is the product's own picture.
    await page.getByTestId('watermark-preview').first().click();
    // antd's Image puts the test id on its wrapper; the picture is the <img> inside.
    const preview = await shownPixels(page.getByTestId('watermark-preview-image').locator('img'));
    const red = preview.at(preview.width - Math.round(preview.width * 0.03) - 5, preview.height - Math.round(preview.height * 0.03) - 5);
    expect(red[0]).toBeGreaterThan(235);
    expect(red[1]! + red[2]!).toBeLessThan(40);
    expect(preview.at(5, 5)).not.toEqual(red);

    // Three chosen products, sent to Ozon.
    await page.getByText('选择商品', { exact: true }).click();
    const boxes = page.getByTestId('watermark-drawer').locator('.ant-table-tbody .ant-checkbox-input');
    for (const k of [0, 1, 2]) await boxes.nth(k).check();
    await page.getByText('已选 3 个商品').waitFor();
    await page.getByTestId('watermark-start').click();
    const confirm = await settledModal(page);
    await confirm.getByRole('button', { name: /确\s*定|OK/ }).click();
    const job = page.getByTestId('watermark-job');
    await job.getByText(/^完成：/).waitFor({ timeout: 180_000 });
    await expect.poll(() => job.getByText('已更新', { exact: true }).count()).toBe(3);
    expect(await page.getByTestId('watermark-summary').textContent()).toMatch(/完成：\d+ 张图片加好水印，0 张失败；3 个商品已更新到Ozon，0 个失败/);
    await screenshot(page, 'watermark-zh');

    // Each product's row shows its watermarked pictures, served from our public picture addresses.
    const pictures = await job.locator('.ant-image-img').evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src));
    expect(pictures.length).toBeGreaterThanOrEqual(3);
    expect(pictures.every((src) => src.includes('/api/edit/picture/'))).toBe(true);
    await page.context().close();
  }, 420_000);

  it('reads in English: a text template, its preview, and a job that only makes the pictures', async () => {
    const page = await openDesigner('en');
    await page.getByTestId('watermark-drawer').getByText('Watermark templates').first().waitFor();
    await page.getByRole('button', { name: 'New template' }).click();
    const dialog = await settledModal(page);
    await dialog.getByLabel('Template name').fill('Shop name');
    await dialog.getByLabel('Watermark text').fill('Yiwu Store · Магазин');
    await dialog.getByRole('radio', { name: 'Centre' }).click();
    await screenshot(page, 'watermark-template-en');
    await saveTemplate(page, dialog, 'Save template', 'Shop name');

    await page.getByTestId('watermark-preview').first().click();
    await page.getByTestId('watermark-preview-image').locator('img').waitFor();
    await page.getByText('Chosen products', { exact: true }).click();
    await page.getByTestId('watermark-drawer').locator('.ant-table-tbody .ant-checkbox-input').first().check();
    await page.getByText('Update the Ozon cards when done').click();
    await page.getByRole('button', { name: 'Watermark the chosen products (1)' }).click();
    const confirm = await settledModal(page);
    await confirm.getByRole('button', { name: 'OK' }).click();
    const job = page.getByTestId('watermark-job');
    await job.getByText(/^Done: /).waitFor({ timeout: 180_000 });
    expect(await page.getByTestId('watermark-summary').textContent()).toMatch(/^Done: \d+ pictures watermarked, 0 failed/);
    await screenshot(page, 'watermark-en');
    await page.context().close();
  }, 420_000);
});
