import sharp from 'sharp';
import type { Browser, Download, Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchBrowser, logIn, newContext, screenshot, settledDialog } from './browser';

const baseUrl = inject('baseUrl');
const code = inject('captchaCode');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

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

describe('the poster designer in the browser', () => {
  it('builds a main image from a template with text and a picture, undoes and redoes, exports PNG, SVG and JSON at the canvas size', async () => {
    const context = await newContext(browser, baseUrl);
    const page = await context.newPage();
    await page.goto('/edit/edit-image');
    await page.waitForURL((url) => url.pathname === '/login');
    await logIn(page, 'seller', 'seller123', code);
    await page.waitForURL((url) => url.pathname === '/edit/edit-image');
    await page.getByTestId('designer-canvas').waitFor();

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

    await context.close();
  });

  it('"Save as" makes a new design and keeps the first; after a reload both open with their own objects', async () => {
    // The server syncs the demo shops in its first minutes and can answer slowly meanwhile: waits are for what the
    // seller sees, with room for that.
    const context = await newContext(browser, baseUrl, 'en');
    context.setDefaultNavigationTimeout(120_000);
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    await page.goto('/edit/edit-image');
    await page.waitForURL((url) => url.pathname === '/login');
    await logIn(page, 'seller', 'seller123', code, 'en');
    await page.waitForURL((url) => url.pathname === '/edit/edit-image');
    await page.getByTestId('designer-canvas').waitFor();
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
    await context.close();
  }, 300_000);
});
