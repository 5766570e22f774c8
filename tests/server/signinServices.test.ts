import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginData } from '../../contract/session';
import { SERVICE_PATHS as S, SERVICE_MESSAGES, type CaptchaAnswer, type MailSettingsAnswer, type Sent, type SmsSettingsAnswer } from '../../contract/signinServices';
import { SIM_SMS_ACCESS_KEY_ID, SIM_SMS_ACCESS_KEY_SECRET } from '../../server/integrations/sms/simulator';
import { RESET_MESSAGES, RESET_PATHS as R, type ForgotSent } from '../../contract/passwordReset';
import { NO_POLICY, PASSWORD_POLICY_PATHS as PP } from '../../contract/passwordPolicy';
import { SIGNIN_PATHS, type SignInPage } from '../../contract/signin';
import { TEAM_PATHS } from '../../contract/team';
import { authHeaders, captcha, DATABASE_TARGETS, login, startTestApp, TEST_CAPTCHA, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('mail, SMS and captcha settings on $kind', (target) => {
  let t: TestApp;
  let seller: Session;

  beforeAll(async () => {
    // 127.0.0.1:1 (nothing listens there) is an internal address only the operator's allow list lets the settings name.
    t = await startTestApp(target, { env: { SMTP_ALLOWED_HOSTS: '127.0.0.1:1' } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
  }, 300_000);
  afterAll(() => t?.close());

  type Answer<T> = { status: number; body: { code: number; data: T; msg: string } };
  const send = async <T>(method: 'GET' | 'POST', url: string, payload?: unknown, session: Pick<LoginData, 'token' | 'id'> | null = seller, remoteAddress?: string): Promise<Answer<T>> => {
    const response = await t.app.inject({ method, url, headers: session ? authHeaders(session) : {}, ...(payload === undefined ? {} : { payload: payload as object }), ...(remoteAddress ? { remoteAddress } : {}) });
    return { status: response.statusCode, body: response.json() };
  };
  const mailSim = () => t.app.messaging.mail.simulator!;
  const smsSim = () => t.app.messaging.sms.simulator!;

  it("sends the test message through the organisation's own SMTP server, its password stored encrypted", async () => {
    const sim = mailSim();
    const saved = await send<MailSettingsAnswer>('POST', S.saveMail, {
      smtpHost: sim.host,
      smtpPort: sim.port,
      smtpSecurity: 'none',
      popHost: 'pop.example.cn',
      popPort: 995,
      imapHost: 'imap.example.cn',
      imapPort: 993,
      username: 'shop-mailer',
      password: 'Mailbox-Pass-77',
      fromAddress: 'shop@example.cn',
      status: 1,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.settings).toMatchObject({ smtpHost: sim.host, passwordSet: true, status: 1 });
    expect(JSON.stringify(saved.body)).not.toContain('Mailbox-Pass-77');
    const [row] = await t.database.query<{ password_enc: string }>('select password_enc from mail_settings');
    expect(row!.password_enc).not.toContain('Mailbox-Pass-77');

    const sent = await send<Sent>('POST', S.testMail, { to: 'owner@example.cn' });
    expect(sent.body).toMatchObject({ code: 200, data: { to: 'owner@example.cn', via: `${sim.host}:${sim.port}` } });
    const mail = await sim.waitFor((m) => m.to.includes('owner@example.cn'));
    expect(mail).toMatchObject({ from: 'shop@example.cn', subject: '测试邮件 / Test message', user: 'shop-mailer' });
    expect(mail.text).toContain('the settings send mail');

    const list = await send<{ list: { smtp: string; status: number }[]; total: number }>('GET', S.emailList);
    expect(list.body).toMatchObject({ code: 200, data: { total: 1, list: [{ smtp: sim.host, pop: 'pop.example.cn', imapPort: 993, status: 1 }] } });
    expect((await send<{ list: unknown[] }>('GET', `${S.emailList}?page=2`)).body.data.list).toEqual([]);
  });

  it('says why a test message could not be sent when the server cannot be reached', async () => {
    const saved = await send<MailSettingsAnswer>('POST', S.saveMail, {
      smtpHost: '127.0.0.1', smtpPort: 1, smtpSecurity: 'none', popHost: '', popPort: 995, imapHost: '', imapPort: 993, username: 'shop-mailer', fromAddress: 'shop@example.cn', status: 1,
    });
    expect(saved.body.data.settings).toMatchObject({ smtpPort: 1, passwordSet: true });
    const sent = await send<Sent>('POST', S.testMail, { to: 'owner@example.cn' });
    expect(sent.status).toBe(502);
    expect(sent.body.msg).toMatch(/^邮件发送失败：.*ECONNREFUSED/);
  });

  it('refuses an SMTP host on the internal network, at save and again at send, unless the operator allowed it', async () => {
    const body = { smtpPort: 25, smtpSecurity: 'none', popHost: '', popPort: 995, imapHost: '', imapPort: 993, username: '', fromAddress: 'shop@example.cn', status: 1 };
    for (const smtpHost of ['127.0.0.1', 'localhost', '10.0.0.5', '169.254.169.254', '[::1]', '192.168.1.20']) {
      const refused = await send<MailSettingsAnswer>('POST', S.saveMail, { ...body, smtpHost });
      expect(refused.body, smtpHost).toMatchObject({ code: 400, msg: SERVICE_MESSAGES.smtpHostPrivate.zh, data: { field: 'smtpHost' } });
    }
    // The allowed one (port included) and a public address are taken.
    expect((await send('POST', S.saveMail, { ...body, smtpHost: '127.0.0.1', smtpPort: 1 })).status).toBe(200);
    expect((await send('POST', S.saveMail, { ...body, smtpHost: '203.0.113.25' })).status).toBe(200);
    // Stored before the rule, or a name that now points inside: the send checks again and connects to nothing.
    await t.database.query(`update mail_settings set smtp_host = '127.0.0.1', smtp_port = 6379`);
    const received = mailSim().messages.length;
    const sent = await send<Sent>('POST', S.testMail, { to: 'owner@example.cn' });
    expect(sent.body).toMatchObject({ code: 400, msg: SERVICE_MESSAGES.smtpHostPrivate.zh });
    expect(mailSim().messages.length).toBe(received);
  });

  it("mails a new member their invitation through the organisation's mail service, without the password", async () => {
    const sim = mailSim();
    await send('POST', S.saveMail, { smtpHost: sim.host, smtpPort: sim.port, smtpSecurity: 'none', popHost: '', popPort: 995, imapHost: '', imapPort: 993, username: '', fromAddress: 'team@example.cn', status: 1 });
    const added = await send<{ id: number }>('POST', TEAM_PATHS.addMember, { username: 'invited_packer', password: 'Invite-Lamp-2026x', email: 'packer@example.cn' });
    expect(added.status).toBe(200);
    const mail = await sim.waitFor((m) => m.to.includes('packer@example.cn'));
    expect(mail).toMatchObject({ from: 'team@example.cn', subject: 'seller 邀请你加入跨境卖家后台 / seller invites you to the Seller Back Office' });
    expect(mail.text).toContain('invited_packer');
    expect(mail.text).toMatch(/https?:\/\/[^\s]+\/login/);
    expect(mail.text).not.toContain('Invite-Lamp-2026x');
    // No address, no mail; a malformed one is refused with the field.
    expect((await send('POST', TEAM_PATHS.addMember, { username: 'invited_bad', password: 'Invite-Lamp-2026x', email: 'not-an-address' })).body).toMatchObject({ code: 400, data: { field: 'email' } });
  });

  it('mails the owner once when a shop key is about to expire, and again for a new key', async () => {
    const sim = mailSim();
    await t.database.query(`update users set email = 'keys@example.cn' where username = 'seller'`);
    const [shop] = await t.database.query<{ id: number; name: string }>(
      `insert into mp_shops (user_id, name, client_id, api_key_enc) select id, '义乌小店', 'key-expiry-1', 'x' from users where username = 'seller' returning id, name`,
    );
    const expireIn = (days: number) => t.database.query(`update mp_shops set key_expires_at = $2 where id = $1`, [shop!.id, new Date(t.clock.now().getTime() + days * 86_400_000).toISOString()]);
    const keyMails = () => sim.messages.filter((m) => m.to.includes('keys@example.cn') && m.subject.includes(shop!.name));
    await expireIn(30);
    await t.app.warnShopKeys();
    expect(keyMails()).toHaveLength(0);
    await expireIn(5);
    await t.app.warnShopKeys();
    const mail = await sim.waitFor((m) => m.to.includes('keys@example.cn') && m.subject.includes(shop!.name));
    expect(mail.subject).toContain('API 密钥即将过期');
    expect(mail.text).toContain('剩余 5 天');
    await t.app.warnShopKeys();
    expect(keyMails()).toHaveLength(1);
    await expireIn(9);
    await t.app.warnShopKeys();
    expect(keyMails()).toHaveLength(2);
    await t.database.query(`delete from mp_shops where id = $1`, [shop!.id]);
  });

  it("sends a code by Aliyun SMS with the organisation's AccessKey; a wrong secret is refused by the signature check", async () => {
    const base = { provider: 'aliyun', appKey: SIM_SMS_ACCESS_KEY_ID, signName: '深圳小店', template: 'SMS_465300123', status: 1 };
    const wrong = await send<SmsSettingsAnswer>('POST', S.saveSms, { ...base, appSecret: 'not-the-secret' });
    expect(wrong.body.data.settings).toMatchObject({ appKey: SIM_SMS_ACCESS_KEY_ID, secretSet: true });
    const refused = await send<Sent>('POST', S.testSms, { phone: '13800138000' });
    expect(refused.status).toBe(502);
    expect(refused.body.msg).toContain('SignatureDoesNotMatch');

    await send<SmsSettingsAnswer>('POST', S.saveSms, { ...base, appSecret: SIM_SMS_ACCESS_KEY_SECRET });
    const sent = await send<Sent>('POST', S.testSms, { phone: '13800138000' });
    expect(sent.body).toMatchObject({ code: 200, data: { to: '13800138000', via: 'aliyun' } });
    expect(smsSim().received.at(-1)).toMatchObject({ phone: '13800138000', signName: '深圳小店', template: 'SMS_465300123', params: { code: '123456' } });

    const list = await send<{ list: unknown[]; total: number }>('GET', S.smsList);
    expect(list.body).toMatchObject({ code: 200, data: { total: 1, list: [{ app_key: SIM_SMS_ACCESS_KEY_ID, template: 'SMS_465300123', status: 1 }] } });
  });

  it("a captcha complexity change changes the next captcha served: its length, noise and distortion", async () => {
    const admin = await login(t.app, 'admin', 'admin123');
    const served = async () => {
      const answer = await t.app.inject({ method: 'GET', url: '/api/captchaImage' });
      const { uuid, img } = answer.json<{ data: { uuid: string; img: string } }>().data;
      const svg = Buffer.from(img.split(',')[1]!, 'base64').toString('utf8');
      return { uuid, paths: svg.match(/<path/g)?.length ?? 0, scale: Number(/feDisplacementMap[^>]*scale="([\d.]+)"/.exec(svg)?.[1]), width: Number(/width="(\d+)"/.exec(svg)?.[1]) };
    };
    const tryLogin = async (uuid: string, code: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'seller', password: 'seller123', uuid, code } })).json<{ code: number }>().code;

    const before = await served();
    expect(await tryLogin(before.uuid, TEST_CAPTCHA)).toBe(200);

    const refused = await send<CaptchaAnswer>('POST', S.saveCaptcha, { type: 'text', complexity: 10, appKey: '', status: 1 });
    expect(refused.status).toBe(401);
    expect(refused.body.msg).toBe(SERVICE_MESSAGES.captchaAdminOnly.zh);

    const saved = await send<CaptchaAnswer>('POST', S.saveCaptcha, { type: 'text', complexity: 10, appKey: 'k-1', status: 1 }, admin);
    expect(saved.body.data).toMatchObject({ settings: { complexity: 10 }, editable: true });
    const after = await served();
    expect(after.paths).toBeGreaterThan(before.paths + 3);
    expect(after.scale).toBeGreaterThan(before.scale);
    expect(after.width).toBeGreaterThan(before.width);
    // Seven characters now: the four-letter answer is refused, the seven-letter one accepted.
    expect(await tryLogin(after.uuid, TEST_CAPTCHA)).toBe(509);
    const again = await served();
    expect(await tryLogin(again.uuid, TEST_CAPTCHA.repeat(2).slice(0, 7))).toBe(200);

    const list = await send<{ list: unknown[] }>('GET', S.captchaList, undefined, admin);
    expect(list.body).toMatchObject({ code: 200, data: { total: 1, list: [{ type: 'text', complexity: 10, app_key: 'k-1', status: 1 }] } });
    await send('POST', S.saveCaptcha, { type: 'text', complexity: 3, appKey: '', status: 1 }, admin);
    expect(await tryLogin((await served()).uuid, TEST_CAPTCHA)).toBe(200);

    // A sum to work out, not a text one, whose answer under CAPTCHA_TEST_CODE is still the test code.
    await send('POST', S.saveCaptcha, { type: 'math', complexity: 3, appKey: '', status: 1 }, admin);
    const sum = await served();
    expect(sum.width).toBe(160);
    expect(await tryLogin(sum.uuid, '7')).toBe(509);
    expect(await tryLogin((await served()).uuid, TEST_CAPTCHA)).toBe(200);
    await send('POST', S.saveCaptcha, { type: 'text', complexity: 3, appKey: '', status: 1 }, admin);
  });

  describe('a forgotten password', () => {
    let seen = 0;
    const nextCode = async (to: string) => {
      const mail = await mailSim().waitFor((m) => m.id > seen && m.to.includes(to) && m.subject.startsWith('验证码'));
      seen = mail.id;
      return /\b(\d{6})\b/.exec(mail.text)![1]!;
    };
    const ask = async (channel: 'email' | 'sms', username = 'seller', remoteAddress = '198.51.100.7') =>
      send<ForgotSent>('POST', R.forgotSend, { username, channel, ...(await captcha(t.app)) }, null, remoteAddress);
    const reset = (code: string, password: string, username = 'seller') => send<null>('POST', R.forgotReset, { username, code, password }, null, '198.51.100.7');

    beforeAll(async () => {
      // The organisation's own server switched off: the app's (here the local simulator) sends.
      await send('POST', S.saveMail, { smtpHost: '127.0.0.1', smtpPort: 1, smtpSecurity: 'none', popHost: '', popPort: 995, imapHost: '', imapPort: 993, username: '', fromAddress: 'shop@example.cn', status: 0 });
      const contact = await send('POST', R.saveContact, { email: 'seller@example.cn', phone: '13900139000' });
      expect(contact.body).toMatchObject({ code: 200, data: { email: 'seller@example.cn', phone: '13900139000' } });
      const policy = await send('POST', PP.save, { name: '十二位', rules: { ...NO_POLICY, minLength: 12 }, status: 1 });
      expect(policy.status).toBe(200);
    });

    it('mails a code valid 600 s, refuses a quick resend, a wrong code and a weak password, then sets the new one', async () => {
      const unknown = await ask('email', 'nobody_here');
      expect(unknown.body.msg).toBe('没有该账号，或该账号未绑定邮箱');
      const sent = await ask('email');
      expect(sent.body).toMatchObject({ code: 200, data: { channel: 'email', sentTo: 's***r@example.cn', ttl: 600 } });
      const code = await nextCode('seller@example.cn');

      const again = await ask('email');
      expect(again.status).toBe(429);
      expect(again.body.msg).toBe(RESET_MESSAGES.wait.zh.replace('{n}', '60'));

      const wrong = await reset(code === '000000' ? '111111' : '000000', 'Harbour-Lamp-2026x');
      expect(wrong.body).toMatchObject({ code: 400, msg: RESET_MESSAGES.codeWrong.zh, data: { field: 'code' } });
      const weak = await reset(code, 'Abcdef12345');
      expect(weak.body).toMatchObject({ code: 400, data: { field: 'password' } });
      expect(weak.body.msg).toContain('12');

      const done = await reset(code, 'Harbour-Lamp-2026x');
      expect(done.body).toMatchObject({ code: 200, data: null });
      // The old session ended; the old password is gone; the code worked once.
      expect((await send('GET', '/api/getInfo')).status).toBe(402);
      await expect(login(t.app, 'seller', 'seller123')).rejects.toThrow();
      seller = await login(t.app, 'seller', 'Harbour-Lamp-2026x');
      expect((await reset(code, 'Another-Lamp-2027y')).body.msg).toBe(RESET_MESSAGES.codeExpired.zh);
      const notice = await mailSim().waitFor((m) => m.to.includes('seller@example.cn') && m.subject.startsWith('密码已重置'));
      expect(notice.text).toContain('198.51.100.7');

      const log = (await send<SignInPage>('GET', `${SIGNIN_PATHS.signInLog}?page=1&rows=20`)).body.data.list.filter((entry) => entry.event === 'reset');
      expect(log.find((entry) => entry.success)).toMatchObject({ username: 'seller', method: 'email', ip: '198.51.100.7' });
      expect(log.filter((entry) => !entry.success).map((entry) => entry.reason)).toEqual(
        expect.arrayContaining([RESET_MESSAGES.codeWrong.en, RESET_MESSAGES.codeExpired.en, RESET_MESSAGES.wait.en.replace('{n}', '60')]),
      );
    });

    it('sends the code by SMS to the simulator, and five wrong codes spend it', async () => {
      t.clock.advance(61_000);
      const sent = await ask('sms');
      expect(sent.body).toMatchObject({ code: 200, data: { channel: 'sms', sentTo: '139****9000' } });
      const sms = smsSim().received.at(-1)!;
      expect(sms).toMatchObject({ phone: '13900139000' });
      const code = sms.params.code!;
      expect(code).toMatch(/^\d{6}$/);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i++) expect((await reset(wrong, 'Harbour-Lamp-2026z')).body.msg).toBe(RESET_MESSAGES.codeWrong.zh);
      expect((await reset(wrong, 'Harbour-Lamp-2026z')).body.msg).toBe(RESET_MESSAGES.codeExpired.zh);
      expect((await reset(code, 'Harbour-Lamp-2026z')).body.msg).toBe(RESET_MESSAGES.codeExpired.zh);
    });

    it('an expired code is refused, and one account is sent at most five codes an hour', async () => {
      t.clock.advance(61_000);
      await ask('email');
      const code = await nextCode('seller@example.cn');
      t.clock.advance(601_000);
      expect((await reset(code, 'Harbour-Lamp-2026q')).body.msg).toBe(RESET_MESSAGES.codeExpired.zh);
      // Sends from one address across the hour: the account's own limit (5 an hour) stops it first.
      const answers: number[] = [];
      for (let i = 0; i < 4; i++) {
        t.clock.advance(61_000);
        answers.push((await ask('email')).status);
      }
      expect(answers.slice(0, 2)).toEqual([200, 200]);
      expect(answers.at(-1)).toBe(429);
    });
  });
});
