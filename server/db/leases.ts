import { randomUUID } from 'node:crypto';
import type { Database } from './database';

/**
 * Leases on background work that must run on one server instance at a time (job_leases). A lease is held by one
 * owner until it runs out; the holder renews it while it works, and another instance takes it over only once it has
 * run out. Times are the database's clock, so instances whose clocks disagree still agree on who holds what.
 * `generation` counts the takeovers: work that writes names it (`holds`), so a holder that lost its lease (it
 * stalled past the end) has its late writes refused instead of undoing its successor's.
 */
export type LeaseHolding = { name: string; owner: string; generation: number };

export type Leases = {
  readonly owner: string;
  /** Takes the lease if it is free or has run out, or renews it if this owner holds it; null while another does. */
  acquire(name: string, ttlMs: number): Promise<LeaseHolding | null>;
  /** Whether `holding` is still the lease's current one (renewing it by `ttlMs` when it is). */
  renew(holding: LeaseHolding, ttlMs: number): Promise<boolean>;
  /**
   * Takes the lease for one run of work with an owner of its own, so a second run on this same instance finds it
   * held too (acquire() lets this instance's owner renew its own lease). Null while anyone holds it.
   */
  acquireRun(name: string, ttlMs: number): Promise<LeaseHolding | null>;
  /** Gives the lease back, so another instance may take it at once: this instance's, or one run's (acquireRun). */
  release(lease: string | LeaseHolding): Promise<void>;
  /**
   * Renews `holding` every third of `ttlMs` while a run works (a slow marketplace call must not let it run out);
   * `lost` is set once a renewal finds it taken over. `stop()` ends the renewals.
   */
  keepRenewing(holding: LeaseHolding, ttlMs: number): { readonly lost: boolean; stop(): void };
};

/**
 * A condition that holds while `holding` is still the lease's current one, for a write that must not happen after its
 * run lost the lease (fencing): `where ${sql}` with `params` appended from parameter `$first` on.
 */
export function whileHolding(holding: LeaseHolding, first: number): { sql: string; params: unknown[] } {
  return {
    sql: `exists (select 1 from job_leases where name = $${first} and owner = $${first + 1} and generation = $${first + 2} and lease_until > now())`,
    params: [holding.name, holding.owner, holding.generation],
  };
}

export function createLeases(database: Database, owner: string = randomUUID()): Leases {
  const take = async (name: string, ttlMs: number, by: string): Promise<LeaseHolding | null> => {
    const [row] = await database.query<{ generation: number }>(
      `insert into job_leases as l (name, owner, generation, lease_until)
       values ($1, $2, 1, now() + $3 * interval '1 millisecond')
       on conflict (name) do update
         set owner = excluded.owner,
             generation = l.generation + (case when l.owner = excluded.owner then 0 else 1 end),
             lease_until = excluded.lease_until
         where l.owner = excluded.owner or l.lease_until < now()
       returning generation`,
      [name, by, ttlMs],
    );
    return row ? { name, owner: by, generation: row.generation } : null;
  };
  const renew = async (holding: LeaseHolding, ttlMs: number) => {
    const rows = await database.query(
      `update job_leases set lease_until = now() + $4 * interval '1 millisecond'
       where name = $1 and owner = $2 and generation = $3 returning 1`,
      [holding.name, holding.owner, holding.generation, ttlMs],
    );
    return rows.length > 0;
  };
  return {
    owner,
    acquire: (name, ttlMs) => take(name, ttlMs, owner),
    acquireRun: (name, ttlMs) => take(name, ttlMs, `${owner}/${randomUUID()}`),
    renew,
    // Ended, not deleted: the row keeps counting generations, so a released holding never matches a later one.
    async release(lease) {
      const [name, by, generation] = typeof lease === 'string' ? [lease, owner, null] : [lease.name, lease.owner, lease.generation];
      await database.query(
        `update job_leases set lease_until = '-infinity' where name = $1 and owner = $2 and ($3::int is null or generation = $3)`,
        [name, by, generation],
      );
    },
    keepRenewing(holding, ttlMs) {
      let lost = false;
      const timer = setInterval(() => {
        renew(holding, ttlMs).then(
          (held) => (lost ||= !held),
          () => undefined, // a failed renewal is retried at the next tick; the fenced writes decide
        );
      }, ttlMs / 3);
      timer.unref?.();
      return {
        get lost() {
          return lost;
        },
        stop: () => clearInterval(timer),
      };
    },
  };
}
