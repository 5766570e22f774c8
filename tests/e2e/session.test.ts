import { areaStatus, HOME_AREAS } from '@/features/home/areas';
import { home } from '@/features/home/locales';
import { logIn, registerByApi, screenshot, uniqueName, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl, code } = e2e;

describe('session in the browser', () => {
  it('a deep link without a session goes to login and, after logging in, to the wanted page', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await page.goto('/profile/modify-psw?from=mail');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/profile/modify-psw?from=mail');
    await expect.poll(() => page.title()).toBe('登录 - 跨境卖家后台');

    await logIn(page, 'seller', 'seller123', code);
    await page.waitForURL((url) => url.pathname === '/profile/modify-psw');
    expect(new URL(page.url()).search).toBe('?from=mail');
    await page.getByText('原密码').waitFor();
    await expect.poll(() => page.title()).toBe('修改密码 - 跨境卖家后台');

    // The session survives a reload (cookies and local storage), and logging out ends it.
    await page.reload();
    await page.getByText('原密码').waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile/modify-psw');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.goto('/home/introduction');
    await page.waitForURL((url) => url.pathname === '/login');
    await context.close();
  });

  it('registers with a captcha, then logs in and sees the home page', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const name = uniqueName('reg');
    await page.goto('/register');
    await page.getByLabel('用户名').fill(name);
    await page.getByLabel('密码', { exact: true }).fill('Secret123');
    await page.getByLabel('确认密码').fill('Secret123');
    await page.getByPlaceholder('验证码').fill(code);
    await page.getByRole('button', { name: '注册', exact: true }).click();

    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: '系统登录' }).waitFor();
    expect(await page.getByLabel('用户名').inputValue()).toBe(name);
    await page.getByLabel('密码').fill('Secret123');
    await page.getByPlaceholder('验证码').fill(code);
    await page.getByRole('button', { name: '登录', exact: true }).click();

    await page.waitForURL((url) => url.pathname === '/home/introduction');
    await page.getByTestId('intro-user-name').getByText(name).waitFor();
    await page.getByRole('heading', { name: '系统介绍' }).waitFor();
    await context.close();
  });

  it('a wrong captcha is refused and a new captcha image is shown', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await page.goto('/login');
    const image = page.getByRole('img', { name: '验证码图片，点击刷新' });
    await image.waitFor();
    const before = await image.getAttribute('src');
    await logIn(page, 'seller', 'seller123', '0000');
    await page.getByText('验证码不正确或已失效，请重新输入').waitFor();
    await expect.poll(() => image.getAttribute('src')).not.toBe(before);
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('a password change in one browser logs the other one out with 该用户密码已被修改，请重新登录！', async () => {
    const name = uniqueName('psw');
    await registerByApi(baseUrl, name, 'Before123', code);
    const first = await e2e.context();
    const second = await e2e.context();
    const third = await e2e.context();
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    const pageC = await third.newPage();
    for (const page of [pageA, pageB, pageC]) await e2e.signIn(page, { username: name, password: 'Before123' });
    // The third browser is not on the app while the password changes: it hears nothing until it comes back.
    await pageC.close();

    await pageA.goto('/profile/modify-psw');
    await pageA.getByLabel('原密码').fill('Before123');
    await pageA.getByLabel('新密码', { exact: true }).fill('After1234');
    await pageA.getByLabel('确认新密码').fill('After1234');
    await pageA.getByRole('button', { name: '保存修改' }).click();
    await pageA.getByText('密码修改成功').waitFor();

    // The other page checks as soon as it is looked at again.
    await pageB.evaluate(() => window.dispatchEvent(new Event('focus')));
    await pageB.getByText('该用户密码已被修改，请重新登录！').waitFor();
    await pageB.waitForURL((url) => url.pathname === '/login');

    // The third browser comes back: it shows the app at once with the user info its last load kept, and the server's
    // answer to the session check behind it takes it to the login page with the message and the way back.
    const pageC2 = await third.newPage();
    await pageC2.goto('/store/store-list');
    await pageC2.getByText(/登录状态已过期|该用户密码已被修改|请重新登录/).first().waitFor();
    await pageC2.waitForURL((url) => url.pathname === '/login');
    expect(new URL(pageC2.url()).searchParams.get('redirect')).toBe('/store/store-list');
    await third.close();

    // The page that changed the password stays logged in, also after its own check.
    await pageA.evaluate(() => window.dispatchEvent(new Event('focus')));
    await pageA.goto('/home/introduction');
    await pageA.getByTestId('intro-user-name').getByText(name).waitFor();
    expect(new URL(pageA.url()).pathname).toBe('/home/introduction');
    await first.close();
    await second.close();
  });

  it('unknown paths show 404', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await e2e.signIn(page, 'newbie');
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/404');
    await page.getByText('抱歉，您访问的页面不存在或您没有权限访问。').waitFor();
    await context.close();
  });
});

describe('screenshots', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`login, register and home in ${lang}`, async () => {
      const context = await e2e.context(lang);
      const page = await context.newPage();
      await page.goto('/register');
      await page.locator('.auth-captcha__image img').waitFor();
      await screenshot(page, `register-${lang}`);
      await page.goto('/login');
      await page.locator('.auth-captcha__image img').waitFor();
      await screenshot(page, `login-${lang}`);
      await page.locator('#username').fill('seller');
      await page.locator('#password').fill('seller123');
      await page.locator('#code').fill(code);
      await page.locator('button[type=submit]').click();
      await page.waitForURL((url) => url.pathname === '/home/introduction');
      await page.getByTestId('intro-user-name').waitFor();
      // Each area says how far it is built, as the route table has it: a placeholder area never reads as usable.
      for (const area of HOME_AREAS) {
        const expected = home[lang].status[areaStatus(area).status];
        expect([area.key, await page.getByTestId(`intro-area-status-${area.key}`).textContent()]).toEqual([area.key, expected]);
      }
      await screenshot(page, `home-${lang}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `home-${lang}-mobile`);
      await context.close();
    });
  }
});
