import type { Config } from '../../config';
import type { Db } from '../../db/database';

/** What the session services need; the Fastify instance provides it (decorations `db`, `config`, `now`). */
export type ServiceDeps = { db: Db; config: Config; now: () => Date };
