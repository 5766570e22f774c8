import type { Browser } from 'playwright-core';
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

describe('exchange rates in the browser', () => {
  it('converts CNY to RUB at the Bank of Russia rate, says its date, and draws its history', async () => {
    const context = await newContext(browser, baseUrl);
    const page = await context.newPage();
    await page.goto('/tool/currency-change');
    await page.waitForURL((url) => url.pathname === '/login');
    await logIn(page, 'newbie', 'newbie123', code);
    await page.waitForURL((url) => url.pathname === '/tool/currency-change');

    const result = page.getByTestId('conversion-result');
    await result.filter({ hasText: /^1,000 CNY = [\d,]+\.\d{2} RUB$/ }).waitFor();
    const source = await page.getByTestId('rate-source').textContent();
    expect(source).toMatch(/^俄罗斯央行 \d{4}-\d{2}-\d{2} 官方汇率/);

    // A new amount converts by itself; the rate line gives one yuan in roubles.
    await page.getByLabel('金额').fill('2500.50');
    await result.filter({ hasText: /^2,500\.50 CNY = / }).waitFor();
    const rateLine = await page.getByText(/^1 CNY = [\d.]+ RUB$/).textContent();
    const rate = Number(rateLine?.match(/= ([\d.]+)/)?.[1]);
    const shown = Number((await result.textContent())?.split('= ')[1]?.replace(/[, RUB]/g, ''));
    expect(Math.abs(shown - 2500.5 * rate)).toBeLessThan(0.01 + 2500.5 * 0.000001);

    // A bad amount is marked and keeps the last result.
    await page.getByLabel('金额').fill('12.345');
    expect(await page.getByLabel('金额').getAttribute('class')).toContain('ant-input-status-error');

    // Swap: RUB to CNY.
    await page.getByLabel('金额').fill('100');
    await page.getByRole('button', { name: '互换币种' }).click();
    await result.filter({ hasText: /^100 RUB = [\d,]+\.\d{2} CNY$/ }).waitFor();

    await page.getByTestId('rate-chart').locator('canvas').first().waitFor();
    await screenshot(page, 'currency-change-zh');
    await context.close();
  });
});
