import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USER_PATHS } from '../../contract/admin';
import { MESSAGES, message } from '../../contract/errors';
import {
  NO_POLICY,
  PASSWORD_POLICY_MESSAGES,
  PASSWORD_POLICY_PATHS as P,
  ruleText,
  type PasswordPolicy,
  type PasswordPolicyPage,
  type PasswordRuleOrHistory,
  type PasswordRules,
  type PasswordRulesAnswer,
} from '../../contract/passwordPolicy';
import type { LoginData, UserInfo } from '../../contract/session';
import { TEAM_PATHS, type Member } from '../../contract/team';
import { authHeaders, captcha, DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

const DAY = 86_400_000;

describe.each(DATABASE_TARGETS)('password policies, enforced on $kind', (target) => {
  let t: TestApp;
  let admin: Session;
  let seller: Session;

  beforeAll(async () => {
    t = await startTestApp(target);
    await t.app.ready();
    admin = await login(t.app, 'admin', 'admin123');
    seller = await login(t.app, 'seller', 'seller123');
  }, 300_000);
  afterAll(() => t?.close());

  type Answer<T> = { status: number; body: { code: number; data: T; msg: string } };
  const send = async <T>(method: 'GET' | 'POST', url: string, payload: unknown, session: Pick<LoginData, 'token' | 'id'> | null): Promise<Answer<T>> => {
    const response = await t.app.inject({ method, url, headers: session ? authHeaders(session) : {}, ...(method === 'POST' ? { payload: payload as object } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  const post = <T>(url: string, payload: unknown, session: Pick<LoginData, 'token' | 'id'> | null = seller) => send<T>('POST', url, payload, session);
  const get = <T>(url: string, session: Pick<LoginData, 'token' | 'id'> = seller) => send<T>('GET', url, undefined, session);
  const rules = (changes: Partial<PasswordRules>): PasswordRules => ({ ...NO_POLICY, ...changes });
  /** The refusal a breaking password gets: 400 on its field, naming the rule. */
  const refusal = (field: string, rule: PasswordRuleOrHistory, applied: PasswordRules) => ({
    code: 400,
    msg: message('passwordRefused', 'zh', { rule: ruleText(rule, applied, 'zh') }),
    data: { field },
  });
  const signIn = async (username: string, password: string) => post<LoginData>('/api/login', { username, password, ...(await captcha(t.app)) }, null);

  const appRules = rules({ minLength: 10, upper: true, notUsername: true, notCommon: true });
  const orgRules = rules({ minLength: 12, special: true, history: 3, validDays: 30, warnDays: 5 });
  let appPolicy: PasswordPolicy;

  it('the console refuses a bad policy field by field, and only the administrator sets the whole app’s', async () => {
    const bad = await post(P.save, { name: '弱', rules: rules({ minLength: 4 }), status: 1 });
    expect(bad.body).toEqual({ code: 400, msg: `rules.minLength: ${MESSAGES.policyMinLength.zh}`, data: { field: 'rules.minLength' } });
    const warn = await post(P.save, { name: '弱', rules: rules({ validDays: 10, warnDays: 10 }), status: 1 });
    expect(warn.body).toMatchObject({ code: 400, data: { field: 'rules.warnDays' } });
    const noName = await post(P.save, { name: ' ', rules: NO_POLICY, status: 1 });
    expect(noName.body).toMatchObject({ code: 400, data: { field: 'name' } });
    const appBySeller = await post(P.save, { name: '全站', scope: 'app', rules: appRules, status: 1 });
    expect(appBySeller.status).toBe(401);
    expect(appBySeller.body.msg).toBe(PASSWORD_POLICY_MESSAGES.appScopeAdmin.zh);

    appPolicy = (await post<PasswordPolicy>(P.save, { name: '全站默认', scope: 'app', rules: appRules, status: 1 }, admin)).body.data;
    expect(appPolicy).toMatchObject({ scope: 'app', creator: 'admin', status: 1, pswValidPeriod: 0, pswNotContain: ['notUsername', 'notCommon'] });
    const own = await post<PasswordPolicy>(P.save, { name: '公司策略', rules: orgRules, status: 1 });
    expect(own.body.data).toMatchObject({ scope: 'org', creator: 'seller', pswValidPeriod: 30, editable: true });

    const page = (await get<PasswordPolicyPage>(`${P.list}?page=1`)).body.data;
    expect(page.total).toBe(2);
    expect(page.list.map((row) => [row.name, row.scope, row.editable])).toEqual([
      ['全站默认', 'app', false],
      ['公司策略', 'org', true],
    ]);
    // The whole app's is the administrator's to change.
    expect((await post(P.delete, { ids: [appPolicy.id] })).body.msg).toBe(PASSWORD_POLICY_MESSAGES.policyNotFound.zh);
  });

  it('registration is held to the whole app’s policy and refused with the rule it breaks', async () => {
    const register = async (username: string, password: string) => post('/api/user/register', { username, password, ...(await captcha(t.app)) }, null);
    expect((await get<PasswordRulesAnswer>(P.rulesForRegister)).body.data.rules).toEqual(appRules);
    expect((await register('newcomer', 'abcd1234')).body).toEqual(refusal('password', 'length', appRules));
    expect((await register('newcomer', 'abcdefgh1234')).body).toEqual(refusal('password', 'upper', appRules));
    expect((await register('newcomer', 'Newcomer2025')).body).toEqual(refusal('password', 'notUsername', appRules));
    expect((await register('newcomer', 'Iloveyou123')).body).toEqual(refusal('password', 'notCommon', appRules));
    expect((await register('newcomer', 'Harbour7Lantern')).status).toBe(200);
    // Switched off, it holds no one.
    await post(P.save, { id: appPolicy.id, name: appPolicy.name, scope: 'app', rules: appRules, status: 0 }, admin);
    expect((await register('second_one', 'abcd1234')).status).toBe(200);
  });

  it('a member’s creation and an owner’s reset are held to the organisation’s policy', async () => {
    const weak = await post(TEAM_PATHS.addMember, { username: 'packer9', password: 'packer12345' });
    expect(weak.body).toEqual(refusal('password', 'length', orgRules));
    expect((await post(TEAM_PATHS.addMember, { username: 'packer9', password: 'packer123456' })).body).toEqual(refusal('password', 'special', orgRules));
    const member = (await post<Member>(TEAM_PATHS.addMember, { username: 'packer9', password: 'Packing-2025-ok' })).body.data;
    expect(member.name).toBe('packer9');
    const reset = await post(TEAM_PATHS.updateMember, { id: member.id, password: 'short-pass1' });
    expect(reset.body).toEqual(refusal('password', 'length', orgRules));
    // The member's current password is the first of its history.
    expect((await post(TEAM_PATHS.updateMember, { id: member.id, password: 'Packing-2025-ok' })).body).toEqual(refusal('password', 'history', orgRules));
    expect((await post(TEAM_PATHS.updateMember, { id: member.id, password: 'Packing-2026-ok' })).status).toBe(200);
  });

  it('an administrator’s reset is held to the user’s organisation’s policy and history', async () => {
    const packer = (await get<{ list: Member[] }>(`${TEAM_PATHS.members}?keyword=packer9`)).body.data.list[0]!;
    expect((await post(ADMIN_USER_PATHS.resetPassword, { id: packer.id, newPassword: 'abc12345678' }, admin)).body).toEqual(refusal('newPassword', 'length', orgRules));
    expect((await post(ADMIN_USER_PATHS.resetPassword, { id: packer.id, newPassword: 'Packing-2025-ok' }, admin)).body).toEqual(refusal('newPassword', 'history', orgRules));
    expect((await post(ADMIN_USER_PATHS.resetPassword, { id: packer.id, newPassword: 'Packing-2027-ok' }, admin)).status).toBe(200);
  });

  it('a password the policy no longer accepts must be changed at the next sign-in, and nothing else goes through until then', async () => {
    // seller123 was set before the organisation's policy: short, no special character.
    const signedIn = await signIn('seller', 'seller123');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.passwordChange).toBe('policy');
    const session = signedIn.body.data;
    const refused = await get('/api/limitInfo', session);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe(MESSAGES.passwordChangeRequired.zh);
    expect((await get<UserInfo>('/api/getInfo', session)).body.data).toMatchObject({ passwordChange: 'policy', passwordNotice: MESSAGES.passwordNotAccepted.zh });
    expect((await get<PasswordRulesAnswer>(P.ownRules, session)).body.data).toEqual({ rules: orgRules, subject: { username: 'seller', email: 'seller@demo.local', phone: '13800138000' } });

    expect((await post('/api/user/changePsw', { oldPassword: 'seller123', newPassword: 'seller123456' }, session)).body).toEqual(refusal('newPassword', 'special', orgRules));
    expect((await post('/api/user/changePsw', { oldPassword: 'seller123', newPassword: 'Seller#2025-a' }, session)).status).toBe(200);
    expect((await get('/api/limitInfo', session)).status).toBe(200);
    expect((await get<UserInfo>('/api/getInfo', session)).body.data).toMatchObject({ passwordChange: null, passwordNotice: null });
    seller = await login(t.app, 'seller', 'Seller#2025-a');
    expect(seller.passwordChange).toBeNull();
  });

  it('a change may not repeat one of the last passwords', async () => {
    expect((await post('/api/user/changePsw', { oldPassword: 'Seller#2025-a', newPassword: 'Seller#2025-b' })).status).toBe(200);
    seller = await login(t.app, 'seller', 'Seller#2025-b');
    const back = await post('/api/user/changePsw', { oldPassword: 'Seller#2025-b', newPassword: 'Seller#2025-a' });
    expect(back.body).toEqual(refusal('newPassword', 'history', orgRules));
  });

  it('a password near its end is warned of, and an expired one forces a change at sign-in', async () => {
    t.clock.advance(26 * DAY);
    seller = await login(t.app, 'seller', 'Seller#2025-b');
    expect(seller.passwordChange).toBeNull();
    expect((await get<UserInfo>('/api/getInfo')).body.data.passwordNotice).toBe(message('passwordExpiresSoon', 'zh', { n: '4' }));

    t.clock.advance(5 * DAY);
    const expired = await signIn('seller', 'Seller#2025-b');
    expect(expired.body.data.passwordChange).toBe('expired');
    const session = expired.body.data;
    expect((await get('/api/limitInfo', session)).status).toBe(403);
    expect((await post('/api/ws/ticket', {}, session)).status).toBe(403);
    expect((await get<UserInfo>('/api/getInfo', session)).body.data).toMatchObject({ passwordChange: 'expired', passwordNotice: MESSAGES.passwordExpired.zh });
    expect((await post('/api/user/changePsw', { oldPassword: 'Seller#2025-b', newPassword: 'Seller#2025-c' }, session)).status).toBe(200);
    expect((await get('/api/limitInfo', session)).status).toBe(200);
    seller = await login(t.app, 'seller', 'Seller#2025-c');
    expect(seller.passwordChange).toBeNull();
  });
});
