import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { chromium, type BrowserContext } from 'playwright-core';
import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl } = e2e;

/**
 * The plugin as a seller uses it: downloaded from the plugin page as a zip, loaded unpacked into Chromium (headless
 * Chromium loads extensions), connected from the plugin page with one click, and used on Ozon and 1688 product
 * pages. Those pages are the saved fixtures the app's source simulator serves, answered at their real addresses
 * (https://detail.1688.com/..., https://www.ozon.ru/...) so the manifest's own match patterns are what injects the
 * collect button.
 */
const PAGES = {
  '1688': { url: 'https://detail.1688.com/offer/712345678901.html', title: '跨境爆款TWS蓝牙耳机 无线降噪运动入耳式 大电量 厂家直销' },
  ozon: { url: 'https://www.ozon.ru/product/besprovodnye-naushniki-tws-x9-chernye-1789012345/' },
} as const;

let extensionDir: string;
let profileDir: string;
let context: BrowserContext | undefined;

beforeAll(async () => {
  extensionDir = mkdtempSync(join(tmpdir(), 'seller-plugin-'));
  profileDir = mkdtempSync(join(tmpdir(), 'seller-profile-'));
});
afterAll(async () => {
  await context?.close();
  rmSync(extensionDir, { recursive: true, force: true });
  rmSync(profileDir, { recursive: true, force: true });
});

/** The source sites' pages, served from the simulator's saved copies at their real addresses. */
async function serveSourceSites(target: BrowserContext) {
  const sites = [
    ['https://detail.1688.com/', '/sim/sources/1688/'],
    ['https://www.ozon.ru/', '/sim/sources/ozon/'],
  ] as const;
  for (const [site, saved] of sites) {
    await target.route(`${site}**`, async (route) => {
      const url = new URL(route.request().url());
      const response = await fetch(`${baseUrl}${saved}${url.pathname.slice(1)}`);
      await route.fulfill({ status: response.status, contentType: response.headers.get('content-type') ?? 'text/html', body: Buffer.from(await response.arrayBuffer()) });
    });
  }
}

describe('the browser plugin', () => {
  it('downloads from the plugin page as a zip made for this server, with the install steps in zh and en', { timeout: 240_000 }, async () => {
    const page = await e2e.openAs('seller', '/plugin/download', { timeouts: { action: 60_000 } });
    await page.getByText('本浏览器中未检测到插件').waitFor();
    await page.getByText('点击“加载已解压的扩展程序”，选择刚才解压的文件夹。').waitFor();
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /下载插件/ }).click()]);
    expect(saved.suggestedFilename()).toMatch(/^seller-plugin-\d+\.\d+\.\d+\.zip$/);
    const files = unzipSync(readFileSync((await saved.path())!));
    for (const [name, data] of Object.entries(files)) {
      if (name.endsWith('/')) continue;
      mkdirSync(dirname(join(extensionDir, name)), { recursive: true });
      writeFileSync(join(extensionDir, name), data);
    }
    const manifest = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8')) as { host_permissions: string[] };
    expect(manifest.host_permissions).toEqual([`${baseUrl}/*`]);
    await screenshot(page, 'plugin-page-zh');

    const en = await e2e.openAs('seller', '/plugin/download', { lang: 'en', via: 'login', timeouts: { action: 60_000 } });
    await en.getByText('Click "Load unpacked" and choose the folder you unzipped.').waitFor();
    await screenshot(en, 'plugin-page-en');
    await en.context().close();
    await page.context().close();
  });

  it('loads unpacked in Chromium, connects from the plugin page in one click, and collects 1688 and Ozon products into the list', { timeout: 300_000 }, async () => {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      ignoreDefaultArgs: ['--disable-extensions'],
      args: [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, '--no-sandbox', '--disable-gpu'],
      locale: 'zh-CN',
      viewport: { width: 1366, height: 800 },
    });
    context.setDefaultTimeout(60_000);
    await context.addCookies([{ name: 'language', value: 'zh', url: baseUrl }]);
    await serveSourceSites(context);
    const page = context.pages()[0] ?? (await context.newPage());

    // Installed: the plugin page sees it; one click hands it a token and it answers as whom it is connected.
    await e2e.signIn(page, 'seller', '/plugin/download');
    await page.getByText(/插件已安装（v[\d.]+），尚未连接。/).waitFor();
    await page.getByRole('button', { name: '连接插件' }).click();
    await page.getByText('插件已连接账号 seller。现在可以去商品页采集了。').waitFor();
    await page.getByText(/插件已安装（v[\d.]+），已连接账号：seller/).waitFor();
    // The token was handed over, never shown; the list has it by its first characters.
    expect(await page.getByTestId('plugin-token').count()).toBe(0);
    await page.getByText(/^sbp_.{6}…$/).waitFor();
    await screenshot(page, 'plugin-page-connected-zh');

    // A 1688 offer: the collect button reads the page, the product goes to the seller's collection.
    const offer = await context.newPage();
    await offer.goto(PAGES['1688'].url);
    await offer.getByRole('button', { name: '采集到卖家后台' }).click();
    const status = offer.getByRole('status');
    await status.getByText(`已加入采集箱：${PAGES['1688'].title}`).waitFor();
    const link = status.getByRole('link', { name: '在采集箱中查看' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${baseUrl}/collection/collection-list\\?id=\\d+$`));
    await screenshot(offer, 'plugin-collect-1688');
    // Collecting it again refreshes the same item.
    await offer.getByRole('button', { name: '采集到卖家后台' }).click();
    await status.getByText(`采集箱中已有此商品，已按页面更新：${PAGES['1688'].title}`).waitFor();

    // An Ozon card, from the toolbar popup: it names this server and the account, and collects the tab the seller is on.
    const card = await context.newPage();
    await card.goto(PAGES.ozon.url);
    await card.getByRole('button', { name: '采集到卖家后台' }).waitFor();
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${new URL(worker.url()).host}/popup.html`);
    await popup.getByText('已连接：seller').waitFor();
    await popup.getByText(`后台地址：${baseUrl} · v`).waitFor();
    // The popup belongs to the tab in front, as when the seller clicks the toolbar icon on it.
    await card.bringToFront();
    await popup.getByRole('button', { name: '采集当前页面的商品' }).click();
    const popupStatus = popup.getByRole('status');
    await popupStatus.getByText(/^已加入采集箱：/).waitFor();
    await card.getByRole('status').getByText(/^已加入采集箱：/).waitFor();
    expect(await popupStatus.getByRole('link', { name: '在采集箱中查看' }).getAttribute('href')).toMatch(new RegExp(`^${baseUrl}/collection/collection-list\\?id=\\d+$`));
    await screenshot(popup, 'plugin-popup-collected-zh');
    // A tab that is no product page gets no collect: the popup says so.
    await page.bringToFront();
    await popup.getByRole('button', { name: '采集当前页面的商品' }).click();
    await popupStatus.getByText(/^当前标签页不是Ozon或1688的商品页/).waitFor();
    await popup.close();

    // The link leads to the item in the collection list, collected by the plugin.
    const [listed] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await listed.waitForURL((url) => url.pathname === '/collection/collection-list');
    await listed.getByRole('dialog').getByText('编辑采集商品').waitFor();
    // The offer's pictures are on 1688's hosts, which the page's CSP does not load: they come through the server.
    const editorPicture = listed.getByRole('dialog').locator('img[src^="blob:"]').first();
    await editorPicture.waitFor();
    await expect.poll(() => editorPicture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await listed.keyboard.press('Escape');
    await listed.getByText(PAGES['1688'].title).first().waitFor();
    const rowPicture = listed.getByRole('row', { name: new RegExp(PAGES['1688'].title) }).locator('img').first();
    await expect.poll(() => rowPicture.evaluate((img: HTMLImageElement) => (img.src.startsWith('blob:') && img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0);
    expect(await listed.getByText('插件', { exact: true }).count()).toBeGreaterThanOrEqual(2);
    await screenshot(listed, 'plugin-collection-list');

    // Revoked on the plugin page, the token collects no more and the button says how to connect again.
    await page.reload();
    await page.getByRole('button', { name: '撤销' }).click();
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();
    await page.getByText('还没有连接过插件。').waitFor();
    await offer.getByRole('button', { name: '采集到卖家后台' }).click();
    await status.getByText(/插件令牌无效、已过期或已撤销/).waitFor();
    expect(await status.getByRole('link', { name: '去连接' }).getAttribute('href')).toBe(`${baseUrl}/plugin/download`);
  });
});
