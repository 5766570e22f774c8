import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Role } from '../../contract/session';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { featureUpdates, notices, users } from '../db/schema';
import { DEFAULT_FEATURE_UPDATE_TITLE } from '../../contract/notice';
import { newPasswordStamp } from '../areas/session/service';
import { hashPassword } from '../areas/session/passwords';

type ValidityColumn = 'followValidTime' | 'plugValidTime' | 'searchWordValidTime' | 'keyWordValidTime';

/** `email`, `phone`: where a forgotten password's code goes (the demo's land at /sim/mail). */
export type DemoAccount = { username: string; password: string; roles: Role[]; validFor: ValidityColumn[]; email?: string; phone?: string };

/** The demo accounts main.ts prints at start; one per kind of user the spec names. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { username: 'admin', password: 'admin123', roles: ['admin'], validFor: [] },
  { username: 'seller', password: 'seller123', roles: ['follow'], validFor: ['followValidTime', 'plugValidTime'], email: 'seller@demo.local', phone: '13800138000' },
  { username: 'analyst', password: 'analyst123', roles: ['search', 'keyword'], validFor: ['searchWordValidTime', 'keyWordValidTime'] },
  { username: 'newbie', password: 'newbie123', roles: [], validFor: [] },
];

/** The demo accounts as a plain aligned table for the console (no index column, no quotes). */
export function demoAccountsTable(accounts: readonly DemoAccount[]): string {
  const rows = [['user', 'password', 'roles'], ...accounts.map((account) => [account.username, account.password, account.roles.join(', ') || '(none)'])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('   ')}`.trimEnd();
  return [line(rows[0]!), line(widths.map((width) => '-'.repeat(width))), ...rows.slice(1).map(line)].join('\n');
}

export const WELCOME_NOTICE = '欢迎使用跨境卖家后台！演示数据每次启动时保留，可随意操作。 / Welcome to the Seller Back Office: the demo data is yours to try things on.';

/** The feature-update dialog's announcement of seller-tool §2.4. */
export const FEATURE_UPDATE_2025_06_05 = {
  startDate: '2025-06-05',
  title: DEFAULT_FEATURE_UPDATE_TITLE,
  items: [
    {
      zh: '平台订单可按货件或按商品行查看；发货前确认，面单就绪后自动获取并打印。',
      en: 'Platform orders by posting or by product line; shipping asks first, and labels are fetched and printed as soon as Ozon has them.',
      path: '/order-manager/order-list',
    },
    {
      zh: '买家聊天：被 Ozon 拒绝的回复标为失败并显示原因，可重新发送。',
      en: 'Buyer chat: a reply Ozon refuses is marked failed with its reason, to send again.',
      path: '/chat-manager/chat-list',
    },
    {
      zh: '商品管理新增“下架后重新上架”功能，可将已下架商品一键重新上架。',
      en: 'Product management: re-list products after a takedown in one step.',
      path: '/product/oz-reupload-product',
    },
    {
      zh: '热销商品库与新品库全面升级：数据更多，筛选条件更丰富。',
      en: 'The hot-selling and new-product libraries are upgraded with more data and more filters.',
      path: '/search/hot-product-pro',
    },
    {
      zh: '店铺管理支持一键归档已下架商品和错误商品。',
      en: 'Shop management: archive taken-down products and error products in one click.',
      path: '/store/store-list',
    },
    {
      zh: '采集列表支持上传本地图片，并可编辑、裁剪。',
      en: 'Collection list: upload local images, then edit and crop them.',
      path: '/collection/collection-list',
    },
  ],
};

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** A demo account's validity period is renewed at a start that finds less than this left of it. */
const RENEW_WITHIN_MS = 30 * 24 * 3600 * 1000;

/**
 * Demo users, the welcome notice and the feature-update announcement. Idempotent: existing accounts are left as
 * they are (a demo user who changed a password keeps it), so it runs at every start. Validity periods run a year
 * from the first seeding, and again a year from a start that finds less than a month of one left: the demo works
 * whatever day it starts.
 */
export async function seedDemoUsers(db: Db, now: Date = new Date()): Promise<void> {
  const renewed = new Date(now.getTime() + YEAR_MS);
  // A password is hashed only for an account that is missing: four scrypt hashes were most of a restart's seeding.
  const present = new Set(
    (
      await db
        .select({ name: sql<string>`lower(${users.username})` })
        .from(users)
        .where(inArray(sql`lower(${users.username})`, DEMO_ACCOUNTS.map((account) => account.username)))
    ).map((row) => row.name),
  );
  for (const account of DEMO_ACCOUNTS) {
    const times = Object.fromEntries(account.validFor.map((column) => [column, renewed]));
    if (!present.has(account.username)) {
      await db
        .insert(users)
        .values({
          username: account.username,
          passwordHash: await hashPassword(account.password),
          passwordStamp: newPasswordStamp(),
          roles: account.roles,
          email: account.email ?? null,
          phone: account.phone ?? null,
          ...times,
        })
        .onConflictDoNothing();
    }
    for (const column of account.validFor) {
      await db
        .update(users)
        .set({ [column]: renewed })
        .where(and(eq(users.username, account.username), lt(users[column], new Date(now.getTime() + RENEW_WITHIN_MS))));
    }
  }
  const [existing] = await db.select({ id: notices.id }).from(notices).where(eq(notices.text, WELCOME_NOTICE)).limit(1);
  if (!existing) await db.insert(notices).values({ text: WELCOME_NOTICE, updateTime: now });
  const [announced] = await db
    .select({ id: featureUpdates.id })
    .from(featureUpdates)
    .where(eq(featureUpdates.startDate, FEATURE_UPDATE_2025_06_05.startDate))
    .limit(1);
  if (!announced) await db.insert(featureUpdates).values({ ...FEATURE_UPDATE_2025_06_05, active: true, createdAt: now, updatedAt: now });
}

export class SeedError extends Error {
  override name = 'SeedError';
}

/**
 * Production: no demo users; the first start creates `admin` from ADMIN_PASSWORD and refuses to go on without it
 * while no administrator exists.
 */
export async function ensureAdmin(db: Db, config: Pick<Config, 'adminPassword'>): Promise<'created' | 'exists'> {
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`'admin' = any(${users.roles})`)
    .limit(1);
  if (admin) return 'exists';
  if (!config.adminPassword) {
    throw new SeedError('No administrator exists yet: set ADMIN_PASSWORD (8-64 characters, letters and digits) for the first start.');
  }
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, 'admin'))
    .limit(1);
  if (taken) throw new SeedError('A user named "admin" exists without the admin role; grant it the role in the database or rename it.');
  await db.insert(users).values({
    username: 'admin',
    passwordHash: await hashPassword(config.adminPassword),
    passwordStamp: newPasswordStamp(),
    roles: ['admin'],
  });
  return 'created';
}

/** What main.ts runs after migrating. */
export async function seedForStart(db: Db, config: Pick<Config, 'demo' | 'adminPassword'>): Promise<void> {
  if (config.demo) await seedDemoUsers(db);
  else await ensureAdmin(db, config);
}
