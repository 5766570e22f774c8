import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../contract/errors';
import type { Store } from '../../contract/store';
import { TEAM_MESSAGES } from '../../contract/team';
import { orgMembers, orgRoles, users } from '../../server/db/schema';
import { hashPassword } from '../../server/areas/session/passwords';
import { newPasswordStamp } from '../../server/areas/session/service';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('an organisation member on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let roleId: number;
  let memberId: number;

  beforeAll(async () => {
    t = await startTestApp(target);
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const added = await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' });
    expect(added.status).toBe(200);
    const db = t.database.db;
    const [role] = await db.insert(orgRoles).values({ orgId: seller.id, name: '发货员', permissions: ['orders:view'], dataScope: 'all' }).returning();
    roleId = role!.id;
    const [member] = await db
      .insert(users)
      .values({ username: 'packer', passwordHash: await hashPassword('packer123'), passwordStamp: newPasswordStamp(), isAp: true, relativeId: seller.id })
      .returning();
    memberId = member!.id;
    await db.insert(orgMembers).values({ userId: memberId, orgId: seller.id, roleId });
  });
  afterAll(() => t?.close());

  const get = <T>(url: string, session: Session = seller) =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json<{ code: number; data: T; msg: string }>() }));
  const post = <T>(url: string, payload: unknown, session: Session = seller) =>
    t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object }).then((r) => ({ status: r.statusCode, body: r.json<{ code: number; data: T; msg: string }>() }));

  it("works on the owner's data within the owner's paid roles, with only what the role grants", async () => {
    const packer = await login(t.app, 'packer', 'packer123');
    const info = await get<{ roles: string[]; rolePermissions: string[] }>('/api/getInfo', packer);
    expect(info.body.data.roles).toEqual(['follow']);
    const orders = await get<{ total: number }>('/api/order/list?rows=1', packer);
    expect(orders.status).toBe(200);
    expect(orders.body.data.total).toBe((await get<{ total: number }>('/api/order/list?rows=1')).body.data.total);
    const ship = await post('/api/shipOrder', { ids: ['x'] }, packer);
    expect(ship.status).toBe(401);
    expect(ship.body.msg).toBe(MESSAGES.unauthorized.zh);
    expect((await get('/api/store/list', packer)).status).toBe(401);
    // The owner holds every permission.
    expect((await get('/api/store/list')).status).toBe(200);
  });

  it('loses a permission on the next call, and is signed out when disabled', async () => {
    const packer = await login(t.app, 'packer', 'packer123');
    expect((await get('/api/order/list?rows=1', packer)).status).toBe(200);
    await t.database.db.update(orgRoles).set({ permissions: [] }).where(eq(orgRoles.id, roleId));
    expect((await get('/api/order/list?rows=1', packer)).status).toBe(401);
    await t.database.db.update(orgMembers).set({ status: 'disabled' }).where(eq(orgMembers.userId, memberId));
    expect((await get('/api/getInfo', packer)).status).toBe(402);
    await expect(login(t.app, 'packer', 'packer123')).rejects.toThrow(TEAM_MESSAGES.memberDisabled.zh);
    await t.database.db.update(orgMembers).set({ status: 'enabled' }).where(eq(orgMembers.userId, memberId));
    await t.database.db.update(orgRoles).set({ permissions: ['orders:view'] }).where(eq(orgRoles.id, roleId));
  });
});
