import { strFromU8, unzipSync } from 'fflate';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '../../contract/envelope';
import type { LoginData } from '../../contract/session';
import {
  SIGNIN_MESSAGES,
  SIGNIN_PATHS as P,
  type EnrolLoginData,
  type OrgOtpMember,
  type OrgOtpSettings,
  type OtpEnrolment,
  type OtpStatus,
  type SecondStep,
  type SignInPage,
} from '../../contract/signin';
import { TEAM_PATHS, type LogPage, type Member, type OrgRole } from '../../contract/team';
import { authHeaders, captcha, DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('one-time passwords at sign-in on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let role: OrgRole;

  beforeAll(async () => {
    t = await startTestApp(target);
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    role = (await post<OrgRole>(TEAM_PATHS.addRole, { name: '客服', permissions: ['orders:view'] })).body.data;
    for (const username of ['packer1', 'packer2']) {
      const added = await post<Member>(TEAM_PATHS.addMember, { username, password: 'packer123', roleId: role.id });
      expect(added.status).toBe(200);
    }
  }, 300_000);
  afterAll(() => t?.close());

  type Answer<T> = { status: number; body: { code: number; data: T; msg: string }; cookie: string | undefined };
  const send = async <T>(method: 'GET' | 'POST', url: string, payload: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> => {
    const response = await t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: payload as object } : {}) });
    return { status: response.statusCode, body: response.json(), cookie: response.cookies.find((c) => c.name === REFRESH_COOKIE)?.value };
  };
  const post = <T>(url: string, payload: unknown, session: Pick<LoginData, 'token' | 'id'> | null = seller) =>
    send<T>('POST', url, payload, session ? authHeaders(session) : {});
  const get = <T>(url: string, session: Pick<LoginData, 'token' | 'id'> = seller) => send<T>('GET', url, undefined, authHeaders(session));
  const passwordStep = async (username: string, password = 'packer123') =>
    post<LoginData | SecondStep>('/api/login', { username, password, ...(await captcha(t.app)) }, null);
  const nowS = () => t.clock.now().getTime() / 1000;
  const codeFor = (enrolment: Pick<OtpEnrolment, 'secret' | 'digits' | 'period' | 'algorithm'>, atS = nowS()) =>
    generate({ secret: enrolment.secret, digits: enrolment.digits as 6, period: enrolment.period, algorithm: enrolment.algorithm.toLowerCase() as 'sha1', epoch: atS });

  let packerSecret: OtpEnrolment;
  let recoveryCodes: string[];

  it('a member marked required cannot sign in without setting one up, and is signed in by the first code', async () => {
    const members = (await get<OrgOtpSettings>(P.orgOtp)).body.data.members;
    const packer1 = members.find((member) => member.name === 'packer1')!;
    expect(packer1).toMatchObject({ required: false, enabled: false });
    expect((await post<OrgOtpMember>(P.markMember, { id: packer1.id, required: true })).body.data).toMatchObject({ required: true, enabled: false });

    const step = await passwordStep('packer1');
    expect(step.status).toBe(200);
    expect(step.cookie).toBeUndefined();
    expect(step.body.data).toMatchObject({ secondStep: 'enrol', otpType: null });
    expect('token' in step.body.data).toBe(false);
    const { ticket } = step.body.data as SecondStep;
    // The enrolment ticket does not pass as a code step, and a made-up ticket passes nowhere.
    expect((await post(P.loginOtp, { ticket, code: '123456' }, null)).body.msg).toBe(SIGNIN_MESSAGES.ticketExpired.zh);
    expect((await post(P.loginEnrol, { ticket: 'nope' }, null)).status).toBe(400);

    packerSecret = (await post<OtpEnrolment>(P.loginEnrol, { ticket }, null)).body.data;
    expect(packerSecret).toMatchObject({ type: 'totp', algorithm: 'SHA1', digits: 6, period: 30 });
    expect(packerSecret.uri).toContain(`secret=${packerSecret.secret}`);
    const wrong = await post(P.loginEnrolConfirm, { ticket, code: '000000' }, null);
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe(SIGNIN_MESSAGES.otpWrong.zh);

    const done = await post<EnrolLoginData>(P.loginEnrolConfirm, { ticket, code: await codeFor(packerSecret) }, null);
    expect(done.status).toBe(200);
    expect(done.cookie).toBeTruthy();
    recoveryCodes = done.body.data.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    const status = await get<OtpStatus>(P.otpStatus, done.body.data);
    expect(status.body.data).toMatchObject({ enabled: true, required: true, recoveryCodesLeft: 10 });
    // Required: the member cannot turn it off.
    expect((await post(P.otpDisable, { password: 'packer123' }, done.body.data)).body.msg).toBe(SIGNIN_MESSAGES.otpRequired.zh);
    // The ticket is spent.
    expect((await post(P.loginEnrolConfirm, { ticket, code: await codeFor(packerSecret) }, null)).status).toBe(400);
  });

  it('asks for the code after the password, refuses a used code, takes a fresh one and each recovery code once', async () => {
    t.clock.advance(30_000);
    const { ticket } = (await passwordStep('packer1')).body.data as SecondStep;
    const used = await codeFor(packerSecret);
    expect((await post<LoginData>(P.loginOtp, { ticket, code: used }, null)).status).toBe(200);

    const again = (await passwordStep('packer1')).body.data as SecondStep;
    expect(again).toMatchObject({ secondStep: 'otp', otpType: 'totp' });
    expect((await post(P.loginOtp, { ticket: again.ticket }, null)).status).toBe(400);
    const replay = await post(P.loginOtp, { ticket: again.ticket, code: used }, null);
    expect(replay.status).toBe(400);
    expect(replay.body.msg).toBe(SIGNIN_MESSAGES.otpWrong.zh);
    // An earlier step's code is refused too, once a later one was used.
    expect((await post(P.loginOtp, { ticket: again.ticket, code: await codeFor(packerSecret, nowS() - 30) }, null)).status).toBe(400);
    t.clock.advance(30_000);
    const fresh = await post<LoginData>(P.loginOtp, { ticket: again.ticket, code: await codeFor(packerSecret) }, null);
    expect(fresh.status).toBe(200);
    expect(fresh.cookie).toBeTruthy();
    expect((await get(P.otpStatus, fresh.body.data)).status).toBe(200);

    const third = (await passwordStep('packer1')).body.data as SecondStep;
    expect((await post(P.loginOtp, { ticket: third.ticket, code: recoveryCodes[0], recovery: true }, null)).status).toBe(200);
    const fourth = (await passwordStep('packer1')).body.data as SecondStep;
    const reused = await post(P.loginOtp, { ticket: fourth.ticket, code: recoveryCodes[0], recovery: true }, null);
    expect(reused.body.msg).toBe(SIGNIN_MESSAGES.recoveryWrong.zh);
    const left = await get<OtpStatus>(P.otpStatus, (await post<LoginData>(P.loginOtp, { ticket: fourth.ticket, code: recoveryCodes[1], recovery: true }, null)).body.data);
    expect(left.body.data.recoveryCodesLeft).toBe(8);
  });

  it('locks the second step for 10 minutes after 5 wrong codes', async () => {
    t.clock.advance(30_000);
    const { ticket } = (await passwordStep('packer1')).body.data as SecondStep;
    for (let i = 0; i < 5; i += 1) expect((await post(P.loginOtp, { ticket, code: '000000' }, null)).status).toBe(400);
    const locked = await post(P.loginOtp, { ticket, code: await codeFor(packerSecret) }, null);
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toBe(SIGNIN_MESSAGES.otpLocked.zh);
    t.clock.advance(10 * 60_000);
    const { ticket: next } = (await passwordStep('packer1')).body.data as SecondStep;
    expect((await post(P.loginOtp, { ticket: next, code: await codeFor(packerSecret) }, null)).status).toBe(200);
  });

  it('the owner resets a member (written to the operation log); the member, still required, sets it up again', async () => {
    const members = (await get<OrgOtpSettings>(P.orgOtp)).body.data.members;
    const packer1 = members.find((member) => member.name === 'packer1')!;
    expect(packer1.enabled).toBe(true);
    expect((await post(P.resetMember, { id: packer1.id })).body.data).toEqual({ count: 1 });
    const log = await get<LogPage>(`${TEAM_PATHS.log}?keyword=otp`);
    expect(log.body.data.list.some((entry) => entry.record.includes(`id=${packer1.id} otp=reset`) && entry.actorName === 'seller')).toBe(true);
    expect(((await passwordStep('packer1')).body.data as SecondStep).secondStep).toBe('enrol');
  });

  it('a role marked required holds its members to it, under the policy the owner chose', async () => {
    const saved = await post<OrgOtpSettings>(P.saveOrgOtp, { policy: { type: 'totp', algorithm: 'SHA256', digits: 8, period: 30, window: 1 }, requiredRoleIds: [role.id] });
    expect(saved.status).toBe(200);
    expect(saved.body.data.members.find((member) => member.name === 'packer2')).toMatchObject({ required: false, requiredByRole: true });
    const list = await get<{ list: { type: string; algorithm: string; digits: number; ttl: number }[]; total: number }>(P.dynamicPwdList);
    expect(list.body).toMatchObject({ code: 200, data: { total: 1, list: [{ type: 'timing', algorithm: 'SHA256', digits: 8, ttl: 600 }] } });

    const step = (await passwordStep('packer2')).body.data as SecondStep;
    expect(step.secondStep).toBe('enrol');
    const enrolment = (await post<OtpEnrolment>(P.loginEnrol, { ticket: step.ticket }, null)).body.data;
    expect(enrolment).toMatchObject({ algorithm: 'SHA256', digits: 8 });
    expect(new URL(enrolment.uri).searchParams.get('algorithm')).toBe('SHA256');
    expect((await post(P.loginEnrolConfirm, { ticket: step.ticket, code: await codeFor(enrolment) }, null)).status).toBe(200);
    // A bad role id is refused by name.
    expect((await post(P.saveOrgOtp, { policy: saved.body.data.policy, requiredRoleIds: [999999] })).status).toBe(400);
    expect((await post(P.saveOrgOtp, { policy: { ...saved.body.data.policy, digits: 9 }, requiredRoleIds: [] })).status).toBe(400);
    // A member without the staff permission cannot change who must use it.
    const packer2 = (await passwordStep('packer2')).body.data as SecondStep;
    t.clock.advance(30_000);
    const session = (await post<LoginData>(P.loginOtp, { ticket: packer2.ticket, code: await codeFor(enrolment) }, null)).body.data;
    expect((await post(P.resetMember, { id: session.id }, session)).status).toBe(401);
  });

  it('an owner may turn it on for themself and off again with the password; recovery codes can be renewed', async () => {
    const setup = (await post<OtpEnrolment>(P.otpSetup, {})).body.data;
    expect((await post(P.otpConfirm, { code: '00000000' })).body.msg).toBe(SIGNIN_MESSAGES.otpWrong.zh);
    const codes = (await post<{ recoveryCodes: string[] }>(P.otpConfirm, { code: await codeFor(setup) })).body.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    t.clock.advance(30_000);
    const renewed = (await post<{ recoveryCodes: string[] }>(P.otpRecovery, { code: await codeFor(setup) })).body.data.recoveryCodes;
    expect(renewed).not.toEqual(codes);
    const step = (await passwordStep('seller', 'seller123')).body.data as SecondStep;
    expect(step.secondStep).toBe('otp');
    expect((await post(P.loginOtp, { ticket: step.ticket, code: codes[0], recovery: true }, null)).status).toBe(400);
    expect((await post(P.otpDisable, { password: 'wrong' })).body.msg).toBe(SIGNIN_MESSAGES.wrongPassword.zh);
    expect((await post(P.otpDisable, { password: 'seller123' })).status).toBe(200);
    expect('token' in (await passwordStep('seller', 'seller123')).body.data).toBe(true);
  });

  it('logs every sign-in and sign-out with its method, address and browser; members see their own', async () => {
    const wrongPassword = await passwordStep('packer1', 'not-it-123');
    expect(wrongPassword.status).toBe(400);
    const page = await get<SignInPage>(`${P.signInLog}?rows=100`);
    expect(page.status).toBe(200);
    const entries = page.body.data.list;
    expect(entries.some((entry) => entry.username === 'packer1' && entry.method === 'password' && !entry.success)).toBe(true);
    expect(entries.some((entry) => entry.username === 'packer1' && entry.method === 'otp' && !entry.success && entry.reason.includes('wrong'))).toBe(true);
    expect(entries.some((entry) => entry.username === 'packer1' && entry.method === 'recovery' && entry.success)).toBe(true);
    expect(entries.some((entry) => entry.username === 'packer1' && entry.method === 'enrol' && entry.success)).toBe(true);
    expect(entries.every((entry) => entry.ip !== '')).toBe(true);
    const failures = await get<SignInPage>(`${P.signInLog}?success=false&keyword=packer2`);
    expect(failures.body.data.list.every((entry) => entry.username === 'packer2' && !entry.success)).toBe(true);
    // Exported with the same filters.
    const file = await t.app.inject({ method: 'GET', url: `${P.signInExport}?success=false&keyword=packer1`, headers: authHeaders(seller) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('signin-log.xlsx');
    const sheet = strFromU8(unzipSync(new Uint8Array(file.rawPayload))['xl/worksheets/sheet1.xml']!);
    const cells = [...sheet.matchAll(/<t xml:space="preserve">([^<]*)<\/t>/g)].map((match) => match[1]);
    expect(cells).toContain('packer1');
    expect(cells).not.toContain('packer2');
    expect(cells.filter((cell) => cell === 'yes')).toEqual([]);

    const browser = 'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0';
    const response = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'user-agent': browser }, payload: { username: 'seller', password: 'seller123', ...(await captcha(t.app)) } });
    const session = response.json<{ data: LoginData }>().data;
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: { ...authHeaders(session), 'user-agent': browser } });
    const own = (await get<SignInPage>(P.ownSignIns)).body.data.list;
    expect(own.slice(0, 2).map((entry) => [entry.event, entry.method, entry.browser])).toEqual([
      ['logout', 'session', browser],
      ['login', 'password', browser],
    ]);
    expect(own.every((entry) => entry.username === 'seller')).toBe(true);
  });
});
