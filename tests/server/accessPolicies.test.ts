import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_PATHS as P,
  PUSH_RESOURCE,
  policyDenied,
  stepUpNeeded,
  type AccessLogPage,
  type Explanation,
  type Policy,
  type SavePolicyBody,
} from '../../contract/accessPolicy';
import { MESSAGES } from '../../contract/errors';
import { SIGNIN_PATHS, type OtpEnrolment } from '../../contract/signin';
import { TEAM_PATHS, type Member, type OrgRole } from '../../contract/team';
import { DATABASE_TARGETS, login, pushUrl, startTestApp, type Session, type TestApp } from './harness';

const ORDERS = 'GET /order/list';
const STORES = 'GET /store/list';

describe.each(DATABASE_TARGETS)('access policies on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let packing: OrgRole;
  let other: OrgRole;
  let packer: Member;
  let clerk: Member;

  type Answer<T> = { status: number; body: { code: number; data: T; msg: string } };
  const send = async <T>(method: 'GET' | 'POST', url: string, session: Session, payload?: unknown, remoteAddress = '127.0.0.1'): Promise<Answer<T>> => {
    const response = await t.app.inject({ method, url, headers: session.headers, remoteAddress, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.json() };
  };
  const get = <T>(url: string, session: Session = seller, ip?: string) => send<T>('GET', url, session, undefined, ip);
  const post = <T>(url: string, payload: unknown, session: Session = seller, ip?: string) => send<T>('POST', url, session, payload, ip);
  const save = async (body: SavePolicyBody) => {
    const answer = await post<Policy>(P.savePolicy, body);
    expect(answer.status, answer.body.msg).toBe(200);
    return answer.body.data;
  };
  const clearPolicies = async () => {
    const all = (await get<{ list: Policy[] }>(`${P.policies}?rows=1000`)).body.data.list;
    if (all.length) await post(P.deletePolicies, { ids: all.map((policy) => policy.id) });
  };
  const log = async (query = '') => (await get<AccessLogPage>(`${P.log}?rows=1000${query}`)).body.data;

  beforeAll(async () => {
    t = await startTestApp(target, { env: { ACCESS_TOKEN_TTL_S: '3000000', REFRESH_TOKEN_TTL_S: '3000000' } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    packing = (await post<OrgRole>(TEAM_PATHS.addRole, { name: 'packing', permissions: ['orders:view', 'store:view', 'orders:ship'] })).body.data;
    other = (await post<OrgRole>(TEAM_PATHS.addRole, { name: 'clerks', permissions: ['orders:view', 'store:view'] })).body.data;
    packer = (await post<Member>(TEAM_PATHS.addMember, { username: 'packer', password: 'packer123', roleId: packing.id })).body.data;
    clerk = (await post<Member>(TEAM_PATHS.addMember, { username: 'clerk', password: 'clerk123', roleId: other.id })).body.data;
  }, 300_000);
  afterAll(() => t?.close());

  it("denies a role one area from the addresses and at the times it names, and nothing else", async () => {
    const me = await login(t.app, 'packer', 'packer123');
    const mate = await login(t.app, 'clerk', 'clerk123');
    // 2025-06-10 08:00 UTC is a Tuesday, 16:00 in Shanghai.
    const policy = await save({
      name: '仓库外网禁止看订单',
      strategy: 'deny',
      priority: 2,
      rule: { roleIds: [packing.id], resources: ['area:orders'], blacklist: ['10.1.*.*', '192.0.2.0/24'], time: { weekdays: [1, 2, 3, 4, 5], from: '09:00', to: '18:00', timeZone: 'Asia/Shanghai' } },
    });
    const refused = await get(`${P.policies}?rows=1`, seller);
    expect(refused.status).toBe(200);

    const denied = await get('/api/order/list?rows=1', me, '10.1.7.9');
    expect(denied.status).toBe(401);
    expect(denied.body.msg).toBe(policyDenied(policy.name).zh);
    // The field tells the app to show the policy's words, not the generic 401 text.
    expect(denied.body.data).toEqual({ field: 'policy' });
    expect((await get('/api/order/list?rows=1', me, '192.0.2.200')).status).toBe(401);
    // Another area, another address, another role, the owner: untouched.
    expect((await get('/api/store/list', me, '10.1.7.9')).status).toBe(200);
    expect((await get('/api/order/list?rows=1', me, '10.2.0.1')).status).toBe(200);
    expect((await get('/api/order/list?rows=1', me, '::ffff:192.0.2.1')).status).toBe(401);
    expect((await get('/api/order/list?rows=1', mate, '10.1.7.9')).status).toBe(200);
    expect((await get('/api/order/list?rows=1', seller, '10.1.7.9')).status).toBe(200);
    // The plain strategy writes no log.
    expect((await log()).total).toBe(0);

    // 19:00 in Shanghai: outside the window.
    t.clock.advance(3 * 3600_000);
    expect((await get('/api/order/list?rows=1', me, '10.1.7.9')).status).toBe(200);
    t.clock.advance(21 * 3600_000);
    expect((await get('/api/order/list?rows=1', me, '10.1.7.9')).status).toBe(401);
    // Switched off: in force no more, at once.
    await save({ id: policy.id, name: policy.name, strategy: 'deny', priority: 2, status: 0, rule: policy.rule });
    expect((await get('/api/order/list?rows=1', me, '10.1.7.9')).status).toBe(200);
    await clearPolicies();
  });

  it('writes the access log for the "and log" strategies, and a dry run denies nothing but logs', async () => {
    const me = await login(t.app, 'packer', 'packer123');
    const denyLog = await save({ name: 'deny and log', strategy: 'denyLog', priority: 3, rule: { memberIds: [packer.id], resources: [`call:${ORDERS}`] } });
    const allowLog = await save({ name: 'allow and log', strategy: 'allowLog', priority: 3, rule: { resources: [`call:${STORES}`] } });
    await save({ name: 'plain allow', strategy: 'allow', priority: 4, rule: { resources: ['area:team'] } });
    const dryRun = await save({ name: 'try: stores from outside', strategy: 'deny', priority: 1, dryRun: true, rule: { resources: [`call:${STORES}`], whitelist: ['127.0.0.1'] } });

    expect((await get('/api/order/list?rows=1', me, '203.0.113.5')).status).toBe(401);
    expect((await get('/api/store/list', me, '127.0.0.1')).status).toBe(200);
    expect((await get('/api/store/list', me, '203.0.113.5')).status).toBe(200);

    const entries = (await log()).list;
    expect(entries.map((entry) => [entry.decision, entry.policyName, entry.ip, entry.call]).sort()).toEqual(
      [
        ['deny', denyLog.name, '203.0.113.5', ORDERS],
        ['allow', allowLog.name, '127.0.0.1', STORES],
        ['allow', allowLog.name, '203.0.113.5', STORES],
        ['wouldDeny', dryRun.name, '203.0.113.5', STORES],
      ].sort(),
    );
    expect(entries.every((entry) => entry.operator === 'packer' && entry.operationType === `${entry.area} · ${entry.call}`)).toBe(true);
    // Searchable by policy (the spec's `id`), decision and text; exported.
    expect((await log(`&id=${dryRun.id}`)).total).toBe(1);
    expect((await log('&decision=deny')).list[0]?.policyName).toBe(denyLog.name);
    expect((await log('&keyword=203.0.113')).total).toBe(3);
    const file = await t.app.inject({ method: 'GET', url: `${P.logExport}?decision=allow`, headers: seller.headers });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // The spec's list filters.
    expect((await get<{ total: number }>(`${P.policies}?user=${packer.id}`)).body.data.total).toBe(1);
    expect((await get<{ total: number }>(`${P.policies}?accessResources=store`)).body.data.total).toBe(2);
    expect((await get<{ total: number }>(`${P.policies}?priority=3&status=1&enableTimePeriod=false&multiFactor=false`)).body.data.total).toBe(2);
    // Kept 180 days.
    t.clock.advance(181 * 86_400_000);
    seller = await login(t.app, 'seller', 'seller123');
    await t.app.purgeAccessLog();
    expect((await log()).total).toBe(0);
    await clearPolicies();
  });

  it('at equal priority a deny wins; a higher priority decides', async () => {
    const me = await login(t.app, 'packer', 'packer123');
    await save({ name: 'allow orders p2', strategy: 'allow', priority: 2, rule: { resources: ['area:orders'] } });
    const deny = await save({ name: 'deny orders p2', strategy: 'deny', priority: 2, rule: { resources: ['area:orders'] } });
    expect((await get('/api/order/list?rows=1', me)).body.msg).toBe(policyDenied(deny.name).zh);
    await save({ name: 'allow office p1', strategy: 'allow', priority: 1, rule: { resources: ['area:orders'], whitelist: ['127.0.0.0/8'] } });
    expect((await get('/api/order/list?rows=1', me, '127.0.0.9')).status).toBe(200);
    expect((await get('/api/order/list?rows=1', me, '198.51.100.1')).status).toBe(401);
    await clearPolicies();
  });

  it('refuses the push socket to a denied member', async () => {
    const me = await login(t.app, 'packer', 'packer123');
    await save({ name: 'no push', strategy: 'deny', priority: 1, rule: { memberIds: [packer.id], resources: [`call:${PUSH_RESOURCE}`] } });
    const url = await pushUrl(t.app, me);
    await expect(t.app.injectWS(url)).rejects.toThrow();
    const ok = await t.app.injectWS(await pushUrl(t.app, seller));
    ok.terminate();
    await clearPolicies();
  });

  it('asks for a one-time code from the last minutes before a multi-factor allow lets a call through', async () => {
    const me = await login(t.app, 'packer', 'packer123');
    const enrolment = (await post<OtpEnrolment>(SIGNIN_PATHS.otpSetup, {}, me)).body.data;
    const code = (offsetS = 0) =>
      generate({ secret: enrolment.secret, digits: enrolment.digits as 6, period: enrolment.period, algorithm: 'sha1', epoch: t.clock.now().getTime() / 1000 + offsetS });
    expect((await post(SIGNIN_PATHS.otpConfirm, { code: await code() }, me)).status).toBe(200);
    const policy = await save({ name: 'shipping needs a code', strategy: 'allow', priority: 1, rule: { resources: ['call:POST /shipOrder'], multiFactor: { kind: 'otp', minutes: 10 } } });
    const refused = await post('/api/shipOrder', { ids: ['x'] }, me);
    expect(refused.status).toBe(401);
    expect(refused.body.msg).toBe(stepUpNeeded(policy.name, 10).zh);
    expect(refused.body.data).toEqual({ field: 'stepUp' });
    // Other calls need no code.
    expect((await get('/api/order/list?rows=1', me)).status).toBe(200);
    expect((await post(P.stepUp, { code: '000000' }, me)).status).toBe(400);
    t.clock.advance(31_000);
    expect((await post(P.stepUp, { code: await code() }, me)).status).toBe(200);
    expect((await post('/api/shipOrder', { ids: ['x'] }, me)).status).not.toBe(401);
    t.clock.advance(11 * 60_000);
    expect((await post('/api/shipOrder', { ids: ['x'] }, me)).status).toBe(401);
    await clearPolicies();
    expect((await post(SIGNIN_PATHS.otpDisable, { password: 'packer123' }, me)).status).toBe(200);
  });

  it('"explain and try" answers what the server does, over generated cases', async () => {
    const members = { packer: await login(t.app, 'packer', 'packer123'), clerk: await login(t.app, 'clerk', 'clerk123') };
    const ids = { packer: packer.id, clerk: clerk.id };
    let seed = 44;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const addresses = ['10.1.2.3', '10.9.0.1', '192.0.2.7', '127.0.0.1', '2001:db8::5'];
    const patterns = ['10.1.*.*', '10.0.0.0/8', '192.0.2.7', '2001:db8::/32', '127.0.0.1'];
    const calls = [ORDERS, STORES, 'GET /permission/user/list'];
    for (let i = 0; i < 14; i++) {
      const strategy = pick(['allow', 'allowLog', 'deny', 'denyLog'] as const);
      const rule: SavePolicyBody['rule'] = {
        ...(random() < 0.5 ? { roleIds: [pick([packing.id, other.id])] } : random() < 0.5 ? { memberIds: [pick([packer.id, clerk.id])] } : {}),
        resources: random() < 0.3 ? [] : [pick(['area:orders', 'area:store', `call:${ORDERS}`, `call:${STORES}`])],
        ...(random() < 0.4 ? { blacklist: [pick(patterns)] } : {}),
        ...(random() < 0.4 ? { whitelist: [pick(patterns)] } : {}),
        ...(random() < 0.4 ? { time: { weekdays: random() < 0.5 ? [2, 3] : [], from: pick(['', '09:00', '22:00']), to: pick(['', '18:00', '06:00']), timeZone: pick(['Asia/Shanghai', 'Europe/Moscow', 'UTC']), outside: random() < 0.3 } } : {}),
      };
      await save({ name: `generated ${i}`, strategy, priority: pick([1, 2, 3, 4]), dryRun: random() < 0.15, status: random() < 0.9 ? 1 : 0, rule });
    }
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) {
      t.clock.advance(Math.floor(random() * 7 * 3600_000));
      const who = pick(['packer', 'clerk'] as const);
      const call = pick(calls);
      const ip = pick(addresses);
      const explained = (await get<Explanation>(`${P.explain}?memberId=${ids[who]}&call=${encodeURIComponent(call)}&ip=${encodeURIComponent(ip)}&at=${t.clock.now().getTime()}`)).body.data;
      const answer = await get(`/api${call.slice(4)}${call === ORDERS ? '?rows=1' : ''}`, members[who], ip);
      const server = answer.status === 200 ? 'allow' : answer.body.msg.startsWith('访问策略') ? 'deny' : 'role';
      const expected = explained.roleRefuses ? 'role' : explained.decision;
      expect(server, `${who} ${call} from ${ip} at ${t.clock.now().toISOString()}: ${JSON.stringify(explained)}`).toBe(expected);
      if (!explained.roleRefuses && explained.decision === 'deny') expect(answer.body.msg).toBe(policyDenied(explained.policyName).zh);
      seen.add(server);
    }
    // The cases reach both answers of the policies.
    expect([...seen]).toEqual(expect.arrayContaining(['allow', 'deny']));
    await clearPolicies();
  });

  it("answers the spec's role management lists with the organisation's roles and strategies, by name", async () => {
    const strategy = await save({ name: 'night shift only', strategy: 'deny', priority: 4, status: 0, rule: { roleIds: [other.id] } });
    const roles = await get<{ list: OrgRole[]; total: number }>(`${P.roleManagementPage}?name=pack`);
    expect(roles.body).toMatchObject({ code: 200, data: { total: 1, list: [{ id: packing.id, name: 'packing' }] } });
    const strategies = await get<{ list: Policy[]; total: number }>(`${P.roleManagementStrategy}?name=night&rows=5`);
    expect(strategies.body.data.list.map((policy) => policy.id)).toEqual([strategy.id]);
    expect((await get<{ total: number }>(`${P.roleManagementStrategy}?name=nothing-like-it`)).body.data.total).toBe(0);
    await clearPolicies();
  });

  it('refuses a policy with bad fields, naming the field', async () => {
    const bad = await post<null>(P.savePolicy, { name: 'x', strategy: 'deny', rule: { blacklist: ['10.0.0.300'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain(MESSAGES.addressPattern.zh);
    const zone = await post<null>(P.savePolicy, { name: 'x', strategy: 'deny', rule: { time: { timeZone: 'Mars/Olympus' } } });
    expect(zone.status).toBe(400);
    expect(zone.body.msg).toContain(MESSAGES.timeZone.zh);
    const mfa = await post<null>(P.savePolicy, { name: 'x', strategy: 'deny', rule: { multiFactor: { kind: 'otp', minutes: 5 } } });
    expect(mfa.status).toBe(400);
    expect(mfa.body.msg).toContain(MESSAGES.multiFactorDeny.zh);
    const unknown = await post<null>(P.savePolicy, { name: 'x', strategy: 'deny', rule: { resources: ['call:GET /nowhere'] } });
    expect(unknown.status).toBe(400);
    // A member of the organisation cannot reach the console without team:staff.
    const me = await login(t.app, 'packer', 'packer123');
    expect((await get(P.policies, me)).status).toBe(401);
  });
});
