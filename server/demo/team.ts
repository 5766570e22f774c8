import type { Database } from '../db/database';
import { hashPassword } from '../areas/session/passwords';
import { newPasswordStamp } from '../areas/session/service';

/**
 * The demo seller's organisation: two departments and two staff members, printed with the demo accounts. The
 * shipper sees orders, shipping and labels of shop 1001 only; the operator products, prices and promotions of both
 * shops, and no staff management. Once per database, like the demo shops.
 */
export const DEMO_STAFF = [
  { username: 'shipper', password: 'shipper123', what: 'staff of seller: orders, shipping and labels of shop 1001 only' },
  { username: 'operator', password: 'operator123', what: 'staff of seller: products, prices and promotions of both shops' },
] as const;

const SEEDED_KEY = 'demo.teamSeeded';

export function demoStaffTable(): string {
  const rows = [['user', 'password', 'what'], ...DEMO_STAFF.map((staff) => [staff.username, staff.password, staff.what])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('   ')}`.trimEnd();
  return [line(rows[0]!), line(widths.map((width) => '-'.repeat(width))), ...rows.slice(1).map(line)].join('\n');
}

/** `shopIds`: the demo shops 1001 and 1002 (seedDemoShops' answer). */
export async function seedDemoTeam(database: Database, shopIds: readonly number[]): Promise<void> {
  const [shop1001, shop1002] = shopIds;
  if (shop1001 === undefined || shop1002 === undefined) return;
  const [seller] = await database.query<{ id: number }>(`select id from users where username = 'seller'`);
  if (!seller) return;
  const [seeded] = await database.query(`select 1 from mp_settings where key = $1`, [SEEDED_KEY]);
  if (seeded) return;
  const [taken] = await database.query(`select 1 from users where lower(username) = any($1::text[])`, [DEMO_STAFF.map((staff) => staff.username)]);
  if (taken) return;
  const hashes = await Promise.all(DEMO_STAFF.map((staff) => hashPassword(staff.password)));
  await database.transaction(async (tx) => {
    const dept = async (name: string, sort: number, shops: number[]) =>
      (await tx.query<{ id: number }>(`insert into org_departments (org_id, name, sort, shop_ids) values ($1, $2, $3, $4::int[]) returning id`, [seller.id, name, sort, shops]))[0]!.id;
    const logistics = await dept('仓储物流部', 1, [shop1001]);
    const operations = await dept('运营部', 2, [shop1001, shop1002]);
    const position = async (name: string, type: string, deptId: number) =>
      (await tx.query<{ id: number }>(`insert into org_positions (org_id, name, type, dept_id, director, number) values ($1, $2, $3, $4, 'seller', 1) returning id`, [seller.id, name, type, deptId]))[0]!.id;
    const role = async (name: string, note: string, permissions: string[], dataScope: string, shops: number[]) =>
      (
        await tx.query<{ id: number }>(
          `insert into org_roles (org_id, name, note, source, creator, permissions, data_scope, shop_ids) values ($1, $2, $3, 'demo', 'seller', $4::text[], $5, $6::int[]) returning id`,
          [seller.id, name, note, permissions, dataScope, shops],
        )
      )[0]!.id;
    const shipperRole = await role('发货员', '订单、发货与面单（仅 1001 店）', ['store:view', 'orders:view', 'orders:edit', 'orders:ship'], 'shops', [shop1001]);
    const operatorRole = await role(
      '运营',
      '商品、价格与促销（两家店）',
      ['store:view', 'products:view', 'products:edit', 'products:price', 'products:publish', 'actions:view', 'actions:promote', 'actions:price'],
      'all',
      [],
    );
    const member = async (index: number, nickName: string, deptId: number, positionId: number, roleId: number) => {
      const staff = DEMO_STAFF[index]!;
      const [user] = await tx.query<{ id: number }>(
        `insert into users (username, password_hash, password_stamp, is_ap, relative_id) values ($1, $2, $3, true, $4) returning id`,
        [staff.username, hashes[index], newPasswordStamp(), seller.id],
      );
      await tx.query(`insert into org_members (user_id, org_id, nick_name, dept_id, position_id, role_id) values ($1, $2, $3, $4, $5, $6)`, [user!.id, seller.id, nickName, deptId, positionId, roleId]);
    };
    await member(0, '发货小王', logistics, await position('发货专员', '仓储', logistics), shipperRole);
    await member(1, '运营小李', operations, await position('运营专员', '运营', operations), operatorRole);
    await tx.query(`insert into mp_settings (key, value) values ($1, 'true'::jsonb) on conflict (key) do nothing`, [SEEDED_KEY]);
  });
}
