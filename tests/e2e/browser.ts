import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const SCREENSHOTS = resolve(import.meta.dirname, 'screenshots');

/**
 * The Chromium the suite drives: `CHROMIUM_PATH` when set, else Debian's headless shell (chromium-headless-shell, the
 * build Playwright itself runs headless: the same engine without the desktop browser's compositor and services, a
 * quarter less CPU a file here) when installed, else the desktop build. The plugin file needs the desktop build's
 * extensions and names it itself.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
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
    // As a person who turned animations off: no zooms and slides to wait out (the app follows the setting).
    reducedMotion: 'reduce',
    ...(timezoneId ? { timezoneId } : {}),
  });
  await context.addCookies([{ name: 'language', value: lang, url: baseUrl }]);
  return context;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  // Pictures are for a person to look at: a CI run, which nobody watches, skips them (a quarter of a file's time in the
  // products file) unless E2E_SCREENSHOTS=1 asks. A failed test's pages are pictured either way.
  if (process.env.CI && process.env.E2E_SCREENSHOTS !== '1') return;
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

/**
 * Every page open in `browser` as a picture in screenshots/failed/, named after the failed test, with its address in
 * the log: a red run on a machine nobody watches then shows what the pages showed when the test gave up.
 */
async function picturesOfOpenPages(browser: Browser, testName: string): Promise<void> {
  const dir = resolve(SCREENSHOTS, 'failed');
  mkdirSync(dir, { recursive: true });
  const name = testName.replace(/[^\w-]+/g, '-').slice(0, 80);
  let n = 0;
  for (const context of browser.contexts()) {
    for (const page of context.pages()) {
      const path = resolve(dir, `${name}-${++n}.png`);
      try {
        await page.screenshot({ path, fullPage: true, timeout: 10_000 });
        console.error(`failed test's page ${page.url()}: ${path}`);
      } catch (error) {
        console.error(`failed test's page ${page.url()}: no picture (${String(error)})`);
      }
    }
  }
}

/** The last lines the test server wrote (warnings and errors), for a failed test's log. */
function serverLogTail(path: string, lines = SERVER_LOG_LINES): string {
  if (!existsSync(path)) return '(the test server wrote nothing)';
  const text = readFileSync(path, 'utf8').trimEnd();
  return text === '' ? '(the test server wrote nothing)' : text.split('\n').slice(-lines).join('\n');
}
const SERVER_LOG_LINES = 40;

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

/** The demo accounts the server seeds; each one's password is its name followed by 123. */
export type DemoUser = 'admin' | 'seller' | 'analyst' | 'newbie';
/** A demo account, or any other by its name and password. */
export type Account = DemoUser | { username: string; password: string };

function credentials(account: Account): { username: string; password: string } {
  return typeof account === 'string' ? { username: account, password: `${account}123` } : account;
}

export interface SignInOptions {
  lang?: 'zh' | 'en';
  /**
   * 'link' (the default): open `path` without a session, be sent to the login page, sign in there and land back on
   * `path`. 'login': sign in on the login page, land on the home page, then load `path` afresh with the session.
   */
  via?: 'link' | 'login';
}

export interface OpenOptions extends SignInOptions {
  /** Default timeouts of the new context, for pages that load slowly while the server syncs the demo shops. */
  timeouts?: { navigation?: number; action?: number };
}

/**
 * One e2e file's browser and server: Chromium is launched before the file's tests and closed after them, and the
 * sign-in every test starts with is one call. Call it once at the top of the file.
 */
export function useBrowser() {
  const servers = inject('servers');
  // The worker's own server: files that run at the same time never share one (global-setup.ts).
  const { baseUrl, serverLog } = servers[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % servers.length]!;
  const code = inject('captchaCode');
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(async () => {
      if (browser) await picturesOfOpenPages(browser, task.name);
      console.error(`the test server's last lines when "${task.name}" failed:\n${serverLogTail(serverLog)}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const session = {
    baseUrl,
    /** The captcha answer the test server accepts. */
    code,
    get browser(): Browser {
      if (!browser) throw new Error('useBrowser(): the browser is launched in beforeAll; use it inside a hook or test');
      return browser;
    },
    /** A new context in a language and, when named, a time zone. */
    context(lang: 'zh' | 'en' = 'zh', timezoneId?: string): Promise<BrowserContext> {
      return newContext(session.browser, baseUrl, lang, timezoneId);
    },
    /** Signs `page` in as `account` and leaves it at `path` (or, without one, at the home page). */
    async signIn(page: Page, account: Account, path?: string, { lang = 'zh', via = 'link' }: SignInOptions = {}): Promise<void> {
      const { username, password } = credentials(account);
      // Whole addresses, so a context made without a base URL (a persistent one, with an extension) works too.
      const at = (to: string) => new URL(to, baseUrl).href;
      if (path !== undefined && via === 'link') {
        await page.goto(at(path));
        await page.waitForURL((url) => url.pathname === '/login');
        await logIn(page, username, password, code, lang);
        await page.waitForURL((url) => url.pathname === path);
        return;
      }
      await page.goto(at('/login'));
      await logIn(page, username, password, code, lang);
      await page.waitForURL((url) => url.pathname === '/home/introduction');
      if (path !== undefined) await page.goto(at(path));
    },
    /** A new context and page, signed in as `account`, at `path`. */
    async openAs(account: Account, path: string, { timeouts, ...options }: OpenOptions = {}): Promise<Page> {
      const context = await session.context(options.lang);
      if (timeouts?.navigation) context.setDefaultNavigationTimeout(timeouts.navigation);
      if (timeouts?.action) context.setDefaultTimeout(timeouts.action);
      const page = await context.newPage();
      await session.signIn(page, account, path, options);
      return page;
    },
  };
  return session;
}

/** Calls the API as the page's user, with the credentials the app keeps in its cookies. */
export async function api<T = unknown>(page: Page, path: string, body?: unknown): Promise<T> {
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
  ) as Promise<T>;
}

/** One e2e file's session, as useBrowser() gives it. */
export type E2eSession = ReturnType<typeof useBrowser>;

/**
 * The demo seller at the designer (/edit/edit-image), signed in from the login page it sends a new visitor to.
 * `patienceMs`: the page's waits, for the server's first minutes, when it syncs the demo shops in the background and
 * single answers on a busy machine can take 20 s.
 */
export async function openDesignerAsSeller(e2e: E2eSession, lang: 'zh' | 'en' = 'zh', patienceMs?: number): Promise<Page> {
  const timeouts = patienceMs === undefined ? undefined : { navigation: 120_000, action: patienceMs };
  const page = await e2e.openAs('seller', '/edit/edit-image', { lang, timeouts });
  await page.getByTestId('designer-canvas').waitFor();
  return page;
}
