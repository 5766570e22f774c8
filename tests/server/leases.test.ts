import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { createLeases, whileHolding } from '../../server/db/leases';
import { ALL_DATABASE_TARGETS } from './harness';

/**
 * Leases on background work (server/db/leases.ts): the price guard's runs and the buyer-chat poller hold them, and
 * fence their writes with them, so the same work never runs twice, on one instance or two.
 */
describe.each(ALL_DATABASE_TARGETS)('job leases on $kind', (target) => {
  let database: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dispose } = await target.open());
    await database.migrate();
  });
  afterAll(() => dispose?.());

  const fencedWrite = async (holding: Parameters<typeof whileHolding>[0]) => {
    const held = whileHolding(holding, 1);
    return (await database.query(`select 1 where ${held.sql}`, held.params)).length > 0;
  };

  it('a run\'s lease shuts out a second run on the same instance, and another instance, until it is given back', async () => {
    const here = createLeases(database);
    const there = createLeases(database);
    const run = await here.acquireRun('work-a', 60_000);
    expect(run).not.toBeNull();
    expect(await here.acquireRun('work-a', 60_000)).toBeNull();
    expect(await here.acquire('work-a', 60_000)).toBeNull();
    expect(await there.acquireRun('work-a', 60_000)).toBeNull();
    expect(await fencedWrite(run!)).toBe(true);
    await here.release(run!);
    const next = await there.acquireRun('work-a', 60_000);
    expect(next).not.toBeNull();
    expect(next!.generation).toBeGreaterThan(run!.generation);
    // The first run's writes are refused from now on, even though the same instance made them.
    expect(await fencedWrite(run!)).toBe(false);
    await there.release(next!);
  });

  it('a run that outlived its lease is taken over: its renewals and fenced writes fail, the successor\'s work', async () => {
    const slow = createLeases(database);
    const other = createLeases(database);
    const stalled = await slow.acquireRun('work-b', 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const successor = await other.acquireRun('work-b', 60_000);
    expect(successor).not.toBeNull();
    expect(await slow.renew(stalled!, 60_000)).toBe(false);
    expect(await fencedWrite(stalled!)).toBe(false);
    expect(await fencedWrite(successor!)).toBe(true);
    // Giving back the stalled run's lease leaves the successor's alone.
    await slow.release(stalled!);
    expect(await fencedWrite(successor!)).toBe(true);
    await other.release(successor!);
  });

  it('keepRenewing holds a lease past its time while the run works, and reports when it was taken over', async () => {
    const leases = createLeases(database);
    // Renewed every third of its time: a lease of 1.5 s survives a renewal or two delayed by a loaded machine.
    const run = await leases.acquireRun('work-c', 1_500);
    const heartbeat = leases.keepRenewing(run!, 1_500);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(heartbeat.lost).toBe(false);
    expect(await createLeases(database).acquireRun('work-c', 60_000)).toBeNull();
    // Taken over by force (as after a stall): the next renewal notices.
    await database.query(`update job_leases set owner = 'someone else', generation = generation + 1 where name = 'work-c'`);
    await vi.waitFor(() => expect(heartbeat.lost).toBe(true), { timeout: 5_000 });
    heartbeat.stop();
  });
});
