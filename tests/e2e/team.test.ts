import type { Locator, Page } from 'playwright-core';
import { api, screenshot, settledDialog, uniqueName, useBrowser } from './browser';

const e2e = useBrowser();

/** The shop names in the order list's rows on screen (the shop column, found by its header). */
async function shopsOnScreen(page: Page): Promise<string[]> {
  const headers = page.getByRole('columnheader');
  const texts = await headers.allTextContents();
  const index = texts.findIndex((text) => text.replace(/[▲▼]/g, '').trim() === '店铺');
  if (index < 0) throw new Error(`no shop column in ${texts.join(' | ')}`);
  await headers.nth(index).scrollIntoViewIfNeeded();
  const column = await headers.nth(index).getAttribute('aria-colindex');
  const cells = page.locator(`[role=row][aria-rowindex]:not([aria-rowindex="1"]) [role=gridcell][aria-colindex="${column}"]`);
  await cells.first().waitFor();
  return [...new Set(await cells.allTextContents())].sort();
}

/** Toggles options of the open dialog's select `label` (a multiple select takes off one already chosen). */
async function pick(page: Page, label: string, options: string[]): Promise<void> {
  await page.getByRole('dialog').getByLabel(label, { exact: true }).click();
  for (const option of options) await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).click();
  // A multiple select stays open: Escape closes its list. A single one closed on the click, and Escape would close
  // the dialog.
  if ((await page.locator('.ant-select-dropdown:visible').count()) > 0) await page.keyboard.press('Escape');
}

/** An operation log row's changes, a line each ("field：before → after"). */
const changeLines = (row: Locator) => row.locator('.team-log-change > *').allTextContents();

/** A console page once its table has its first answer (no spinner in it). */
async function loaded(page: Page): Promise<void> {
  await page.locator('table').first().waitFor();
  await page.waitForFunction(() => document.querySelector('.ant-spin-spinning') === null);
}

const CONSOLE_PAGES = ['members', 'roles', 'departments', 'positions', 'log', 'online'] as const;

describe('the team console in the browser', () => {
  // A long walk (the owner, the member, both languages' console pages): over 90 s on a loaded 2-core machine.
  it('adds a member with one shop, who sees only its orders and loses it live when the owner changes it; the log shows it', async () => {
    const owner = await e2e.openAs('seller', '/team/members', { via: 'login' });
    const shops = (await api<{ data: { id: number; name: string }[] }>(owner, '/store/list')).data;
    const [shopA, shopB] = shops;
    if (!shopA || !shopB) throw new Error(`the demo seller needs two shops, has ${shops.length}`);
    // A role that sees the orders of every shop: the member's own shop list is what narrows it.
    const roleName = uniqueName('订单查看');
    const role = await api<{ code: number }>(owner, '/permission/role/add', { name: roleName, permissions: ['store:view', 'orders:view'], dataScope: 'all' });
    expect(role.code).toBe(200);

    // The owner adds the member with shop A on the members page.
    const username = uniqueName('member');
    await owner.getByRole('button', { name: '新增成员' }).click();
    let dialog = await settledDialog(owner);
    await dialog.getByLabel('登录名').fill(username);
    await dialog.getByLabel('密码').fill('member123x');
    await dialog.getByLabel('姓名').fill('新成员');
    await pick(owner, '角色', [roleName]);
    await pick(owner, '店铺', [shopA.name]);
    await screenshot(owner, 'team-member-dialog-zh');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const memberRow = owner.getByRole('row', { name: new RegExp(username) });
    await memberRow.waitFor();
    expect(await memberRow.textContent()).toContain(shopA.name);

    // The member, in a browser of their own, sees shop A's orders and no other shop's.
    const member = await e2e.openAs({ username, password: 'member123x' }, '/order-manager/order-list', { via: 'login' });
    await expect.poll(() => shopsOnScreen(member), { timeout: 60_000 }).toEqual([shopA.name]);
    // The menu and buttons hold what the role grants: orders and shops; no products, no team, no shipping.
    const sider = member.locator('.shell-sider');
    await sider.getByText('订单管理', { exact: true }).waitFor();
    expect(await sider.getByText('商品管理', { exact: true }).count()).toBe(0);
    expect(await sider.getByText('团队管理', { exact: true }).count()).toBe(0);
    expect(await member.getByRole('button', { name: '发货', exact: true }).count()).toBe(0);
    await member.evaluate(() => ((window as unknown as { stillOpen: boolean }).stillOpen = true));

    // The owner gives the member shop B instead of A; the member's open page follows without a reload.
    await memberRow.getByRole('button', { name: '编辑' }).click();
    dialog = await settledDialog(owner);
    await pick(owner, '店铺', [shopA.name, shopB.name]);
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => shopsOnScreen(member), { timeout: 60_000 }).toEqual([shopB.name]);
    expect(await member.evaluate(() => (window as unknown as { stillOpen?: boolean }).stillOpen)).toBe(true);
    await screenshot(member, 'team-member-orders-zh');

    // The operation log shows both changes: the member added with shop A, then shop A before and shop B after.
    await owner.goto('/team/log');
    await owner.getByRole('textbox').first().fill(username);
    await owner.getByRole('button', { name: '查询' }).click();
    const changed = owner.getByRole('row', { name: new RegExp(`user/update.*${username}`) });
    await changed.waitFor();
    // Polled: the row can be on screen from the unfiltered first page while the query's answer re-renders the table.
    await expect.poll(() => changeLines(changed)).toContain(`店铺：${shopA.name} → ${shopB.name}`);
    const added = owner.getByRole('row', { name: new RegExp(`user/add.*${username}`) });
    await expect.poll(() => changeLines(added)).toEqual(expect.arrayContaining([`店铺：${shopA.name}`, `角色：${roleName}`]));
    await screenshot(owner, 'team-log-member-zh');

    for (const name of CONSOLE_PAGES) {
      await owner.goto(`/team/${name}`);
      await loaded(owner);
      await screenshot(owner, `team-${name}-zh`);
    }
    await owner.goto('/team/roles');
    await owner.getByRole('button', { name: '新增角色' }).click();
    await settledDialog(owner);
    await screenshot(owner, 'team-role-dialog-zh');
    const en = await e2e.openAs('seller', '/team/members', { via: 'login', lang: 'en' });
    for (const name of CONSOLE_PAGES) {
      await en.goto(`/team/${name}`);
      await loaded(en);
      await screenshot(en, `team-${name}-en`);
    }
  }, 180_000);
});
