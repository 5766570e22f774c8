import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchBrowser, logIn, newContext, screenshot } from './browser';

const baseUrl = inject('baseUrl');
const code = inject('captchaCode');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(path: string, lang: 'zh' | 'en' = 'zh'): Promise<Page> {
  const context = await newContext(browser, baseUrl, lang);
  const page = await context.newPage();
  await page.goto(path);
  await page.waitForURL((url) => url.pathname === '/login');
  if (lang === 'en') {
    await page.getByLabel('Username').fill('analyst');
    await page.getByLabel('Password').fill('analyst123');
    await page.getByPlaceholder('Captcha').fill(code);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
  } else {
    await logIn(page, 'analyst', 'analyst123', code);
  }
  await page.waitForURL((url) => url.pathname === path);
  return page;
}

describe('market research in the browser', () => {
  it('shows a keyword: its searches per day, the products ranking for it and related keywords', async () => {
    const page = await open('/search/key-word', 'en');
    await page.getByPlaceholder('A keyword (in Russian), e.g. чехол').fill('чехол');
    await page.getByPlaceholder('A keyword (in Russian), e.g. чехол').press('Enter');
    const first = page.locator('.ant-table-row a').first();
    await first.filter({ hasText: 'чехол' }).waitFor();
    const keyword = (await first.textContent())!;
    await first.click();
    await page.getByTestId('keyword-title').filter({ hasText: keyword }).waitFor();
    expect(await page.getByTestId('chart-frequency').getAttribute('data-points')).toBe('90');
    await page.getByText('Products ranking for it').waitFor();
    await page.getByText('Related keywords').waitFor();
    await screenshot(page, 'research-keyword-en');
  });

  it('explains a potential product\'s score in its four parts', async () => {
    const page = await open('/search/potential-product');
    await page.getByTestId('research-total').waitFor();
    await page.getByTestId('score-bar').first().hover();
    const explained = page.getByTestId('score-explained');
    await explained.waitFor();
    const text = (await explained.textContent())!;
    for (const part of ['需求增长', '竞争少', '评论门槛低', '价格带', '权重 40%', '潜力分 = Σ 百分位 × 权重', '在全部市场商品中的百分位']) expect(text).toContain(part);
    await screenshot(page, 'research-potential-zh');
  });
});
