import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();

describe('exchange rates in the browser', () => {
  it('converts CNY to RUB at the Bank of Russia rate, says its date, and draws its history', async () => {
    const page = await e2e.openAs('newbie', '/tool/currency-change');

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
    await page.context().close();
  });
});

describe('parcel tracking in the browser', () => {
  it('tracks a mixed batch: each number at its carrier, with its timeline and where the answer came from', async () => {
    const page = await e2e.openAs('newbie', '/track/track-search');

    await page.getByLabel('物流单号').fill('RA123456785RU\nlp00612345678912, YT2412345678912\nRA123450000RU\n12');
    await page.getByText('无法识别的单号：12').waitFor();
    await page.getByText('已识别 4 个单号').waitFor();
    await page.getByTestId('track-submit').click();

    const card = (number: string) => page.locator(`[data-testid="track-result"][data-number="${number}"]`);
    await card('RA123456785RU').waitFor();
    expect(await card('RA123456785RU').textContent()).toContain('俄罗斯邮政');
    expect(await card('LP00612345678912').textContent()).toContain('菜鸟');
    expect(await card('LP00612345678912').textContent()).toContain('按前缀');
    expect(await card('YT2412345678912').textContent()).toContain('17TRACK');
    expect(await card('RA123450000RU').getByTestId('track-status').textContent()).toBe('查无信息');
    // The first event of the journey, in Russian Post's words, with the office's index; the read time is said.
    expect(await card('RA123456785RU').textContent()).toContain('518000 Shenzhen');
    expect(await card('RA123456785RU').textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} 从 俄罗斯邮政 读取/);
    expect(await page.getByTestId('track-summary').textContent()).toContain('共 4 个单号');
    await screenshot(page, 'track-search-zh');
    await page.context().close();
  });
});

describe('postcodes in the browser', () => {
  it('finds a postcode by street, opens its office with address and hours, and says where the data comes from', async () => {
    const page = await e2e.openAs('newbie', '/tool/rus-post');
    await page.getByTestId('postcode-dataset').filter({ hasText: /俄罗斯邮政邮编库 .+，\d+ 个邮局/ }).waitFor();

    await page.getByLabel('邮编或地址').fill('Мясницкая 26');
    await page.getByTestId('postcode-submit').click();
    await page.getByTestId('postcode-by-address').getByText('101000 · МОСКВА ПОЧТАМТ').click();
    const office = page.getByTestId('postcode-office');
    await office.getByText('г Москва, ул Мясницкая, д 26А, стр 1').waitFor();
    expect(await office.textContent()).toContain('周一08:00–22:00');
    await screenshot(page, 'rus-post-zh');

    // Words of a place in any order: the Moscow region's offices.
    await page.getByLabel('邮编或地址').fill('московская область');
    await page.getByTestId('postcode-submit').click();
    await page.getByText('找到 3 个邮局').waitFor();
    expect(await page.getByTestId('postcode-results').textContent()).toContain('ПОДОЛЬСК');
    await page.context().close();
  });
});
