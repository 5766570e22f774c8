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
  /** Gives the lease back, so another instance may take it at once. */
  release(name: string): Promise<void>;
};

export function createLeases(database: Database, owner: string = randomUUID()): Leases {
  return {
    owner,
    async acquire(name, ttlMs) {
      const [row] = await database.query<{ generation: number }>(
        `insert into job_leases as l (name, owner, generation, lease_until)
         values ($1, $2, 1, now() + $3 * interval '1 millisecond')
         on conflict (name) do update
           set owner = excluded.owner,
               generation = l.generation + (case when l.owner = excluded.owner then 0 else 1 end),
               lease_until = excluded.lease_until
           where l.owner = excluded.owner or l.lease_until < now()
         returning generation`,
        [name, owner, ttlMs],
      );
      return row ? { name, owner, generation: row.generation } : null;
    },
    async renew(holding, ttlMs) {
      const rows = await database.query(
        `update job_leases set lease_until = now() + $4 * interval '1 millisecond'
         where name = $1 and owner = $2 and generation = $3 returning 1`,
        [holding.name, holding.owner, holding.generation, ttlMs],
      );
      return rows.length > 0;
    },
    async release(name) {
      await database.query(`delete from job_leases where name = $1 and owner = $2`, [name, owner]);
    },
  };
}
