import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl } = e2e;
let page: Page;

beforeAll(async () => {
  page = await e2e.openAs('seller', '/action/oz-action-list');
});

/** The demo seller's shop 1001 on the simulator; its first action is 100101. */
async function simulator(path: string, body: unknown) {
  const response = await fetch(`${baseUrl}/sim/ozon/__sim/trigger/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, number>>;
}

/** The batch action's dialog (the action drawer is a dialog too), once antd's opening motion is over. */
async function runDialog(title: string | RegExp) {
  const dialog = page.locator('.ant-modal').filter({ hasText: title });
  await dialog.waitFor();
  await page.waitForFunction(() => document.querySelector('.ant-modal[class*="-appear"], .ant-modal[class*="-enter"]') === null);
  return dialog;
}

describe('promotions in the browser', () => {
  it('adds three candidates to an action; the one priced above its maximum is refused with the reason', async () => {
    const row = page.getByRole('row').filter({ hasText: '义乌小百货' }).filter({ hasText: 'Распродажа 11.11' });
    await row.getByRole('button', { name: '查看商品' }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByRole('tab', { name: /可参加商品/ }).click();
    const grid = drawer.getByRole('grid', { name: '活动商品' }).last();
    for (const n of [1, 2, 3]) await grid.getByRole('checkbox', { name: `选择第 ${n} 行` }).check();
    await drawer.getByRole('button', { name: '加入活动（3）' }).click();

    const dialog = await runDialog('加入活动：Распродажа 11.11');
    const prices = dialog.getByRole('spinbutton');
    await prices.nth(1).fill('9999999');
    await dialog.getByText('高于最高活动价', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('成功 2 个，失败 1 个').waitFor();
    await dialog.getByText(/活动价 9999999\.00 高于Ozon允许的最高活动价/).waitFor();
    expect(await dialog.getByText('成功', { exact: true }).count()).toBe(2);
    await screenshot(page, 'promotions-add-outcome-zh');
    await dialog.getByRole('button', { name: '关闭' }).click();
    await page.locator('.ant-drawer-close').click();
    await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
  });

  it('the price guard removes a product Ozon joined below the floor and logs why', async () => {
    const joined = await simulator('autoJoin', { clientId: '1001', actionId: 100102, price: 1 });
    await page.getByRole('tab', { name: '价格保护' }).click();
    const card = page.locator('.ant-card').filter({ hasText: '义乌小百货' });
    await card.getByRole('switch', { name: /开启/ }).click();
    await card.getByRole('spinbutton', { name: /最低价/ }).fill('2');
    await card.getByRole('button', { name: '保存' }).click();
    await page.getByText('已保存').first().waitFor();
    await card.getByRole('button', { name: '立即检查' }).click();
    await page.getByText(/移出 1 个/).waitFor({ timeout: 60_000 });
    const log = page.locator('.ant-card').filter({ hasText: '保护记录' });
    const entry = log.getByRole('row').filter({ hasText: 'Весенние скидки' });
    await entry.getByText('已移出').waitFor();
    await entry.getByText('活动价 ¥1.00 低于最低价 ¥2.00').waitFor();
    await entry.getByText('Ozon自动加入').waitFor();
    expect(joined.productId).toBeGreaterThan(0);
    await screenshot(page, 'promotions-guard-log-zh');
  });

  it('approves one discount request and declines another', async () => {
    await page.getByRole('tab', { name: '折扣申请' }).click();
    const table = page.locator('.ant-table').first();
    await table.locator('.ant-table-row').first().waitFor();
    const first = table.locator('.ant-table-row').nth(0);
    const offer = (await first.locator('td').nth(2).locator('.ant-typography').nth(1).textContent())?.split(' · ')[0] ?? '';
    await first.getByRole('checkbox').check();
    await page.getByRole('button', { name: '同意（1）' }).click();
    let dialog = await runDialog('同意折扣申请');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('成功 1 个，失败 0 个').waitFor();
    await dialog.getByRole('button', { name: '关闭' }).click();

    await table.locator('.ant-table-row').first().waitFor();
    const second = table.locator('.ant-table-row').nth(0);
    const declinedOffer = (await second.locator('td').nth(2).locator('.ant-typography').nth(1).textContent())?.split(' · ')[0] ?? '';
    await second.getByRole('checkbox').check();
    await page.getByRole('button', { name: '拒绝（1）' }).click();
    dialog = await runDialog('拒绝折扣申请');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('成功 1 个，失败 0 个').waitFor();
    await dialog.getByRole('button', { name: '关闭' }).click();

    await page.getByText('已处理', { exact: true }).click();
    const decided = page.locator('.ant-table').first();
    await decided.getByRole('row').filter({ hasText: offer }).filter({ hasText: '已同意' }).first().waitFor();
    await decided.getByRole('row').filter({ hasText: declinedOffer }).filter({ hasText: '已拒绝' }).first().waitFor();
    await screenshot(page, 'promotions-discounts-decided-zh');
  });
});
