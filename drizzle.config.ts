import { defineConfig } from 'drizzle-kit';

// The same generated SQL runs on embedded PGlite and on a PostgreSQL server (server/db/database.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
