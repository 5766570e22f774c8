import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../contract/errors';
import { REFRESH_COOKIE } from '../../contract/envelope';
import { REFRESH_REUSE_GRACE_MS } from '../../server/areas/session/service';
import { CAPTCHA_TTL_MS, limitInfoSchema, loginDataSchema, userInfoSchema } from '../../contract/session';
import { captcha, DATABASE_TARGETS, login, pushUrl, TEST_CAPTCHA, startTestApp, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('session and account calls on $kind', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = {}, remoteAddress?: string) =>
    t.app.inject({ method: 'POST', url, payload, headers, ...(remoteAddress ? { remoteAddress } : {}) });
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  describe('captcha', () => {
    it('answers an SVG data URL with a uuid', async () => {
      const response = await get('/api/captchaImage');
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(Buffer.from(data.img.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain('<svg');
    });

    it('is single use: the second register with the same captcha answers 509', async () => {
      const c = await captcha(t.app);
      const first = await post('/api/user/register', { username: 'once_user', password: 'abc12345', ...c });
      expect(first.statusCode).toBe(200);
      const second = await post('/api/user/register', { username: 'once_user2', password: 'abc12345', ...c });
      expect(second.statusCode).toBe(509);
      expect(second.json()).toMatchObject({ code: 509, msg: MESSAGES.captchaWrong.zh });
    });

    it('answers 508 when the captcha is missing', async () => {
      const response = await post('/api/user/register', { username: 'no_captcha', password: 'abc12345' });
      expect(response.statusCode).toBe(508);
      expect(response.json()).toMatchObject({ code: 508, msg: MESSAGES.captchaMissing.zh });
    });

    it('answers 509 for a wrong answer', async () => {
      const { uuid } = await captcha(t.app);
      const response = await post('/api/user/register', { username: 'wrong_captcha', password: 'abc12345', uuid, code: 'ZZZZ' });
      expect(response.statusCode).toBe(509);
    });

    it('answers 509 once five minutes have passed', async () => {
      const c = await captcha(t.app);
      t.clock.advance(CAPTCHA_TTL_MS + 1000);
      const response = await post('/api/login', { username: 'admin', password: 'admin123', ...c });
      expect(response.statusCode).toBe(509);
    });

    it('accepts the answer in any letter case', async () => {
      const c = await captcha(t.app);
      const response = await post('/api/login', { username: 'admin', password: 'admin123', ...c, code: TEST_CAPTCHA.toLowerCase() });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('register', () => {
    it('creates a user without roles or validity, who can then log in', async () => {
      const response = await post('/api/user/register', { username: 'fresh_seller', password: 'fresh1234', ...(await captcha(t.app)) });
      expect(response.json()).toMatchObject({ code: 200, data: { name: 'fresh_seller' } });
      const session = await login(t.app, 'fresh_seller', 'fresh1234');
      const info = (await get('/api/getInfo', session.headers)).json().data;
      expect(info.roles).toEqual(['common']);
      expect(info.user).toMatchObject({ followValidTime: null, plugValidTime: null, searchWordValidTime: null, keyWordValidTime: null });
    });

    it('answers 507 for a name taken in another letter case', async () => {
      const response = await post('/api/user/register', { username: 'ADMIN', password: 'abc12345', ...(await captcha(t.app)) });
      expect(response.statusCode).toBe(507);
      expect(response.json()).toMatchObject({ code: 507, msg: MESSAGES.duplicateUser.zh });
    });

    it('answers 400 naming the field with the policy text, in the caller language', async () => {
      const zh = await post('/api/user/register', { username: 'x', password: 'abc12345', ...(await captcha(t.app)) });
      expect(zh.statusCode).toBe(400);
      expect(zh.json()).toEqual({ code: 400, msg: `username: ${MESSAGES.usernamePolicy.zh}`, data: { field: 'username' } });
      const en = await t.app.inject({
        method: 'POST',
        url: '/api/user/register',
        headers: { 'accept-language': 'en-US,en;q=0.9,zh;q=0.8' },
        payload: { username: 'good_name', password: 'lettersonly', ...(await captcha(t.app)) },
      });
      expect(en.json()).toEqual({ code: 400, msg: `password: ${MESSAGES.passwordPolicy.en}`, data: { field: 'password' } });
    });
  });

  describe('login', () => {
    it('answers the login data and sets an httpOnly refresh cookie on /api', async () => {
      const response = await post('/api/login', { username: 'seller', password: 'seller123', ...(await captcha(t.app)) });
      expect(response.statusCode).toBe(200);
      const data = loginDataSchema.parse(response.json().data);
      expect(data).toMatchObject({ name: 'seller', right: '0', isAp: false, relative_id: null });
      expect(data.validTime).toBeGreaterThan(t.clock.now().getTime());
      const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api' });
    });

    it('answers right "1" for the administrator', async () => {
      expect((await login(t.app, 'admin', 'admin123')).right).toBe('1');
    });

    it('answers 400 with the wrong-credentials text and no field', async () => {
      const response = await post('/api/login', { username: 'seller', password: 'wrong-pass1', ...(await captcha(t.app)) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 400, msg: MESSAGES.wrongCredentials.zh, data: null });
    });

    it('answers 429 after five failures from one address until the window passes', async () => {
      const ip = '10.9.8.7';
      for (let i = 0; i < 5; i += 1) {
        const failed = await post('/api/login', { username: 'analyst', password: 'nope12345', ...(await captcha(t.app)) }, {}, ip);
        expect(failed.statusCode).toBe(400);
      }
      const blocked = await post('/api/login', { username: 'analyst', password: 'analyst123', ...(await captcha(t.app)) }, {}, ip);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ code: 429, msg: MESSAGES.tooManyRequests.zh });
      // Another address is not blocked.
      await expect(login(t.app, 'analyst', 'analyst123', '10.9.8.8')).resolves.toMatchObject({ name: 'analyst' });
      t.clock.advance(15 * 60 * 1000 + 1000);
      await expect(login(t.app, 'analyst', 'analyst123', ip)).resolves.toMatchObject({ name: 'analyst' });
    });
  });

  describe('getInfo', () => {
    it.each([
      ['admin', 'admin123', ['admin'], ['admin']],
      ['seller', 'seller123', ['follow'], ['follow']],
      ['analyst', 'analyst123', ['search', 'keyword'], ['search', 'keyword']],
      ['newbie', 'newbie123', ['common'], ['common']],
    ])('answers roles and role permissions of %s', async (username, password, roles, rolePermissions) => {
      const session = await login(t.app, username, password);
      const response = await get('/api/getInfo', session.headers);
      const info = userInfoSchema.parse(response.json().data);
      expect(info.roles).toEqual(roles);
      expect(info.rolePermissions).toEqual(rolePermissions);
      expect(info.user.name).toBe(username);
    });

    it('drops a paid role from the permissions once its validity has passed', async () => {
      const session = await login(t.app, 'seller', 'seller123');
      await t.database.query(`update users set follow_valid_time = $1 where username = 'seller'`, [new Date(t.clock.now().getTime() - 1000)]);
      const info = (await get('/api/getInfo', session.headers)).json().data;
      expect(info.roles).toEqual(['follow']);
      expect(info.rolePermissions).toEqual(['common']);
      expect(info.user.rightInfo).toEqual({ activeRoles: [], expiredRoles: ['follow'], isAdmin: false });
      await t.database.query(`update users set follow_valid_time = $1 where username = 'seller'`, [new Date(t.clock.now().getTime() + 365 * 864e5)]);
    });
  });

  describe('tokens', () => {
    it('answers 402 once the access token has outlived its TTL, and a refresh rotates it', async () => {
      const session = await login(t.app, 'seller', 'seller123');
      expect((await get('/api/getInfo', session.headers)).statusCode).toBe(200);
      t.clock.advance(t.config.accessTokenTtlS * 1000 + 1000);
      const expired = await get('/api/getInfo', session.headers);
      expect(expired.statusCode).toBe(402);
      expect(expired.json()).toMatchObject({ code: 402, msg: MESSAGES.tokenExpired.zh });

      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/refreshToken',
        headers: { 'x-user-id': String(session.id) },
        cookies: { [REFRESH_COOKIE]: session.refreshCookie },
      });
      expect(refreshed.statusCode).toBe(200);
      const { token } = refreshed.json().data;
      expect(token).not.toBe(session.token);
      expect((await get('/api/getInfo', { 'x-token': token, 'x-user-id': String(session.id) })).statusCode).toBe(200);
      // The old access token stays dead.
      expect((await get('/api/getInfo', session.headers)).statusCode).toBe(402);
    });

    const refreshWith = (session: { id: number }, cookie: string) =>
      t.app.inject({ method: 'POST', url: '/api/refreshToken', headers: { 'x-user-id': String(session.id) }, cookies: { [REFRESH_COOKIE]: cookie } });
    const newRefreshCookie = (response: Awaited<ReturnType<typeof refreshWith>>) => response.cookies.find((c) => c.name === REFRESH_COOKIE);

    it('rotates the refresh cookie on every refresh: the new one works, httpOnly on /api, and keeps the session\'s end', async () => {
      const session = await login(t.app, 'seller', 'seller123');
      t.clock.advance(3600_000);
      const first = await refreshWith(session, session.refreshCookie);
      expect(first.statusCode).toBe(200);
      const cookie = newRefreshCookie(first);
      expect(cookie?.value).toBeTruthy();
      expect(cookie?.value).not.toBe(session.refreshCookie);
      expect(cookie).toMatchObject({ httpOnly: true, path: '/api', sameSite: 'Lax' });
      // The session's lifetime is counted from the login, not from each refresh.
      expect(cookie?.maxAge).toBe(t.config.refreshTokenTtlS - 3600);
      const second = await refreshWith(session, cookie!.value);
      expect(second.statusCode).toBe(200);
      expect((await get('/api/getInfo', { 'x-token': second.json().data.token, 'x-user-id': String(session.id) })).statusCode).toBe(200);
    });

    it('a replaced refresh cookie coming back after the grace ends the session: its tokens and sockets die too', async () => {
      const session = await login(t.app, 'seller', 'seller123');
      const rotated = await refreshWith(session, session.refreshCookie);
      const current = newRefreshCookie(rotated)!.value;
      const token = rotated.json().data.token as string;
      const headers = { 'x-token': token, 'x-user-id': String(session.id) };
      const ws = await t.app.injectWS(await pushUrl(t.app, { token, id: session.id }));
      const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
      t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);

      const replay = await refreshWith(session, session.refreshCookie);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toMatchObject({ code: 401, msg: MESSAGES.unauthorized.zh });
      expect(newRefreshCookie(replay)?.value).toBe('');
      expect(await closed).toBe(4001);
      expect((await get('/api/getInfo', headers)).statusCode).toBe(402);
      expect((await refreshWith(session, current)).statusCode).toBe(401);
    });

    it('two refreshes with one cookie at once (two tabs): both get a working token, the session goes on', async () => {
      const session = await login(t.app, 'seller', 'seller123');
      const [a, b] = await Promise.all([refreshWith(session, session.refreshCookie), refreshWith(session, session.refreshCookie)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      // One rotated the cookie; the other left the browser's cookie alone.
      const set = [newRefreshCookie(a), newRefreshCookie(b)].filter((c) => c?.value);
      expect(set).toHaveLength(1);
      // The late one within the grace: still a token, and the rotated cookie carries the session on.
      t.clock.advance(5_000);
      const late = await refreshWith(session, session.refreshCookie);
      expect(late.statusCode).toBe(200);
      expect((await get('/api/getInfo', { 'x-token': late.json().data.token, 'x-user-id': String(session.id) })).statusCode).toBe(200);
      expect((await refreshWith(session, set[0]!.value)).statusCode).toBe(200);
    });

    it('answers 402 for an unknown token and for a user id that is not the token owner', async () => {
      const session = await login(t.app, 'seller', 'seller123');
      expect((await get('/api/getInfo', { 'x-token': 'nonsense', 'x-user-id': String(session.id) })).statusCode).toBe(402);
      expect((await get('/api/getInfo', { 'x-token': session.token, 'x-user-id': String(session.id + 1000) })).statusCode).toBe(402);
      expect((await get('/api/getInfo')).statusCode).toBe(402);
    });

    it('refuses a refresh without the cookie, with an unknown one, or for another user (401)', async () => {
      const session = await login(t.app, 'seller', 'seller123');
      const refresh = (cookies: Record<string, string>, userId = String(session.id)) =>
        t.app.inject({ method: 'POST', url: '/api/refreshToken', headers: { 'x-user-id': userId }, cookies });
      expect((await refresh({})).statusCode).toBe(401);
      expect((await refresh({ [REFRESH_COOKIE]: 'unknown' })).statusCode).toBe(401);
      expect((await refresh({ [REFRESH_COOKIE]: session.refreshCookie }, String(session.id + 1))).statusCode).toBe(401);
    });

    it('refuses a refresh once the refresh cookie has expired', async () => {
      const session = await login(t.app, 'newbie', 'newbie123');
      t.clock.advance(t.config.refreshTokenTtlS * 1000 + 1000);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/refreshToken',
        headers: { 'x-user-id': String(session.id) },
        cookies: { [REFRESH_COOKIE]: session.refreshCookie },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 401, msg: MESSAGES.unauthorized.zh });
    });

    it('logout ends the session: its token answers 402, its refresh 401, and the cookie is cleared', async () => {
      const session = await login(t.app, 'newbie', 'newbie123');
      const response = await post('/api/logout', {}, session.headers);
      expect(response.json()).toEqual({ code: 200, msg: 'success', data: null });
      const cleared = response.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(cleared?.value).toBe('');
      expect((await get('/api/getInfo', session.headers)).statusCode).toBe(402);
      const refresh = await t.app.inject({
        method: 'POST',
        url: '/api/refreshToken',
        headers: { 'x-user-id': String(session.id) },
        cookies: { [REFRESH_COOKIE]: session.refreshCookie },
      });
      expect(refresh.statusCode).toBe(401);
    });
  });

  describe('password', () => {
    it('checkPsw answers whether the password is the current one', async () => {
      const session = await login(t.app, 'analyst', 'analyst123');
      expect((await post('/api/user/checkPsw', { password: 'analyst123' }, session.headers)).json().data).toBe(true);
      expect((await post('/api/user/checkPsw', { password: 'analyst124' }, session.headers)).json().data).toBe(false);
    });

    it('changePsw turns loginCheck to 0 and ends the other sessions but not this one', async () => {
      await post('/api/user/register', { username: 'changer', password: 'first1234', ...(await captcha(t.app)) });
      const here = await login(t.app, 'changer', 'first1234');
      const elsewhere = await login(t.app, 'changer', 'first1234');
      expect((await post('/api/loginCheck', { username: 'changer', auto: here.auto })).json().data).toBe(1);

      const changed = await post('/api/user/changePsw', { oldPassword: 'first1234', newPassword: 'second1234' }, here.headers);
      expect(changed.statusCode).toBe(200);
      const { auto } = changed.json().data;
      expect(auto).not.toBe(here.auto);

      expect((await post('/api/loginCheck', { username: 'changer', auto: elsewhere.auto })).json().data).toBe(0);
      expect((await post('/api/loginCheck', { username: 'changer', auto })).json().data).toBe(1);
      expect((await get('/api/getInfo', here.headers)).statusCode).toBe(200);
      expect((await get('/api/getInfo', elsewhere.headers)).statusCode).toBe(402);
      await expect(login(t.app, 'changer', 'second1234')).resolves.toMatchObject({ name: 'changer' });
    });

    it('changePsw refuses a wrong old password, the same password, and a weak one', async () => {
      const session = await login(t.app, 'analyst', 'analyst123');
      const wrongOld = await post('/api/user/changePsw', { oldPassword: 'nope12345', newPassword: 'other1234' }, session.headers);
      expect(wrongOld.json()).toEqual({ code: 400, msg: MESSAGES.wrongOldPassword.zh, data: { field: 'oldPassword' } });
      const same = await post('/api/user/changePsw', { oldPassword: 'analyst123', newPassword: 'analyst123' }, session.headers);
      expect(same.json()).toEqual({ code: 400, msg: MESSAGES.samePassword.zh, data: { field: 'newPassword' } });
      const weak = await post('/api/user/changePsw', { oldPassword: 'analyst123', newPassword: 'short' }, session.headers);
      expect(weak.json()).toMatchObject({ code: 400, data: { field: 'newPassword' } });
    });

    it('loginCheck answers 0 for a user that does not exist', async () => {
      expect((await post('/api/loginCheck', { username: 'ghost_user', auto: 'whatever' })).json()).toEqual({ code: 200, msg: 'success', data: 0 });
    });
  });

  describe('notices, limits, brand', () => {
    it('noticeCheck answers the newest notice with its China-time date', async () => {
      const session = await login(t.app, 'seller', 'seller123');
      const first = (await get('/api/noticeCheck', session.headers)).json().data;
      expect(first.text).toContain('欢迎');
      await t.database.query(`insert into notices (text, update_time) values ($1, $2)`, ['新版本上线', new Date('2025-06-05T02:03:04Z')]);
      await t.database.query(`insert into notices (text, update_time) values ($1, $2)`, ['older', new Date('2024-01-01T00:00:00Z')]);
      const newest = (await get('/api/noticeCheck', session.headers)).json().data;
      // The seeded welcome notice is dated at the test clock's start (2025-06-10), later than both.
      expect(newest).toEqual(first);
      await t.database.query(`delete from notices`);
      expect((await get('/api/noticeCheck', session.headers)).json().data).toBeNull();
      await t.database.query(`insert into notices (text, update_time) values ($1, $2)`, ['新版本上线', new Date('2025-06-05T02:03:04Z')]);
      expect((await get('/api/noticeCheck', session.headers)).json().data).toEqual({ text: '新版本上线', updateTime: '2025-06-05 10:03:04' });
    });

    it('limitInfo answers the plan of the real role with its quotas', async () => {
      const seller = await login(t.app, 'seller', 'seller123');
      const sellerLimits = limitInfoSchema.parse((await get('/api/limitInfo', seller.headers)).json().data);
      expect(sellerLimits).toMatchObject({ plan: 'follow', stores: { used: 0, limit: 20 } });
      const newbie = await login(t.app, 'newbie', 'newbie123');
      expect((await get('/api/limitInfo', newbie.headers)).json().data).toMatchObject({ plan: 'common', stores: { limit: 1 } });
      const admin = await login(t.app, 'admin', 'admin123');
      expect((await get('/api/limitInfo', admin.headers)).json().data).toMatchObject({ plan: 'admin', collections: { limit: -1 } });
    });

    it('getBrand answers the deployment branding', async () => {
      const session = await login(t.app, 'newbie', 'newbie123');
      expect((await get('/api/getBrand', session.headers)).json().data).toMatchObject({ name: '跨境卖家后台', nameEn: 'Seller Back Office', logo: '/logo.svg' });
    });
  });
});
