import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { openDatabase, type Database, type Db } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    /** Drizzle over PGlite or PostgreSQL; services take it through their deps. */
    db: Db;
    config: Config;
    /** The server's clock; tests inject a controllable one. */
    now: () => Date;
  }
}

export type DatabasePluginOptions = { config: Config; database?: Database; now?: () => Date };

/** Opens the configured database unless one is given (tests, main.ts), and closes only what it opened. */
export const databasePlugin = fp(async function databasePlugin(app: FastifyInstance, options: DatabasePluginOptions) {
  const database = options.database ?? (await openDatabase(options.config));
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('config', options.config);
  app.decorate('now', options.now ?? (() => new Date()));
  if (!options.database) app.addHook('onClose', async () => database.close());
});
