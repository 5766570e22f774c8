import { describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/db/database';
import { createAvailability, isDatabaseUnavailable } from '../../server/db/availability';
import { createSyncScheduler } from '../../server/areas/sync/scheduler';
import type { SyncService } from '../../server/areas/sync/service';
import { createBuyerChatWatcher } from '../../server/areas/chat/watcher';
import type { BuyerChatService } from '../../server/areas/chat/service';
import { createLeasedSchedule } from '../../server/db/schedule';
import type { Leases } from '../../server/db/leases';
import { whenDatabaseAnswers } from '../../server/processGuards';

/**
 * The background loops while the database fails (a PostgreSQL restart, or any query failing on PGlite): each turn
 * that meets the failure is logged and settles, so nothing escapes as an unhandled rejection (which ended the
 * process), and the next turn tries again. The process-level proof is databaseOutage.test.ts.
 */
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const failingDatabase = { query: () => Promise.reject(refused) } as unknown as Database;
const log = () => ({ error: vi.fn(), warn: vi.fn() });

describe('background loops while the database fails', () => {
  it('the sync scheduler logs a failed look, starts nothing and looks again at the next tick', async () => {
    const sync = { busyShops: () => [], runShop: vi.fn() } as unknown as SyncService;
    const logged = log();
    const scheduler = createSyncScheduler(failingDatabase, sync, { log: logged });
    await expect(scheduler.tick()).resolves.toEqual([]);
    await expect(scheduler.tick()).resolves.toEqual([]);
    expect(logged.error).toHaveBeenCalledTimes(2);
    expect(sync.runShop).not.toHaveBeenCalled();
  });

  it('the buyer-chat poller logs a failed pass (its first read was outside the try) and polls again', async () => {
    const service = { shopsOf: () => Promise.reject(refused) } as unknown as BuyerChatService;
    const logged = log();
    const leases = { acquire: () => Promise.reject(refused), release: async () => undefined } as unknown as Leases;
    const watcher = createBuyerChatWatcher({ service, onlineUserIds: () => [1], push: vi.fn(), log: logged, intervalMs: 0 });
    await expect(watcher.tick()).resolves.toBeUndefined();
    const leased = createBuyerChatWatcher({
      service: { shopsOf: async () => [{ id: 1, status: 'active' }] } as unknown as BuyerChatService,
      onlineUserIds: () => [1],
      push: vi.fn(),
      log: logged,
      intervalMs: 0,
      leases,
    });
    await expect(leased.tick()).resolves.toBeUndefined();
    expect(logged.error).toHaveBeenCalledTimes(2);
  });

  it('a leased schedule logs a failed run and answers idle', async () => {
    const logged = log();
    const leases = { acquire: () => Promise.reject(refused), release: async () => undefined } as unknown as Leases;
    const schedule = createLeasedSchedule({ leases, name: 'x', intervalMs: 0, run: async () => 1, idle: 0, log: logged });
    await expect(schedule.tick()).resolves.toBe(0);
    expect(logged.error).toHaveBeenCalledOnce();
  });
});

describe('what counts as the database away', () => {
  it("is a refused or dropped connection, a server shutting down or starting, Drizzle's wrapping of them; not a bad statement", () => {
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('Failed query: select 1'), { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused, refused], ''))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('password authentication failed'), { code: '28P01' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });

  it('marks the database down on such a failure and up again on the first answer (probe or query)', async () => {
    let answers = false;
    const availability = createAvailability(async () => {
      if (!answers) throw refused;
    }, { first: 5, max: 20 });
    const changes: boolean[] = [];
    availability.onChange((up) => changes.push(up));
    expect(availability.failed(new Error('syntax error'))).toBe(false);
    expect(availability.up).toBe(true);
    expect(availability.failed(refused)).toBe(true);
    expect(availability.up).toBe(false);
    await new Promise((done) => setTimeout(done, 50));
    expect(availability.up).toBe(false);
    answers = true;
    await vi.waitFor(() => expect(availability.up).toBe(true));
    expect(changes).toEqual([false, true]);
    availability.failed(refused);
    availability.answered();
    expect(availability.up).toBe(true);
    availability.stop();
  });

  it('at start, waits while the database cannot be reached, and gives up at once on anything else', async () => {
    const lines: string[] = [];
    let tries = 0;
    const opened = await whenDatabaseAnswers('start', async () => {
      if (++tries < 3) throw refused;
      return 'open';
    }, (line) => lines.push(line), { first: 5, max: 10 });
    expect(opened).toBe('open');
    expect(lines).toEqual([expect.stringMatching(/^start: the database cannot be reached/), expect.stringMatching(/cannot be reached/), expect.stringMatching(/^start: the database answered after/)]);
    await expect(whenDatabaseAnswers('start', () => Promise.reject(new Error('password authentication failed')), () => undefined)).rejects.toThrow('password');
  });
});
