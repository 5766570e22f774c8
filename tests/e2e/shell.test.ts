import type { BrowserContext, Page } from 'playwright-core';
import { api, screenshot, settledDialog, useBrowser, type DemoUser } from './browser';

const e2e = useBrowser();
const { baseUrl } = e2e;
const contexts = new Map<string, BrowserContext>();

afterAll(async () => {
  for (const context of contexts.values()) await context.close();
});

/** One logged-in context per account, reused across tests (logins are the slow part). */
async function pageAs(username: DemoUser, lang: 'zh' | 'en' = 'zh'): Promise<Page> {
  let context = contexts.get(`${username}:${lang}`);
  if (!context) {
    context = await e2e.context(lang);
    const page = await context.newPage();
    await e2e.signIn(page, username, undefined, { lang });
    await page.close();
    contexts.set(`${username}:${lang}`, context);
  }
  // Every test starts from the same display state, whatever an earlier (maybe failed) test left behind: the
  // language of this context, an open sidebar, the default size, and default settings on the page's first load.
  await context.addCookies([
    { name: 'language', value: lang, url: baseUrl },
    { name: 'sidebarStatus', value: '1', url: baseUrl },
    { name: 'size', value: 'medium', url: baseUrl },
  ]);
  const page = await context.newPage();
  await page.addInitScript(() => {
    if (sessionStorage.getItem('e2e-fresh')) return;
    localStorage.removeItem('displaySettings');
    sessionStorage.setItem('e2e-fresh', '1');
  });
  await page.goto('/home/introduction');
  await page.locator('.shell-sider .ant-menu-root').waitFor();
  return page;
}

/** In-app navigation (wouter follows pushState): a page.goto would reload and start the tabs afresh. */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => window.history.pushState(null, '', to), path);
  await atPath(page, path);
}

/** Waits for the app to be at a path; polling, since in-app moves are history entries, not page loads. */
async function atPath(page: Page, path: string): Promise<void> {
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe(path);
}

async function topMenu(page: Page): Promise<string[]> {
  return page.locator('.shell-sider .ant-menu-root > li').evaluateAll((items) =>
    items.map((item) => (item.querySelector(':scope > .ant-menu-submenu-title .ant-menu-title-content, :scope .ant-menu-title-content')?.textContent ?? '').trim()),
  );
}

const OPEN = ['物流轨迹查询', '实用工具', '修改密码', '团队管理'];
const FOLLOW = ['系统介绍', '店铺列表', '商品复制', '商品采集', '图片编辑', '订单管理', '商品管理', '活动列表', '数据分析', '退货管理', '聊天列表', '店铺销售分析', ...OPEN];

describe('sidebar per role (spec §6)', () => {
  it.each<[DemoUser, string[]]>([
    ['admin', ['系统介绍', '店铺列表', '商品复制', '商品采集', '备份上架', '图片编辑', '订单管理', '商品管理', '活动列表', '数据分析', '退货管理', '聊天列表', '店铺销售分析', ...OPEN, '运营后台']],
    ['seller', FOLLOW],
    ['analyst', ['系统介绍', '数据分析', ...OPEN]],
    ['newbie', ['系统介绍', ...OPEN]],
  ])('%s sees exactly its menu', async (username, expected) => {
    const page = await pageAs(username);
    expect(await topMenu(page)).toEqual(expected);
    await page.close();
  });

  it('a direct link to a forbidden page says which role opens it, and a page of an open area opens', async () => {
    const page = await pageAs('newbie');
    await page.goto('/store/store-list');
    await page.getByText('无权限访问', { exact: true }).waitFor();
    await page.getByText('权限已过期或无权限操作，请联系管理员', { exact: true }).waitFor();
    await page.getByText('此页面需要以下角色：管理员或跟卖用户', { exact: true }).waitFor();
    // The paid period the role needs, and who to ask for it.
    await page.getByText('跟卖用户需在「跟卖功能」有效期内使用', { exact: true }).waitFor();
    await page.getByText(/^开通方式：请联系管理员/).waitFor();
    expect(new URL(page.url()).pathname).toBe('/store/store-list');
    await screenshot(page, 'no-permission-zh');
    await page.goto('/ops-console/user-manager');
    await page.getByText('此页面需要以下角色：管理员', { exact: true }).waitFor();
    await page.goto('/tool/rus-post');
    await page.getByLabel('邮编或地址').waitFor();
    await page.close();
    const english = await pageAs('newbie', 'en');
    await english.goto('/store/store-list');
    await english.getByText('This page opens with the role: Administrator or Follow seller', { exact: true }).waitFor();
    await screenshot(english, 'no-permission-en');
    await english.close();
  });

  it('a navigation runs the progress bar along the top: filled and faded once the page is in, again for the next page', async () => {
    const page = await pageAs('seller');
    const bar = page.locator('.app-progress');
    // The bar's last animation: where it ends and whether it has, and what the bar shows now.
    const last = () =>
      bar.evaluate((element) => {
        const animation = element.getAnimations().at(-1);
        const frames = (animation?.effect as KeyframeEffect | undefined)?.getKeyframes() ?? [];
        const same = animation !== undefined && animation === (window as unknown as { __bar?: Animation }).__bar;
        return { state: animation?.playState, to: frames.at(-1)?.transform, opacity: getComputedStyle(element).opacity, same };
      });
    await expect.poll(last).toEqual({ state: 'finished', to: 'scaleX(1)', opacity: '0', same: false });
    await bar.evaluate((element) => ((window as unknown as { __bar?: Animation }).__bar = element.getAnimations().at(-1)));
    await page.getByRole('combobox', { name: '搜索菜单' }).fill('hlhs');
    await page.locator('.ant-select-item-option', { hasText: '汇率换算' }).click();
    await page.waitForURL((url) => url.pathname === '/tool/currency-change');
    // A first visit loads the page's code; a busy server can take seconds to send it. Once the page is in:
    await page.getByLabel('金额').waitFor({ timeout: 30_000 });
    // a new run of the bar, ended the same way (it is only filled after it was started by the navigation).
    await expect.poll(last).toEqual({ state: 'finished', to: 'scaleX(1)', opacity: '0', same: false });
    expect(await bar.evaluate((element) => getComputedStyle(element).pointerEvents)).toBe('none');
    await page.close();
  });

  it('menu search finds a page by pinyin initials, of the page or of its group, and shows it with its group', async () => {
    const page = await pageAs('seller');
    const options = () => page.locator('.ant-select-item-option').allTextContents();
    await page.getByRole('combobox', { name: '搜索菜单' }).fill('ptdd');
    await page.locator('.ant-select-item-option', { hasText: '订单管理 / 平台订单' }).waitFor();
    // The guide's own example: the initials of the group 订单管理 offer its pages, named with the group, no path.
    await page.getByRole('combobox', { name: '搜索菜单' }).fill('ddgl');
    await page.locator('.ant-select-item-option', { hasText: '订单管理 / 录入订单' }).waitFor();
    expect(await options()).toContain('订单管理 / 平台订单');
    expect((await options()).some((text) => text.includes('/order-manager'))).toBe(false);
    await page.getByRole('combobox', { name: '搜索菜单' }).fill('hlhs');
    await page.locator('.ant-select-item-option', { hasText: '汇率换算' }).click();
    await page.waitForURL((url) => url.pathname === '/tool/currency-change');
    await page.close();
  });
});

describe('tabs', () => {
  it('opens and closes tabs by every means, keeps the affix tab, and refresh keeps the tab', async () => {
    const page = await pageAs('seller');
    const tab = (name: string) => page.getByRole('tab', { name });
    await go(page, '/tool/currency-change');
    await tab('汇率换算').waitFor();
    await go(page, '/tool/rus-post');
    await go(page, '/track/track-search');
    await go(page, '/profile/modify-psw');
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['系统介绍', '汇率换算', '俄罗斯邮编查询', '物流轨迹查询', '修改密码']);
    expect(await tab('修改密码').getAttribute('aria-selected')).toBe('true');
    // The cached page keeps what was typed while its tab is hidden.
    await page.getByLabel('原密码').fill('typed-before');
    // The form has taken the text (a controlled input that did not would show it empty again at once).
    await expect.poll(() => page.getByLabel('原密码').inputValue()).toBe('typed-before');
    await tab('汇率换算').click();
    await atPath(page, '/tool/currency-change');
    await tab('修改密码').click();
    await atPath(page, '/profile/modify-psw');
    expect(await page.getByLabel('原密码').inputValue()).toBe('typed-before');
    // Refreshing another tab passes through the redirect page without dropping this one's state.
    await tab('汇率换算').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '刷新' }).click();
    await atPath(page, '/tool/currency-change');
    await tab('修改密码').click();
    await atPath(page, '/profile/modify-psw');
    expect(await page.getByLabel('原密码').inputValue()).toBe('typed-before');

    // Close icon on the active tab: the view moves to the last remaining tab.
    await page.getByRole('button', { name: '关闭标签 修改密码' }).click();
    await atPath(page, '/track/track-search');
    // Middle-click.
    await tab('俄罗斯邮编查询').click({ button: 'middle' });
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['系统介绍', '汇率换算', '物流轨迹查询']);
    // Context menu: refresh keeps the tab, close others keeps it and the affix tab.
    await tab('汇率换算').click({ button: 'right' });
    const menu = page.locator('.tags-view').getByRole('menu');
    expect((await menu.boundingBox())?.width).toBe(105);
    await page.getByRole('menuitem', { name: '刷新' }).click();
    await atPath(page, '/tool/currency-change');
    expect(await tab('汇率换算').getAttribute('aria-selected')).toBe('true');
    await tab('汇率换算').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '关闭其他' }).click();
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['系统介绍', '汇率换算']);
    // The affix tab has no close icon; close all leaves it and goes home.
    expect(await page.getByRole('button', { name: '关闭标签 系统介绍' }).count()).toBe(0);
    await page.getByRole('button', { name: '关闭所有' }).click();
    await atPath(page, '/home/introduction');
    expect(await page.getByRole('tab').allTextContents()).toEqual(['系统介绍']);
    await page.close();
  });
});

describe('settings, language and screenshots', () => {
  it('switches language, keeps the sidebar state and the theme across reloads, and looks right', async () => {
    const page = await pageAs('admin');
    await page.goto('/ops-console/user-manager');
    await page.getByRole('button', { name: '新增用户' }).waitFor();
    await screenshot(page, 'shell-zh');
    await page.getByRole('button', { name: '语言' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Add user' }).waitFor();
    expect(await topMenu(page)).toContain('Operations console');
    await screenshot(page, 'shell-en');
    await page.getByRole('button', { name: 'Collapse or expand the sidebar' }).click();
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'sidebarStatus')?.value).toBe('0');
    expect(cookies.find((cookie) => cookie.name === 'language')?.value).toBe('en');

    // A custom theme colour, saved as the settings panel saves it, with a key that does not exist beside it.
    await page.evaluate(() => {
      const saved = JSON.parse(localStorage.getItem('displaySettings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('displaySettings', JSON.stringify({ ...saved, theme: '#722ed1', bogus: 1 }));
    });
    await page.reload();
    const addUser = page.getByRole('button', { name: 'Add user' });
    await addUser.waitFor();
    expect(await page.getByRole('button', { name: 'Collapse or expand the sidebar' }).getAttribute('aria-expanded')).toBe('false');
    // Applied to antd's components, not only to the shell's own CSS.
    await expect.poll(() => addUser.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(114, 46, 209)');
    await screenshot(page, 'shell-en-theme-collapsed');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByText('Page style settings').waitFor();
    await screenshot(page, 'shell-en-theme-settings');
    await page.keyboard.press('Escape');
    await page.getByText('Page style settings').waitFor({ state: 'hidden' });

    // Back to zh through the switcher, with the sidebar open again.
    await page.getByRole('button', { name: 'Collapse or expand the sidebar' }).click();
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: '简体中文' }).click();
    await page.getByRole('button', { name: '新增用户' }).waitFor();
    await screenshot(page, 'shell-zh-theme');
    await page.getByRole('button', { name: '系统设置' }).click();
    await page.getByRole('button', { name: '恢复默认' }).click();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('displaySettings') ?? '{}') as unknown)).not.toHaveProperty('bogus');
    // antd animates the colour change: wait for it to settle on the default blue.
    await expect
      .poll(() => page.getByRole('button', { name: '新增用户' }).evaluate((element) => getComputedStyle(element).backgroundColor))
      .toBe('rgb(24, 144, 255)');
    await page.close();
  });
});

describe('dates', () => {
  it('shows a notice time in the reader\'s own time zone, one format per language', async () => {
    const notices = async (page: Page) =>
      (await api<{ data: { list: { text: string; updateTime: string }[] } }>(page, '/notice/list?page=1&rows=1')).data.list[0]!;
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    for (const [lang, zone] of [['zh', 'Asia/Shanghai'], ['en', 'UTC']] as const) {
      const context = await e2e.context(lang, zone);
      try {
        const page = await context.newPage();
        await e2e.signIn(page, 'admin', '/ops-console/notice-manager', { lang, via: 'login' });
        const notice = await notices(page);
        // updateTime is China time (UTC+8): in Shanghai it reads as written, in UTC eight hours earlier.
        const moment = new Date(`${notice.updateTime.replace(' ', 'T')}+08:00`);
        const pad = (n: number) => String(n).padStart(2, '0');
        const expected =
          lang === 'zh'
            ? notice.updateTime.slice(0, 16)
            : `${moment.getUTCDate()} ${months[moment.getUTCMonth()]} ${moment.getUTCFullYear()}, ${pad(moment.getUTCHours())}:${pad(moment.getUTCMinutes())}`;
        await page.getByRole('row').filter({ hasText: notice.text.slice(0, 10) }).getByText(expected).waitFor();
        await page.close();
      } finally {
        await context.close();
      }
    }
  });
});

describe('administration end to end', () => {
  it('the notice manager publishes a notice that a seller sees and dismisses for good', async () => {
    const admin = await pageAs('admin');
    await admin.goto('/ops-console/notice-manager');
    const text = `仓库春节放假通知 ${Date.now()}`;
    await admin.getByRole('button', { name: '发布公告' }).click();
    await admin.getByLabel('公告内容').fill(text);
    await admin.getByRole('button', { name: '保存' }).click();
    await admin.getByText('公告已发布').waitFor();
    await admin.getByRole('cell', { name: text }).waitFor();
    await admin.close();

    const seller = await pageAs('seller');
    const banner = seller.getByRole('region', { name: '公告' });
    await banner.getByText(text).waitFor();
    await screenshot(seller, 'shell-zh-notice');
    await seller.getByRole('button', { name: '关闭公告' }).click();
    await banner.waitFor({ state: 'detached' });
    await seller.reload();
    await seller.locator('.shell-sider .ant-menu-root').waitFor();
    await seller.waitForTimeout(1000);
    expect(await seller.getByText(text).count()).toBe(0);
    await seller.close();
  });

  it('the user manager adds, finds, edits and deletes a user', async () => {
    const page = await pageAs('admin');
    await page.goto('/ops-console/user-manager');
    const name = `staff_${Date.now().toString(36)}`;
    await page.getByRole('button', { name: '新增用户' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('用户名').fill(name);
    await dialog.getByLabel('初始密码').fill('Staff12345');
    await dialog.getByRole('checkbox', { name: '跟卖用户' }).check();
    await dialog.getByRole('button', { name: '保存' }).click();
    await page.getByText('已保存').first().waitFor();
    await page.getByRole('textbox', { name: '用户名' }).fill(name);
    await page.getByRole('button', { name: '查询' }).click();
    await page.getByRole('cell', { name, exact: true }).waitFor();
    await page.getByRole('button', { name: `编辑 ${name}` }).click();
    const editDialog = await settledDialog(page);
    await editDialog.getByRole('checkbox', { name: '选品用户' }).check();
    await editDialog.getByRole('button', { name: '保存' }).click();
    await page.getByRole('row').filter({ hasText: name }).getByText('选品用户').waitFor();
    await page.getByRole('button', { name: `删除 ${name}` }).click();
    await page.getByRole('button', { name: '确定' }).click();
    await page.getByText('已删除 1 个用户').waitFor();
    await page.close();
  });

  it('the feature-update manager publishes an announcement that a seller sees after login, then retires it', async () => {
    const admin = await pageAs('admin');
    const item = `订单列表支持按仓库筛选 ${Date.now()}`;
    try {
      await admin.goto('/ops-console/feature-update-manager');
      await admin.getByRole('button', { name: '发布更新说明' }).click();
      const dialog = admin.getByRole('dialog');
      // The start date defaults to today and the title to the spec's "更新Tips：".
      expect(await dialog.getByLabel('中文标题').inputValue()).toBe('更新Tips：');
      await dialog.getByLabel('第 1 条（中文）').fill(item);
      await dialog.getByLabel('第 1 条（英文）').fill('Filter orders by warehouse');
      await dialog.getByRole('button', { name: '添加一条' }).click();
      await dialog.getByLabel('第 2 条（中文）').fill('退货列表新增导出');
      await dialog.getByLabel('第 2 条（英文）').fill('Export the return list');
      await dialog.getByRole('button', { name: '保存' }).click();
      await admin.getByText('更新说明已保存').waitFor();
      const row = admin.getByRole('row').filter({ hasText: item });
      await row.getByText(/^展示中/).waitFor();
      await screenshot(admin, 'shell-zh-feature-updates');

      // A seller whose follow validity is current gets the dialog on the next visit, in their language.
      const seller = await pageAs('seller', 'en');
      const announcement = seller.getByRole('dialog', { name: "What's new:" });
      await announcement.getByText('Filter orders by warehouse').waitFor();
      await screenshot(seller, 'shell-en-feature-update-dialog');
      // The footer's "Close" (the corner icon is named Close too) closes without acknowledging.
      await announcement.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();
      await announcement.waitFor({ state: 'hidden' });
      await seller.close();

      // Switched off, it is no longer served.
      await row.getByRole('button', { name: /^编辑/ }).click();
      const editDialog = await settledDialog(admin);
      await editDialog.getByRole('switch', { name: '启用' }).click();
      await editDialog.getByRole('button', { name: '保存' }).click();
      await row.getByText('已停用').waitFor();
      await row.getByRole('button', { name: /^删除/ }).click();
      await admin.getByRole('button', { name: '确定' }).click();
      await admin.getByText('已删除 1 条更新说明').waitFor();
      // The message comes with the server's answer; the table reloads after it.
      await expect.poll(() => admin.getByRole('row').filter({ hasText: item }).count()).toBe(0);
    } finally {
      // Other test files log in as the seller too: never leave an announcement that would open over their pages.
      const list = await api<{ data: { list: { id: number; items: { zh: string }[] }[] } }>(admin, '/featureUpdate/list?page=1&rows=100');
      const ids = list.data.list.filter((row) => row.items.some((entry) => entry.zh === item)).map((row) => row.id);
      if (ids.length > 0) await api(admin, '/featureUpdate/delete', { ids });
      await admin.close();
    }
  });
});
