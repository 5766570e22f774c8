import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { alwaysAvailable, createAvailability, type Availability } from './availability';
import { postgresNotifications, type Notifications } from './notifications';
import * as schema from './schema';

export type Schema = typeof schema;
/** What both drivers share: services are written against this, never against one driver. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

/** What runs raw statements: the database itself, or one transaction of it (Database.transaction). */
export type Queryable = {
  /**
   * A raw parameterised query ($1, $2 ...) answering plain rows. For bulk transfer let Postgres build the JSON:
   * `select json_agg(t)::text as chunk from (...) t` is several times faster than row objects on PGlite.
   */
  query<Row extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
};

export type Database = Queryable & {
  db: Db;
  kind: DatabaseKind;
  /**
   * Runs `work`'s statements as one transaction: committed when it resolves, rolled back when it throws. Raw
   * statements that must stand or fall together (a shop deleted and its rows tombstoned) go through it.
   * On PostgreSQL a transaction chosen as a deadlock's victim is run again (up to three times in all), so `work`
   * must do nothing outside the database. A delete cascading into rows a sync is upserting meets the sync's
   * foreign-key check on the parent row in the opposite order: one of the two has to give way.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * `query` that stops when `signal` aborts, throwing QueryCancelled. On PostgreSQL the running statement is
   * cancelled in the server by the protocol's CancelRequest (sendCancelRequest: a short connection of its own, so a
   * busy pool does not hold it up); the statement's connection is not given back to the pool before the server has
   * taken the cancel, so it never reaches another query. PGlite runs a statement to its end on this thread: an
   * aborted query is not started, and one aborted while it runs is thrown away when it ends.
   */
  cancellableQuery<Row extends Record<string, unknown>>(text: string, params: unknown[], signal: AbortSignal): Promise<Row[]>;
  /**
   * The rows of `select` (a query without parameters: its values written in as literals) in COPY's binary format,
   * each value in its send form (no row objects, no text rendering), handed to `read`: the bulk path of the order
   * sync. The bytes are lent for the call only (the next copy reuses their memory): `read` keeps nothing of them.
   */
  copyBinary<T>(select: string, read: (bytes: Uint8Array) => T): Promise<T>;
  /**
   * Loads rows given in COPY's text format (tab-separated, `\N` for null, one row a line) into `table (columns)`:
   * the bulk path of the market store's loads.
   */
  copyIn(table: string, columns: readonly string[], text: string): Promise<void>;
  /**
   * Applies the generated migrations in server/db/migrations (idempotent). On PostgreSQL under a database lock:
   * instances started together migrate one after the other, and the later ones find nothing left to do.
   */
  migrate(): Promise<void>;
  /**
   * Runs `work` while holding the database-wide lock named `name` (a PostgreSQL advisory lock held by a connection
   * of its own; other instances asking for the same name wait). PGlite has one process only: in-process exclusion.
   * Start-up steps that are not safe twice at once (creating the first administrator, seeding) run under it.
   */
  exclusive<T>(name: DatabaseLock, work: () => Promise<T>): Promise<T>;
  /**
   * LISTEN/NOTIFY between the server instances sharing a PostgreSQL database; null on PGlite, whose database belongs
   * to this process alone.
   */
  notifications: Notifications | null;
  /**
   * Whether the database answers, as this process last found it (availability.ts): a query failing for the loss of
   * the server marks it down and a probe with back-off marks it up again. PGlite is always up.
   */
  availability: Availability;
  close(): Promise<void>;
};

/** A query stopped by its AbortSignal (Database.cancellableQuery). */
export class QueryCancelled extends Error {
  override name = 'QueryCancelled';
  constructor() {
    super('the query was cancelled');
  }
}

/** The database-wide locks, each a fixed advisory lock key (pg_advisory_lock(namespace, key)). */
export const DATABASE_LOCKS = { migrate: 1, startup: 2 } as const;
export type DatabaseLock = keyof typeof DATABASE_LOCKS;
/** The first half of every advisory lock key of ours, so they never meet another application's in the same database. */
const LOCK_NAMESPACE = 0x5e11e7;

export type DatabaseOptions = { dataDir: string; databaseUrl: string | null };

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Embedded PGlite in DATA_DIR/pglite, or a PostgreSQL server when DATABASE_URL is set. Does not migrate. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const dir = join(options.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  return openPglite(dir);
}

/**
 * PGlite runs each statement on the server's own thread and answers with promises that are already settled, so a
 * chain of statements (a sync's pages, each stored and projected) never gave the event loop a turn: a fresh embedded
 * server with the demo answered a static page 2.5 s late while its first sync ran (measured every 100 ms). With a
 * turn after each statement, the worst wait was 1.5 s and most were 0.3-0.4 s. Statements inside a transaction
 * still run back to back.
 */
function yieldAfterEachStatement(client: PGlite): void {
  for (const name of ['query', 'exec'] as const) {
    const run = client[name].bind(client) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(client, {
      [name]: async (...args: unknown[]) => {
        try {
          return await run(...args);
        } finally {
          await nextTurn();
        }
      },
    });
  }
}

/**
 * `dataDir` undefined keeps the database in memory. `template` is a data directory dumped by PGlite's `dumpDataDir`
 * to start from instead of an empty cluster (the server tests start each database from one migrated template).
 */
export async function openPglite(dataDir?: string, template?: Blob): Promise<Database> {
  const client = await PGlite.create(dataDir, template ? { loadDataDir: template } : {});
  yieldAfterEachStatement(client);
  const db = drizzlePglite({ client, schema });
  const locks = new Map<DatabaseLock, Promise<unknown>>();
  const exclusive = <T>(name: DatabaseLock, work: () => Promise<T>): Promise<T> => {
    const result = (locks.get(name) ?? Promise.resolve()).catch(() => undefined).then(work);
    locks.set(name, result);
    return result;
  };
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    async query(text, params = []) {
      const result = await client.query<Record<string, unknown>>(text, params);
      return result.rows as never;
    },
    transaction: (work) =>
      client.transaction((tx) =>
        work({
          async query(text, params = []) {
            const result = await tx.query<Record<string, unknown>>(text, params);
            return result.rows as never;
          },
        }),
      ),
    async cancellableQuery(text, params, signal) {
      if (signal.aborted) throw new QueryCancelled();
      const result = await client.query<Record<string, unknown>>(text, params);
      if (signal.aborted) throw new QueryCancelled();
      return result.rows as never;
    },
    async copyBinary(select, read) {
      const into = copyBuffers.take();
      try {
        // As query() runs a statement: after any transaction, alone on the connection.
        await client._runExclusiveTransaction(() =>
          client._runExclusiveQuery(() =>
            client.execProtocolRawStream(simpleQuery(`copy (${select}) to stdout with (format binary)`), { syncToFs: false, onRawData: (part) => into.append(part) }),
          ),
        );
        await nextTurn();
        return read(copyDataOf(into));
      } finally {
        copyBuffers.give(into);
      }
    },
    async copyIn(table, columns, text) {
      await client.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], { blob: new Blob([text]) });
    },
    migrate: () => exclusive('migrate', () => migratePglite(db, { migrationsFolder })),
    exclusive,
    notifications: null,
    availability: alwaysAvailable(),
    close: () => client.close(),
  };
}

/** A simple-protocol Query message ('Q', its length, the statement and a NUL). */
function simpleQuery(statement: string): Uint8Array {
  const text = new TextEncoder().encode(statement);
  const message = new Uint8Array(text.byteLength + 6);
  message[0] = 0x51;
  new DataView(message.buffer).setInt32(1, text.byteLength + 5);
  message.set(text, 5);
  return message;
}

/**
 * The copy data of a `COPY ... TO STDOUT` answer given as raw protocol messages: the CopyData ('d') payloads moved
 * together at the front of the buffer, in place. An ErrorResponse ('E') throws with Postgres's message.
 * PGlite's `TO '/dev/blob'` (a file device collected into a Blob) cost twice as much per byte as this: at 100,000
 * product rows (33 MB) 3.1-3.8 s against 1.5-2.8 s, at a load of 11 on two cores.
 */
function copyDataOf(buffer: CopyBuffer): Uint8Array {
  const bytes = buffer.bytes();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let to = 0;
  let error: string | null = null;
  for (let at = 0; at + 5 <= bytes.byteLength; ) {
    const type = bytes[at]!;
    const end = at + 1 + view.getInt32(at + 1);
    if (end > bytes.byteLength) throw new Error('copy: a message cut short');
    if (type === 0x64) {
      bytes.copyWithin(to, at + 5, end);
      to += end - at - 5;
    } else if (type === 0x45) error = errorMessage(bytes.subarray(at + 5, end));
    at = end;
  }
  if (error !== null) throw new Error(error);
  return bytes.subarray(0, to);
}

/** The message ('M') field of an ErrorResponse's fields (a type byte, a NUL-ended string, ..., a NUL). */
function errorMessage(fields: Uint8Array): string {
  for (let at = 0; at < fields.byteLength && fields[at] !== 0; ) {
    const end = fields.indexOf(0, at + 1);
    if (fields[at] === 0x4d) return new TextDecoder().decode(fields.subarray(at + 1, end));
    at = end + 1;
  }
  return 'copy failed';
}

/**
 * A growing byte buffer a copy is collected in. A frame's copy is ~30 MB; memory that large is fresh from the system
 * each time it is allocated (page faults, then zeroing), which cost more than reading the copy. So the buffer of
 * one copy is kept for the next (one spare: concurrent copies allocate their own).
 */
class CopyBuffer {
  private buffer = new Uint8Array(1 << 20);
  private length = 0;

  get capacity(): number {
    return this.buffer.byteLength;
  }

  append(part: Uint8Array): void {
    if (this.length + part.byteLength > this.buffer.byteLength) {
      const grown = new Uint8Array(Math.max(this.buffer.byteLength * 2, this.length + part.byteLength));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(part, this.length);
    this.length += part.byteLength;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}

const copyBuffers = {
  spare: null as CopyBuffer | null,
  take(): CopyBuffer {
    const buffer = this.spare ?? new CopyBuffer();
    this.spare = null;
    buffer.clear();
    return buffer;
  },
  give(buffer: CopyBuffer): void {
    if (!this.spare || this.spare.capacity < buffer.capacity) this.spare = buffer;
  },
};

/** PostgreSQL's SQLSTATE for a transaction ended as a deadlock's victim. */
const DEADLOCK_DETECTED = '40P01';
const TRANSACTION_ATTEMPTS = 3;

/** The connections each PostgreSQL database (the main one, and the read replica when there is one) pools at most. */
export const POOL_SIZE = 10;

/** What node-postgres keeps of a connection that a cancel request needs (left out of its typings). */
type BackendKey = { host: string; port: number; processID: number | null; secretKey: number | null };
/** node-postgres's socket-level connection (pg.Connection, as pg's own Client.cancel drives it): the calls its typings leave out. */
type ProtocolConnection = {
  stream: { destroy(): void };
  connect(portOrPath: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
  on(event: 'error', listener: () => void): void;
  once(event: 'connect' | 'end', listener: () => void): void;
};

/** How long a cancel request may take to reach the server before its statement's connection is given up. */
const CANCEL_DELIVERY_MS = 5_000;

/**
 * Sends PostgreSQL's CancelRequest for the statement `client` is running: a new connection to the server `client`
 * is connected to (a replica's statement is cancelled on the replica) that carries the backend's pid and secret key
 * instead of a login, which the server closes once it has signalled the backend. It needs no pool connection, so a
 * busy pool does not delay it. Sent unencrypted, as libpq's PQcancel and pg's own Client.cancel do: it holds the
 * one-connection cancel key, no credentials. Resolves true once the server has taken the request (it closes the
 * connection after signalling the backend); false otherwise (not sent, refused, or no answer within
 * CANCEL_DELIVERY_MS), when whether and when it arrives is not known.
 */
function sendCancelRequest(client: pg.PoolClient): Promise<boolean> {
  const { host, port, processID, secretKey } = client as unknown as BackendKey;
  if (processID === null || secretKey === null) return Promise.resolve(false);
  const connection = new pg.Connection() as unknown as ProtocolConnection;
  return new Promise((resolve) => {
    let sent = false;
    let failed = false;
    const settle = (taken: boolean) => {
      clearTimeout(timer);
      connection.stream.destroy();
      resolve(taken);
    };
    const timer = setTimeout(() => settle(false), CANCEL_DELIVERY_MS);
    connection.on('error', () => void (failed = true));
    connection.once('connect', () => {
      connection.cancel(processID, secretKey);
      sent = true;
    });
    connection.once('end', () => settle(sent && !failed));
    if (host.startsWith('/')) connection.connect(`${host}/.s.PGSQL.${port}`);
    else connection.connect(port, host);
  });
}

export type PostgresOptions = {
  /**
   * Connect once before answering, so a wrong address or password fails at start with the server's own words
   * (default). Off for a read replica, which may be away when the server starts (its queries go to the primary then).
   */
  connectNow?: boolean;
  /** Told when the database becomes unreachable and when it answers again. */
  onAvailability?: (up: boolean, outageMs: number) => void;
};

/** How long a connection may take to be made (or to be free in a full pool) before its query fails. */
const CONNECT_TIMEOUT_MS = 15_000;

export async function openPostgres(connectionString: string, options: PostgresOptions = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  const availability = createAvailability(() => pool.query('select 1'));
  if (options.onAvailability) availability.onChange(options.onAvailability);
  // An idle connection the server ended (a restart, a failover, a database dropped with force) is an 'error' event on
  // the pool, which throws in the process when nobody listens: the pool has already dropped that connection and the
  // next query opens a new one, so there is nothing more to do than note it.
  pool.on('error', (error) => {
    if (!availability.failed(error)) process.emitWarning(`PostgreSQL closed an idle connection: ${error.message}`, { code: 'PG_IDLE_CONNECTION' });
  });
  // A connection lent out (a transaction, a copy) that the server ends is an 'error' event on the client itself, with
  // no listener of pg's own while it is lent: without this one it ended the process. Its query fails by itself.
  pool.on('connect', (client) => {
    client.on('error', (error) => void availability.failed(error));
  });
  /** A failure of `work` that is the database's loss marks it down; the failure goes on to the caller. */
  const noting = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      availability.answered();
      return result;
    } catch (error) {
      availability.failed(error);
      throw error;
    }
  };
  if (options.connectNow ?? true) {
    // Fail at start, with the server's own words, rather than at the first request.
    const probe = await pool.connect().catch(async (error: unknown) => {
      availability.stop();
      await pool.end().catch(() => undefined);
      throw error;
    });
    probe.release();
  }
  const db = drizzlePostgres({ client: pool, schema });
  const exclusive = async <T>(name: DatabaseLock, work: () => Promise<T>): Promise<T> => {
    // A session lock on a connection of its own, given back when the work ends (or with the connection, if this
    // process dies): the work itself may use any of the pool's connections.
    const holder = new pg.Client({ connectionString });
    // Its loss ends the lock with it; the work's own queries report their failures.
    holder.on('error', () => undefined);
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, DATABASE_LOCKS[name]]);
      return await work();
    } finally {
      await holder.end();
    }
  };
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    async query(text, params = []) {
      const result = await noting(() => pool.query(text, params));
      return result.rows;
    },
    transaction: (work) => noting(async () => {
      for (let attempt = 1; ; attempt++) {
        const connection = await pool.connect();
        try {
          await connection.query('begin');
          const result = await work({
            async query(text, params = []) {
              return (await connection.query(text, params)).rows;
            },
          });
          await connection.query('commit');
          connection.release();
          return result;
        } catch (error) {
          // A connection whose rollback fails is in an unknown state: closed, not reused.
          const rolledBack = await connection.query('rollback').then(() => true, () => false);
          connection.release(rolledBack ? undefined : (error as Error));
          if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= TRANSACTION_ATTEMPTS) throw error;
        }
      }
    }),
    cancellableQuery: (text, params, signal) => noting(async () => {
      if (signal.aborted) throw new QueryCancelled();
      const connection = await pool.connect();
      let cancelling: Promise<boolean> | null = null;
      const cancel = () => void (cancelling = sendCancelRequest(connection));
      signal.addEventListener('abort', cancel, { once: true });
      try {
        const result = await connection.query(text, params);
        if (signal.aborted) throw new QueryCancelled();
        return result.rows;
      } catch (error) {
        if (signal.aborted || (error as { code?: string }).code === '57014') throw new QueryCancelled();
        throw error;
      } finally {
        signal.removeEventListener('abort', cancel);
        // A cancel the server has not been seen to take may still stop the connection's next statement: closed, not reused.
        const unsettled = cancelling !== null && !(await cancelling);
        connection.release(unsettled ? new Error('a cancel request was not seen to reach the server') : undefined);
      }
    }),
    copyBinary: (select, read) => noting(async () => {
      const connection = await pool.connect();
      const into = copyBuffers.take();
      try {
        try {
          for await (const part of connection.query(copyTo(`copy (${select}) to stdout with (format binary)`))) into.append(part as Buffer);
        } catch (error) {
          // A copy cut short may leave the connection mid-protocol: it is closed, not reused.
          connection.release(error as Error);
          throw error;
        }
        connection.release();
        return read(into.bytes());
      } finally {
        copyBuffers.give(into);
      }
    }),
    copyIn: (table, columns, text) => noting(async () => {
      const connection = await pool.connect();
      try {
        await pipeline(Readable.from([text]), connection.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`)));
      } catch (error) {
        connection.release(error as Error);
        throw error;
      }
      connection.release();
    }),
    // Without the lock, two instances started together both ran CREATE TABLE and one crashed on pg_type's unique index.
    migrate: () => exclusive('migrate', () => migratePostgres(db, { migrationsFolder })),
    exclusive,
    notifications: postgresNotifications(connectionString, pool),
    availability,
    close: () => {
      availability.stop();
      return pool.end();
    },
  };
}
