import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const SCREENSHOTS = resolve(import.meta.dirname, 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A browser context in a language and, when named, a time zone (else the machine's). */
export async function newContext(browser: Browser, baseUrl: string, lang: 'zh' | 'en' = 'zh', timezoneId?: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1366, height: 800 },
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    ...(timezoneId ? { timezoneId } : {}),
  });
  await context.addCookies([{ name: 'language', value: lang, url: baseUrl }]);
  return context;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Let fonts, images and antd's motion settle so the picture shows what a person sees.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
  await page.screenshot({ path: resolve(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * The open dialog once antd's opening zoom is over. A click that comes while it zooms in can land beside the control
 * it aimed at (on a busy machine the box Playwright measured has moved by the time the click is sent): a toggle's
 * check then fails with "did not change its state". Fills need no wait.
 */
export async function settledDialog(page: Page): Promise<Locator> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await page.waitForFunction(() => document.querySelector('.ant-modal[class*="-appear"], .ant-modal[class*="-enter"]') === null);
  return dialog;
}

export async function logIn(page: Page, username: string, password: string, code: string, lang: 'zh' | 'en' = 'zh'): Promise<void> {
  const label = lang === 'zh' ? { user: '用户名', password: '密码', captcha: '验证码', button: '登录' } : { user: 'Username', password: 'Password', captcha: 'Captcha', button: 'Log in' };
  await page.getByLabel(label.user).fill(username);
  await page.getByLabel(label.password).fill(password);
  await page.getByPlaceholder(label.captcha).fill(code);
  await page.getByRole('button', { name: label.button, exact: true }).click();
}

/** Registers through the API, as a second person would, so tests do not share accounts. */
export async function registerByApi(baseUrl: string, username: string, password: string, code: string): Promise<void> {
  const captcha = (await (await fetch(`${baseUrl}/api/captchaImage`)).json()) as { data: { uuid: string } };
  const response = await fetch(`${baseUrl}/api/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, code, uuid: captcha.data.uuid }),
  });
  if (!response.ok) throw new Error(`register ${username}: ${response.status} ${await response.text()}`);
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/** A new context signed in as the demo seller (zh or en), at `path`. */
export async function openAsSeller(browser: Browser, baseUrl: string, code: string, path: string, lang: 'zh' | 'en' = 'zh'): Promise<Page> {
  const context = await newContext(browser, baseUrl, lang);
  const page = await context.newPage();
  await page.goto('/login');
  if (lang === 'en') {
    await page.getByLabel('Username').fill('seller');
    await page.getByLabel('Password').fill('seller123');
    await page.getByPlaceholder('Captcha').fill(code);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
  } else {
    await logIn(page, 'seller', 'seller123', code);
  }
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto(path);
  return page;
}

/** Calls the API as the page's user, with the credentials the app keeps in its cookies. */
export async function api(page: Page, path: string, body?: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ path, body }) => {
      const cookie = (name: string) => decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1) ?? '');
      const response = await fetch(`/api${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', 'x-token': cookie('Admin-Token'), 'x-user-id': cookie('Admin-MaxId') },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return response.json();
    },
    { path, body },
  );
}

/**
 * The demo seller at the designer (/edit/edit-image), signed in from the login page it sends a new visitor to.
 * `patienceMs`: the page's waits, for the server's first minutes, when it syncs the demo shops in the background and
 * single answers on a busy machine can take 20 s.
 */
export async function openDesignerAsSeller(browser: Browser, baseUrl: string, code: string, lang: 'zh' | 'en' = 'zh', patienceMs?: number): Promise<Page> {
  const context = await newContext(browser, baseUrl, lang);
  if (patienceMs !== undefined) {
    context.setDefaultNavigationTimeout(120_000);
    context.setDefaultTimeout(patienceMs);
  }
  const page = await context.newPage();
  await page.goto('/edit/edit-image');
  await page.waitForURL((url) => url.pathname === '/login');
  await logIn(page, 'seller', 'seller123', code, lang);
  await page.waitForURL((url) => url.pathname === '/edit/edit-image');
  await page.getByTestId('designer-canvas').waitFor();
  return page;
}
