import { afterEach, describe, expect, it } from 'vitest';
import { ensureAdmin, seedDemoUsers, seedForStart } from '../../server/demo/seed';
import type { Database } from '../../server/db/database';
import { ALL_DATABASE_TARGETS } from './harness';

describe.each(ALL_DATABASE_TARGETS)('seeding on $kind', (target) => {
  let opened: { database: Database; dispose(): Promise<void> } | undefined;
  const open = async () => {
    opened = await target.open();
    await opened.database.migrate();
    return opened.database;
  };
  afterEach(async () => {
    await opened?.dispose();
    opened = undefined;
  });

  it('demo seeding is idempotent: four accounts and one welcome notice after two runs', async () => {
    const database = await open();
    await seedDemoUsers(database.db);
    await seedDemoUsers(database.db);
    const users = await database.query<{ username: string; roles: string[] }>('select username, roles from users order by id');
    expect(users.map((u) => u.username)).toEqual(['admin', 'seller', 'analyst', 'newbie']);
    expect((await database.query('select * from notices')).length).toBe(1);
  });

  it('production: refuses to start without ADMIN_PASSWORD, creates admin with it, and seeds no demo users', async () => {
    const database = await open();
    await expect(seedForStart(database.db, { demo: false, adminPassword: null })).rejects.toThrow(/ADMIN_PASSWORD/);
    await seedForStart(database.db, { demo: false, adminPassword: 'Str0ngPassw0rd' });
    const users = await database.query<{ username: string; roles: string[] }>('select username, roles from users');
    expect(users).toEqual([{ username: 'admin', roles: ['admin'] }]);
    // Later starts need no password any more.
    await expect(ensureAdmin(database.db, { adminPassword: null })).resolves.toBe('exists');
  });
});
