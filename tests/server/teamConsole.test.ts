import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../contract/errors';
import type { Store } from '../../contract/store';
import { TEAM_MESSAGES, TEAM_PATHS as P, type Department, type LogPage, type Member, type MemberPage, type OnlinePage, type OrgRole, type RolePreview, type TeamOverview } from '../../contract/team';
import type { LimitInfo } from '../../contract/session';
import { operationLog, orgMembers, users } from '../../server/db/schema';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('the organisation console on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let admin: Session;
  let shop1001: number;
  let shop1002: number;
  let dept: Department;
  let shipper: OrgRole;

  beforeAll(async () => {
    t = await startTestApp(target, { app: { marketplace: { simulatorOptions: { ordersPerShop: 600, productsPerShop: 30 } } } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    admin = await login(t.app, 'admin', 'admin123');
    shop1001 = (await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' })).body.data.id;
    shop1002 = (await post<Store>('/api/store/add', { name: '莫斯科仓', clientId: '1002', apiKey: 'sim-key-1002' })).body.data.id;
    await t.app.sync.runShop(shop1001, ['warehouses', 'postings']);
    await t.app.sync.runShop(shop1002, ['warehouses', 'postings']);
  }, 300_000);
  afterAll(() => t?.close());

  type Answer<T> = { status: number; body: { code: number; data: T; msg: string } };
  const get = <T>(url: string, session: Session = seller): Promise<Answer<T>> =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const post = <T>(url: string, payload: unknown, session: Session = seller): Promise<Answer<T>> =>
    t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const userCount = async () => (await t.database.db.select({ id: users.id }).from(users)).length;

  it('shows the organisation, its shops, what a role can grant and the plan limits', async () => {
    const overview = await get<TeamOverview>(P.overview);
    expect(overview.status).toBe(200);
    expect(overview.body.data.shops.map((shop) => shop.id)).toEqual([shop1001, shop1002]);
    expect(overview.body.data.grantable).toBeNull();
    expect(overview.body.data.members).toEqual({ used: 0, limit: 30 });
    const orders = overview.body.data.catalogue.find((entry) => entry.area === 'orders');
    expect(orders?.actions).toEqual(expect.arrayContaining(['view', 'edit', 'delete', 'ship', 'price']));
    expect(overview.body.data.catalogue.some((entry) => entry.area === 'admin')).toBe(false);
  });

  it('adds a department, a role and a member with one shop, who then sees only that shop', async () => {
    dept = (await post<Department>(P.addDept, { name: '仓储部', shopIds: [shop1001] })).body.data;
    expect(dept).toMatchObject({ name: '仓储部', parentId: null, shopIds: [shop1001], memberCount: 0 });
    const role = await post<OrgRole>(P.addRole, { name: '发货员', permissions: ['orders:view', 'orders:ship', 'store:view'], dataScope: 'all' });
    expect(role.status).toBe(200);
    shipper = role.body.data;
    expect(shipper).toMatchObject({ creator: 'seller', userNum: 0, source: 'custom', applySubDept: false });
    const added = await post<Member>(P.addMember, { username: 'packer1', password: 'packer123', nickName: '小王', deptId: dept.id, roleId: shipper.id, shopIds: [shop1001] });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ name: 'packer1', role: '发货员', department: '仓储部', shopIds: [shop1001], strategy: [shop1001], status: 'enabled' });

    const packer = await login(t.app, 'packer1', 'packer123');
    expect((await get<Store[]>('/api/store/list', packer)).body.data.map((shop) => shop.id)).toEqual([shop1001]);
    const orders = await get<{ list: { shopId: number }[] }>('/api/order/list?rows=200', packer);
    expect(new Set(orders.body.data.list.map((row) => row.shopId))).toEqual(new Set([shop1001]));
    // Not a console user: no staff permission.
    const refused = await get(P.members, packer);
    expect(refused.status).toBe(401);
    expect(refused.body.msg).toBe(MESSAGES.unauthorized.zh);

    const page = await get<MemberPage>(P.members);
    expect(page.body.code).toBe(200);
    expect(page.body.data.total).toBe(1);
    expect(Object.keys(page.body.data.list[0]!)).toEqual(expect.arrayContaining(['id', 'name', 'role', 'position', 'department', 'strategy', 'status', 'createTime']));
    const preview = await get<RolePreview>(`${P.rolePreview}?id=${shipper.id}`);
    expect(preview.body.data).toMatchObject({ allShops: true, areas: expect.arrayContaining([{ area: 'orders', actions: ['view', 'ship'] }]) });
  });

  it('refuses each bad field with its reason and writes nothing', async () => {
    const before = await userCount();
    const cases: [string, unknown, string, unknown][] = [
      [P.addRole, { name: 'x', permissions: ['orders:fly'] }, 'permissions', TEAM_MESSAGES.unknownPermission.zh],
      [P.addRole, { name: '发货员' }, 'name', TEAM_MESSAGES.roleNameTaken.zh],
      [P.addMember, { username: 'packer2', password: 'packer123', shopIds: [999_999] }, 'shopIds', TEAM_MESSAGES.shopOutside.zh],
      [P.addMember, { username: 'SELLER', password: 'packer123' }, 'username', MESSAGES.duplicateUser.zh],
      [P.addMember, { username: 'packer2', password: 'packer123', roleId: 999_999 }, 'roleId', TEAM_MESSAGES.notFound.zh],
      [P.deleteDept, { id: 0 }, 'id', undefined],
      [P.updateDept, { id: 0 }, 'id', undefined],
    ];
    for (const [path, payload, field, msg] of cases) {
      const answer = await post<{ field: string }>(path, payload);
      expect(answer.status, `${path} ${JSON.stringify(payload)}`).toBe(400);
      expect(answer.body.data.field).toBe(field);
      if (msg) expect(answer.body.msg).toBe(msg);
    }
    expect(await userCount()).toBe(before);
    // A department with members goes only with where they move; a department cannot sit under its own child.
    const child = (await post<Department>(P.addDept, { name: '打包组', parentId: dept.id })).body.data;
    expect((await post<{ field: string }>(P.updateDept, { id: dept.id, parentId: child.id })).body).toMatchObject({ code: 400, msg: TEAM_MESSAGES.deptLoop.zh, data: { field: 'parentId' } });
    expect((await post<{ field: string }>(P.deleteDept, { id: dept.id })).body).toMatchObject({ code: 400, msg: TEAM_MESSAGES.deptHasChildren.zh });
    expect((await post(P.deleteDept, { id: child.id })).status).toBe(200);
    expect((await post<{ field: string }>(P.deleteDept, { id: dept.id })).body).toMatchObject({ code: 400, msg: TEAM_MESSAGES.deptHasMembers.zh, data: { field: 'moveTo' } });
    expect((await post<{ field: string }>(P.deleteRole, { id: shipper.id })).body).toMatchObject({ code: 400, msg: TEAM_MESSAGES.roleInUse.zh, data: { field: 'moveTo' } });
  });

  it('lets only the owner and the administrator manage the organisation, and nobody grant more than they hold', async () => {
    // Another owner cannot reach this organisation.
    expect((await get(`${P.members}?orgId=${seller.id}`, await login(t.app, 'analyst', 'analyst123'))).status).toBe(401);
    // The administrator manages any.
    const asAdmin = await get<MemberPage>(`${P.members}?orgId=${seller.id}`, admin);
    expect(asAdmin.body.data.total).toBe(1);
    // A member who may manage staff, but holds only some permissions and one shop.
    const lead = (await post<OrgRole>(P.addRole, { name: '组长', permissions: ['orders:view', 'team:staff'], dataScope: 'shops', shopIds: [shop1001] })).body.data;
    expect((await post<Member>(P.addMember, { username: 'lead1', password: 'lead1234', roleId: lead.id, shopIds: [shop1001] })).status).toBe(200);
    const leader = await login(t.app, 'lead1', 'lead1234');
    expect((await get<MemberPage>(P.members, leader)).status).toBe(200);
    const more = await post<{ field: string }>(P.addRole, { name: '越权', permissions: ['orders:ship'], dataScope: 'shops', shopIds: [shop1001] }, leader);
    expect(more.body).toMatchObject({ code: 400, msg: TEAM_MESSAGES.grantExceeds.zh, data: { field: 'permissions' } });
    const wider = await post<{ field: string }>(P.addRole, { name: '越权', permissions: ['orders:view'], dataScope: 'shops', shopIds: [shop1002] }, leader);
    // Naming a shop outside their own scope is refused before the form is read, as everywhere.
    expect(wider.status).toBe(401);
    const giveShipper = await post<{ field: string }>(P.addMember, { username: 'packer3', password: 'packer123', roleId: shipper.id, shopIds: [shop1001] }, leader);
    expect(giveShipper.body).toMatchObject({ code: 400, data: { field: 'roleId' } });
    // The owner is no member: it cannot be removed here.
    expect((await post<{ field: string }>(P.deleteMembers, { ids: [seller.id] })).body).toMatchObject({ code: 400, msg: TEAM_MESSAGES.ownerNotMember.zh });
  });

  it('logs each write with its before and after, searchable and exported, and purges past the retention', async () => {
    const [member] = (await get<MemberPage>(`${P.members}?keyword=packer1`)).body.data.list;
    const changed = await post<Member>(P.updateMember, { id: member!.id, shopIds: [] });
    expect(changed.body.data.strategy).toEqual([]);
    const log = await get<LogPage>(`${P.log}?module=team&actorId=${seller.id}`);
    const entry = log.body.data.list.find((row) => row.record.includes('/permission/user/update'));
    expect(entry).toMatchObject({ actorName: 'seller', module: 'team', action: 'staff', status: 200 });
    expect(entry!.before).toMatchObject({ shopIds: [shop1001] });
    expect(entry!.after).toMatchObject({ shopIds: [] });
    // Writes of every area are kept, by shop.
    expect((await post('/api/order/add', { orderNumber: 'M-0001', productName: '手机壳', quantity: 1, amount: 9.9, inProcessAt: Date.parse('2025-06-01T10:00:00Z'), shopId: shop1002 })).status).toBe(200);
    const byShop = await get<LogPage>(`${P.log}?shopId=${shop1002}`);
    expect(byShop.body.data.list.some((row) => row.module === 'orders' && row.action === 'edit' && row.shopIds.includes(shop1002))).toBe(true);
    // A call that changes nothing is no entry: the push ticket, a password check, a parcel search.
    expect((await post('/api/ws/ticket', {})).status).toBe(200);
    expect((await post('/api/user/checkPsw', { password: 'seller123' })).status).toBe(200);
    expect((await get<LogPage>(`${P.log}?module=open`)).body.data.total).toBe(0);
    const file = await t.app.inject({ method: 'GET', url: `${P.logExport}?module=team`, headers: seller.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');

    await t.database.db.insert(operationLog).values({ orgId: seller.id, actorId: seller.id, actorName: 'seller', at: new Date(t.clock.now().getTime() - 181 * 86_400_000), module: 'copy', action: 'publish' });
    const old = async () => (await t.database.db.select({ id: operationLog.id }).from(operationLog).where(eq(operationLog.module, 'copy'))).length;
    expect(await old()).toBe(1);
    await t.app.purgeOperationLog();
    expect(await old()).toBe(0);
  });

  it('lists the open sessions of the organisation and ends one', async () => {
    const packer = await login(t.app, 'packer1', 'packer123');
    const online = await get<OnlinePage>(P.online);
    const session = online.body.data.list.find((row) => row.name === 'packer1');
    expect(session).toBeDefined();
    expect((await post(P.endSession, { sessionId: session!.sessionId })).status).toBe(200);
    expect((await get('/api/getInfo', packer)).status).toBe(402);
    // Another organisation's session is not this owner's to end.
    const adminSession = (await get<OnlinePage>(`${P.online}?orgId=${admin.id}`, admin)).body.data.list[0]!;
    expect((await post(P.endSession, { sessionId: adminSession.sessionId })).status).toBe(404);
  });

  it('refuses a member past the plan quota, naming it, and reports members used / allowed in /limitInfo', async () => {
    const before = (await get<TeamOverview>(P.overview)).body.data.members;
    expect(before.limit).toBe(30);
    expect((await get<LimitInfo>('/api/limitInfo')).body.data.members).toEqual(before);
    // Fill the organisation up to one below its quota directly: a login each through the API would hash a password each.
    const fill = Array.from({ length: before.limit - before.used - 1 }, (_, i) => ({ username: `filler${i}`, passwordHash: 'x', passwordStamp: 'x', isAp: true, relativeId: seller.id }));
    const ids = await t.database.db.insert(users).values(fill).returning({ id: users.id });
    await t.database.db.insert(orgMembers).values(ids.map(({ id }) => ({ userId: id, orgId: seller.id })));
    expect((await get<LimitInfo>('/api/limitInfo')).body.data.members).toEqual({ used: 29, limit: 30 });
    // Two adds at once for the last place: both pass the early check, the owner's row lock lets exactly one in.
    const both = await Promise.all(['racer1', 'racer2'].map((username) => post<Member>(P.addMember, { username, password: 'packer123' })));
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(both.find((answer) => answer.status === 400)!.body.msg).toBe(MESSAGES.memberLimit.zh.replace('{max}', '30'));
    expect((await get<LimitInfo>('/api/limitInfo')).body.data.members).toEqual({ used: 30, limit: 30 });
    const users0 = await userCount();
    const refused = await post<Member>(P.addMember, { username: 'onetoomany', password: 'packer123' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(MESSAGES.memberLimit.zh.replace('{max}', '30'));
    expect(await userCount()).toBe(users0);
    expect((await get<TeamOverview>(P.overview)).body.data.members).toEqual({ used: 30, limit: 30 });
  });
});
