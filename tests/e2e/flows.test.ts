import type { Page } from 'playwright-core';
import { screenshot, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl } = e2e;

/** The event list's entries, oldest first: "<time> <event> → <state>". */
async function moments(page: Page): Promise<string[]> {
  return (await page.getByTestId('flow-events').locator('.flow-event').allTextContents()).reverse();
}

describe('the flows page', () => {
  it("shows the app's machines live and offline: the session's states in order, tab actors coming and going, an earlier moment", async () => {
    const context = await e2e.context();
    const outside: string[] = [];
    context.on('request', (request) => {
      if (!request.url().startsWith(baseUrl)) outside.push(request.url());
    });
    const page = await context.newPage();
    await e2e.signIn(page, 'admin', '/flows');
    // Opening the page turns recording on for this browser; a reload records this window's own actors from the start.
    await page.getByRole('alert').filter({ hasText: '已在本浏览器开启流程记录' }).waitFor();
    await page.reload();
    await page.getByTestId('flows-title').filter({ hasText: /^session/ }).waitFor();
    await page.locator('.flow-chart[data-machine="session"] [data-active="true"][data-state="loggedIn"]').waitFor();
    // From its start (checking a stored session, or verifying the kept user info) to ready, in order.
    await expect.poll(async () => (await moments(page)).join('\n')).toMatch(/^\S+ xstate\.init → (checkingSession|\{"loggedIn":"verifying"\})\n[\s\S]*→ \{"loggedIn":"idle"\}$/);

    // Another window of the app: its tabs machine spawns a tab actor per opened page and stops it when the tab closes.
    const app = await context.newPage();
    await app.goto('/store/store-list');
    await app.getByRole('tab', { name: '店铺列表' }).waitFor();
    await app.goto('/profile/modify-psw');
    await app.getByRole('tab', { name: '修改密码' }).waitFor();
    await app.getByRole('button', { name: '关闭标签 修改密码' }).click();
    await page.bringToFront();
    const tree = page.locator('.ant-tree');
    await expect.poll(() => tree.locator('[data-actor="tab"]').count()).toBeGreaterThanOrEqual(3);
    await tree.locator('[data-actor="tab"][data-status="stopped"]').first().waitFor();

    // An earlier moment of this window's session: its state then, marked as the past.
    await tree.locator('[data-actor="session"]').first().click();
    await page.getByTestId('flow-events').locator('.flow-event[data-event="xstate.init"]').click();
    await page.getByTestId('flows-title').filter({ hasText: /checkingSession|verifying/ }).filter({ hasText: '历史时刻' }).waitFor();
    await page.locator('.flow-chart [data-active="true"][data-state="checkingSession"], .flow-chart [data-active="true"][data-state="loggedIn"]').first().waitFor();
    expect(await page.getByTestId('flow-payload').textContent()).toContain('"type": "xstate.init"');
    await page.getByRole('button', { name: '回到实时' }).click();
    await page.getByTestId('flows-title').filter({ hasText: /loggedIn/ }).waitFor();
    // Context values that are credentials never reach the page.
    expect(await page.locator('.flow-json').first().textContent()).toContain('"token": "[redacted]"');
    await screenshot(page, 'flows-session-zh');

    // Every machine can be drawn, with no live actor.
    await page.getByRole('tab', { name: '状态机' }).click();
    await page.getByRole('button', { name: 'orderActions', exact: true }).click();
    await page.locator('.flow-chart[data-machine="orderActions"] [data-state="confirming"]').waitFor();
    await screenshot(page, 'flows-order-actions-zh');
    expect(outside).toEqual([]);
    await context.close();
  });
});
