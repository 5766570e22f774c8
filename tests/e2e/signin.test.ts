import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { NO_POLICY, PASSWORD_POLICY_ENDPOINTS } from '../../contract/passwordPolicy';
import { SIGNIN_ENDPOINTS } from '../../contract/signin';
import { TEAM_ENDPOINTS } from '../../contract/team';
import { api, logIn, registerByApi, screenshot, uniqueName, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl, code } = e2e;

/** The code an authenticator app shows, computed here with otplib (the server checks with otpauth). */
const totp = (secret: string, offsetS = 0) => generate({ secret, epoch: Date.now() / 1000 + offsetS });
const path = (page: Page) => new URL(page.url()).pathname;

describe('one-time passwords at sign-in', () => {
  it('a required member sets one up from the QR page, then signs in only with a fresh code or a recovery code', async () => {
    // An owner of their own, with one member marked required.
    const owner = uniqueName('otpowner');
    const member = uniqueName('otpstaff');
    await registerByApi(baseUrl, owner, 'Owner123', code);
    const ownerPage = await e2e.openAs({ username: owner, password: 'Owner123' }, '/home/introduction', { via: 'login' });
    const added = await api<{ code: number; data: { id: number } }>(ownerPage, TEAM_ENDPOINTS.addMember.path, { username: member, password: 'Staff123' });
    expect(added.code).toBe(200);
    expect((await api<{ code: number }>(ownerPage, SIGNIN_ENDPOINTS.markMember.path, { id: added.data.id, required: true })).code).toBe(200);
    // The owner's console shows the member as required, not yet set up.
    await ownerPage.goto('/team/security');
    await ownerPage.getByRole('switch', { name: `强制使用 ${member}` }).and(ownerPage.locator('[aria-checked="true"]')).waitFor();
    await ownerPage.getByText('未绑定').waitFor();
    await screenshot(ownerPage, 'signin-console-zh');
    await ownerPage.context().close();

    const context = await e2e.context();
    const page = await context.newPage();
    await page.goto('/login');
    await logIn(page, member, 'Staff123', code);
    const enrol = page.getByTestId('otp-enrol');
    await enrol.getByText('所在组织要求使用动态口令登录').waitFor();
    // Required: going back and signing in again lands on the set-up again, never in the app.
    await page.getByRole('button', { name: '返回重新登录' }).click();
    await logIn(page, member, 'Staff123', code);
    await page.getByTestId('otp-qr').waitFor();
    expect(path(page)).toBe('/login');
    await screenshot(page, 'signin-otp-enrol-zh');

    const secret = (await page.getByTestId('otp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const first = await totp(secret);
    await page.getByLabel('动态口令', { exact: true }).fill(first);
    await page.getByRole('button', { name: '完成绑定并登录' }).click();
    const codesBox = page.getByTestId('otp-recovery-codes');
    await codesBox.waitFor();
    const recoveryCodes = (await codesBox.locator('li').allInnerTexts()).map((text) => text.trim());
    expect(recoveryCodes).toHaveLength(10);
    await screenshot(page, 'signin-otp-recovery-zh');
    await page.getByRole('button', { name: '我已保存，进入系统' }).click();
    await page.waitForURL((url) => url.pathname === '/home/introduction');

    const logOut = async () => {
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: '退出登录' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
    };
    await logOut();
    await logIn(page, member, 'Staff123', code);
    const step = page.getByTestId('otp-code');
    await step.waitFor();
    // Without a code: refused, no session.
    await page.getByRole('button', { name: '验证并登录' }).click();
    await step.getByText('请输入动态口令').waitFor();
    expect(path(page)).toBe('/login');
    // The code already used for the set-up: refused by the server.
    await page.getByLabel('动态口令', { exact: true }).fill(first);
    await page.getByRole('button', { name: '验证并登录' }).click();
    await page.getByText('动态口令错误或已使用').first().waitFor();
    expect(path(page)).toBe('/login');
    // A fresh code: the next time step, within the look-ahead window.
    await page.getByLabel('动态口令', { exact: true }).fill(await totp(secret, 30));
    await page.getByRole('button', { name: '验证并登录' }).click();
    await page.waitForURL((url) => url.pathname === '/home/introduction');
    await context.close();

    // A recovery code, in English.
    const en = await e2e.context('en');
    const enPage = await en.newPage();
    await enPage.goto('/login');
    await logIn(enPage, member, 'Staff123', code, 'en');
    await enPage.getByRole('button', { name: 'No phone at hand? Use a recovery code' }).click();
    await enPage.getByLabel('Recovery code', { exact: true }).waitFor();
    await screenshot(enPage, 'signin-otp-recovery-step-en');
    await enPage.getByLabel('Recovery code', { exact: true }).fill(recoveryCodes[0]!);
    await enPage.getByRole('button', { name: 'Verify and sign in' }).click();
    await enPage.waitForURL((url) => url.pathname === '/home/introduction');
    await en.close();
  });

  it('a password the new policy no longer accepts is changed at the next login, before the app', async () => {
    const owner = uniqueName('pswowner');
    const member = uniqueName('pswstaff');
    await registerByApi(baseUrl, owner, 'Owner123', code);
    const ownerPage = await e2e.openAs({ username: owner, password: 'Owner123' }, '/home/introduction', { via: 'login' });
    expect((await api<{ code: number }>(ownerPage, TEAM_ENDPOINTS.addMember.path, { username: member, password: 'Staff123' })).code).toBe(200);
    // The policy comes after the member's password: it needs 10 characters and a special one.
    const rules = { ...NO_POLICY, minLength: 10, special: true };
    expect((await api<{ code: number }>(ownerPage, PASSWORD_POLICY_ENDPOINTS.save.path, { name: '门店密码', rules, status: 1 })).code).toBe(200);
    await ownerPage.goto('/team/security');
    await ownerPage.getByRole('tab', { name: '密码策略' }).click();
    await ownerPage.getByText('门店密码').waitFor();
    await screenshot(ownerPage, 'signin-password-policy-zh');
    await ownerPage.context().close();

    const context = await e2e.context();
    const page = await context.newPage();
    await page.goto('/login');
    await logIn(page, member, 'Staff123', code);
    const panel = page.getByTestId('password-change');
    await panel.getByText('你的密码不再符合组织的密码策略，修改后才能继续使用。').waitFor();
    expect(path(page)).toBe('/login');
    await panel.getByLabel('当前密码').fill('Staff123');
    await panel.getByLabel('新密码', { exact: true }).fill('Staff12345');
    // Checked as typed: long enough now, no special character yet.
    await expect.poll(() => panel.getByTestId('password-rule-length').getAttribute('data-met')).toBe('true');
    expect(await panel.getByTestId('password-rule-special').getAttribute('data-met')).toBe('false');
    await screenshot(page, 'signin-password-change-zh');
    await panel.getByLabel('新密码', { exact: true }).fill('Staff#2025x');
    await panel.getByLabel('确认新密码').fill('Staff#2025x');
    await panel.getByRole('button', { name: '修改并进入系统' }).click();
    await page.waitForURL((url) => url.pathname === '/home/introduction');
    await context.close();
  });
});
