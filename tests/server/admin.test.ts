import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, ADMIN_USER_PATHS, adminUserPageSchema, adminUserSchema } from '../../contract/admin';
import { MESSAGES } from '../../contract/errors';
import { userInfoSchema } from '../../contract/session';
import { DATABASE_TARGETS, login, pushUrl, startTestApp, type Session, type TestApp } from './harness';

const DAY_MS = 24 * 3600 * 1000;

describe.each(DATABASE_TARGETS)('administration: user manager on $kind', (target) => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await startTestApp(target);
    await t.app.ready();
    admin = await login(t.app, 'admin', 'admin123');
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = admin.headers) => t.app.inject({ method: 'POST', url, payload, headers });
  const get = (url: string, headers: Record<string, string> = admin.headers) => t.app.inject({ method: 'GET', url, headers });
  const list = async (query: string) => adminUserPageSchema.parse((await get(`${ADMIN_USER_PATHS.list}?${query}`)).json().data);
  const addUser = async (username: string, extra: object = {}) => {
    const response = await post(ADMIN_USER_PATHS.add, { username, password: 'start1234', ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return adminUserSchema.parse(response.json().data);
  };

  describe('only administrators reach it', () => {
    const calls: Array<[string, 'GET' | 'POST', object | undefined]> = [
      ['list', 'GET', undefined],
      ['add', 'POST', { username: 'sneaky_user', password: 'sneaky1234' }],
      ['update', 'POST', { id: 1, roles: [] }],
      ['delete', 'POST', { ids: [1] }],
      ['resetPassword', 'POST', { id: 1, newPassword: 'taken1234' }],
    ];
    it.each(['seller', 'analyst', 'newbie'])('answers 401 to %s on every call, and changes nothing', async (username) => {
      const session = await login(t.app, username, `${username}123`);
      for (const [name, method, payload] of calls) {
        const url = ADMIN_USER_PATHS[name as keyof typeof ADMIN_USER_PATHS];
        const response = await t.app.inject({ method, url, headers: session.headers, ...(payload ? { payload } : {}) });
        expect(response.statusCode, `${name}`).toBe(401);
        expect(response.json()).toEqual({ code: 401, msg: MESSAGES.unauthorized.zh, data: null });
      }
      const names = (await list('rows=100')).list.map((user) => user.name);
      expect(names).not.toContain('sneaky_user');
      expect(names).toContain('admin');
      await expect(login(t.app, 'admin', 'admin123')).resolves.toMatchObject({ name: 'admin' });
    });

    it('answers 402 without a session', async () => {
      expect((await get(ADMIN_USER_PATHS.list, {})).statusCode).toBe(402);
    });
  });

  describe('list', () => {
    it('answers the users, newest first, with roles, validity and last login', async () => {
      const page = await list('page=1&rows=20');
      const byName = new Map(page.list.map((user) => [user.name, user]));
      expect(page.total).toBeGreaterThanOrEqual(4);
      expect(byName.get('admin')).toMatchObject({ roles: ['admin'], right: '1', isAp: false, relative_id: null });
      expect(byName.get('admin')?.lastLoginAt).toBe(t.clock.now().getTime());
      expect(byName.get('seller')).toMatchObject({ roles: ['follow'], right: '0' });
      expect(byName.get('seller')?.followValidTime).toBeGreaterThan(t.clock.now().getTime());
      expect(byName.get('newbie')).toMatchObject({ roles: [], followValidTime: null, plugValidTime: null });
      const ids = page.list.map((user) => user.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('pages with page and rows', async () => {
      const all = await list('rows=100');
      const second = await list('page=2&rows=2');
      expect(second.total).toBe(all.total);
      expect(second.list.map((u) => u.id)).toEqual(all.list.slice(2, 4).map((u) => u.id));
    });

    it('searches the name in any letter case, with % and _ taken literally', async () => {
      expect((await list('search=SELL')).list.map((u) => u.name)).toEqual(['seller']);
      expect((await list('search=%25')).total).toBe(0);
      await addUser('under_score');
      expect((await list('search=r_s')).list.map((u) => u.name)).toEqual(['under_score']);
    });

    it('filters by role, with common for users without roles', async () => {
      expect((await list('role=follow')).list.map((u) => u.name)).toEqual(['seller']);
      expect((await list('role=keyword')).list.map((u) => u.name)).toEqual(['analyst']);
      expect((await list('role=common&search=newbie')).list.map((u) => u.name)).toEqual(['newbie']);
    });

    it('filters by status: active has a current period or is admin; expired had one and it ended', async () => {
      const lapsed = await addUser('lapsed_user', { roles: ['follow'], followValidTime: t.clock.now().getTime() - DAY_MS });
      const active = (await list('status=active&rows=100')).list.map((u) => u.name);
      expect(active).toEqual(expect.arrayContaining(['admin', 'seller', 'analyst']));
      expect(active).not.toContain('lapsed_user');
      expect(active).not.toContain('newbie');
      const expired = (await list('status=expired&rows=100')).list.map((u) => u.name);
      expect(expired).toContain(lapsed.name);
      expect(expired).not.toContain('newbie');
      expect(expired).not.toContain('seller');
    });

    it('answers 400 naming the field for a bad filter', async () => {
      const response = await get(`${ADMIN_USER_PATHS.list}?status=sleeping`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, data: { field: 'status' } });
      expect((await get(`${ADMIN_USER_PATHS.list}?rows=0`)).json()).toMatchObject({ code: 400, data: { field: 'rows' } });
    });
  });

  describe('add', () => {
    it('creates a user with roles and validity who can log in with them', async () => {
      const until = t.clock.now().getTime() + 30 * DAY_MS;
      const created = await addUser('new_follower', { roles: ['follow'], followValidTime: until, plugValidTime: until, introduction: '新客户' });
      expect(created).toMatchObject({ name: 'new_follower', roles: ['follow'], followValidTime: until, plugValidTime: until, searchWordValidTime: null, introduction: '新客户', lastLoginAt: null });
      const session = await login(t.app, 'new_follower', 'start1234');
      const info = userInfoSchema.parse((await get('/api/getInfo', session.headers)).json().data);
      expect(info.rolePermissions).toEqual(['follow']);
      expect(info.user.followValidTime).toBe(until);
    });

    it('attaches a staff account to a main account', async () => {
      const main = await addUser('main_account');
      const staff = await addUser('staff_account', { isAp: true, relative_id: main.id });
      expect(staff).toMatchObject({ isAp: true, relative_id: main.id });
      expect((await login(t.app, 'staff_account', 'start1234')).relative_id).toBe(main.id);
    });

    it('answers 507 for a taken name in another letter case', async () => {
      const response = await post(ADMIN_USER_PATHS.add, { username: 'Seller', password: 'start1234' });
      expect(response.statusCode).toBe(507);
      expect(response.json()).toMatchObject({ code: 507, msg: MESSAGES.duplicateUser.zh });
    });

    it.each([
      [{ username: 'ok_name', password: 'short1' }, 'password', MESSAGES.passwordPolicy.zh],
      [{ username: 'x', password: 'start1234' }, 'username', MESSAGES.usernamePolicy.zh],
      [{ password: 'start1234' }, 'username', '不能为空'],
      [{ username: 'ok_name', password: 'start1234', roles: ['owner'] }, 'roles.0', '格式不正确'],
      [{ username: 'ok_name', password: 'start1234', roles: ['follow', 'follow'] }, 'roles', '格式不正确'],
      [{ username: 'ok_name', password: 'start1234', followValidTime: 'tomorrow' }, 'followValidTime', '格式不正确'],
    ])('answers 400 naming the field for %j', async (payload, field, text) => {
      const response = await post(ADMIN_USER_PATHS.add, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 400, msg: `${field}: ${text}`, data: { field } });
      expect((await list('search=ok_name')).total).toBe(0);
    });

    it('answers 400 for a main account that does not exist, in the caller language', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: ADMIN_USER_PATHS.add,
        headers: { ...admin.headers, 'accept-language': 'en' },
        payload: { username: 'orphan_staff', password: 'start1234', isAp: true, relative_id: 999999 },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 400, msg: ADMIN_MESSAGES.relativeNotFound.en, data: { field: 'relative_id' } });
    });
  });

  describe('update', () => {
    it('changes roles, validity, introduction and the staff link; what is left out stays', async () => {
      const user = await addUser('upgrade_me', { introduction: 'keep me' });
      const main = await addUser('upgrade_main');
      const until = t.clock.now().getTime() + 90 * DAY_MS;
      const response = await post(ADMIN_USER_PATHS.update, { id: user.id, roles: ['search', 'keyword'], searchWordValidTime: until, keyWordValidTime: until, isAp: true, relative_id: main.id });
      expect(response.statusCode).toBe(200);
      expect(adminUserSchema.parse(response.json().data)).toMatchObject({
        id: user.id,
        roles: ['search', 'keyword'],
        searchWordValidTime: until,
        keyWordValidTime: until,
        followValidTime: null,
        introduction: 'keep me',
        isAp: true,
        relative_id: main.id,
      });
      const session = await login(t.app, 'upgrade_me', 'start1234');
      expect((await get('/api/getInfo', session.headers)).json().data.rolePermissions).toEqual(['search', 'keyword']);

      const cleared = await post(ADMIN_USER_PATHS.update, { id: user.id, searchWordValidTime: null, relative_id: null, isAp: false });
      expect(cleared.json().data).toMatchObject({ searchWordValidTime: null, keyWordValidTime: until, relative_id: null, isAp: false });
      expect((await get('/api/getInfo', session.headers)).json().data.rolePermissions).toEqual(['keyword']);
    });

    it('answers 404 for an unknown id', async () => {
      const response = await post(ADMIN_USER_PATHS.update, { id: 999999, roles: [] });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 404, msg: ADMIN_MESSAGES.userNotFound.zh, data: { field: 'id' } });
    });

    it('answers 400 for a missing id and for linking a user to itself', async () => {
      expect((await post(ADMIN_USER_PATHS.update, { roles: [] })).json()).toMatchObject({ code: 400, data: { field: 'id' } });
      const user = await addUser('self_linker');
      const response = await post(ADMIN_USER_PATHS.update, { id: user.id, relative_id: user.id });
      expect(response.json()).toEqual({ code: 400, msg: ADMIN_MESSAGES.relativeSelf.zh, data: { field: 'relative_id' } });
    });

    it('refuses to take admin from the last administrator, but not from one of two', async () => {
      const second = await addUser('second_admin', { roles: ['admin'] });
      const demoted = await post(ADMIN_USER_PATHS.update, { id: second.id, roles: ['follow'] });
      expect(demoted.statusCode).toBe(200);
      expect(demoted.json().data.roles).toEqual(['follow']);

      const refused = await post(ADMIN_USER_PATHS.update, { id: admin.id, roles: ['follow'] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ code: 400, msg: ADMIN_MESSAGES.lastAdmin.zh, data: { field: 'roles' } });
      expect((await get('/api/getInfo')).json().data.roles).toEqual(['admin']);
      // Other changes to the last administrator are fine.
      expect((await post(ADMIN_USER_PATHS.update, { id: admin.id, roles: ['admin', 'follow'] })).statusCode).toBe(200);
      expect((await post(ADMIN_USER_PATHS.update, { id: admin.id, roles: ['admin'] })).statusCode).toBe(200);
    });
  });

  describe('delete', () => {
    it('deletes users and ends their sessions and sockets', async () => {
      const doomed = await addUser('doomed_user');
      const other = await addUser('doomed_too');
      const session = await login(t.app, 'doomed_user', 'start1234');
      const ws = await t.app.injectWS(await pushUrl(t.app, session));
      const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));

      const response = await post(ADMIN_USER_PATHS.delete, { ids: [doomed.id, other.id] });
      expect(response.json()).toEqual({ code: 200, msg: 'success', data: { deleted: 2 } });
      expect(await closed).toBe(4001);
      expect((await get('/api/getInfo', session.headers)).statusCode).toBe(402);
      expect((await post('/api/loginCheck', { username: 'doomed_user', auto: session.auto }, {})).json().data).toBe(0);
      expect((await list('search=doomed')).total).toBe(0);
    });

    it('refuses to delete yourself, and deletes nothing then', async () => {
      const bystander = await addUser('bystander_user');
      const response = await post(ADMIN_USER_PATHS.delete, { ids: [bystander.id, admin.id] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 400, msg: ADMIN_MESSAGES.deleteSelf.zh, data: { field: 'ids' } });
      expect((await list('search=bystander_user')).total).toBe(1);
    });

    it('answers 404 when an id is unknown, and deletes none of the others', async () => {
      const survivor = await addUser('survivor_user');
      const response = await post(ADMIN_USER_PATHS.delete, { ids: [survivor.id, 999999] });
      expect(response.statusCode).toBe(404);
      expect((await list('search=survivor_user')).total).toBe(1);
    });

    it('answers 400 for an empty list', async () => {
      expect((await post(ADMIN_USER_PATHS.delete, { ids: [] })).json()).toMatchObject({ code: 400, data: { field: 'ids' } });
    });
  });

  describe('resetPassword', () => {
    it('sets the password, turns the old login check to 0 and ends the user\'s sessions', async () => {
      await addUser('forgetful_user');
      const before = await login(t.app, 'forgetful_user', 'start1234');
      expect((await post('/api/loginCheck', { username: 'forgetful_user', auto: before.auto }, {})).json().data).toBe(1);

      const response = await post(ADMIN_USER_PATHS.resetPassword, { id: before.id, newPassword: 'fresh5678' });
      expect(response.json()).toEqual({ code: 200, msg: 'success', data: null });
      expect((await post('/api/loginCheck', { username: 'forgetful_user', auto: before.auto }, {})).json().data).toBe(0);
      expect((await get('/api/getInfo', before.headers)).statusCode).toBe(402);
      await expect(login(t.app, 'forgetful_user', 'start1234')).rejects.toThrow(/failed/);
      const after = await login(t.app, 'forgetful_user', 'fresh5678');
      expect(after.auto).not.toBe(before.auto);
      expect((await post('/api/loginCheck', { username: 'forgetful_user', auto: after.auto }, {})).json().data).toBe(1);
    });

    it('answers 400 for a weak password, 404 for an unknown user, 400 for your own account', async () => {
      const user = await addUser('weak_reset');
      expect((await post(ADMIN_USER_PATHS.resetPassword, { id: user.id, newPassword: 'abc' })).json()).toEqual({
        code: 400,
        msg: `newPassword: ${MESSAGES.passwordPolicy.zh}`,
        data: { field: 'newPassword' },
      });
      expect((await post(ADMIN_USER_PATHS.resetPassword, { id: 999999, newPassword: 'fresh5678' })).statusCode).toBe(404);
      const own = await post(ADMIN_USER_PATHS.resetPassword, { id: admin.id, newPassword: 'fresh5678' });
      expect(own.json()).toEqual({ code: 400, msg: ADMIN_MESSAGES.resetOwnPassword.zh, data: { field: 'id' } });
      await expect(login(t.app, 'admin', 'admin123')).resolves.toMatchObject({ name: 'admin' });
    });
  });
});
