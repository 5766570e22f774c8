import pg from 'pg';

/** Runs one statement on its own connection to the PostgreSQL server at `url` (creating and dropping databases). */
async function adminQuery(url: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** Creates database `name` (a copy of `template` when given) on the server at `url`; answers its own URL. */
export async function createDatabase(url: string, name: string, template?: string): Promise<string> {
  await adminQuery(url, `create database ${name}${template ? ` template ${template}` : ''}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return own.toString();
}

/** Drops database `name` with its connections. */
export async function dropDatabase(url: string, name: string): Promise<void> {
  // A background process of the server's own (autovacuum analysing the new tables) may be at work in the database: a
  // role that is not a superuser may not end it, and the drop fails with 42501 until it is done.
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(url, `drop database if exists ${name} with (force)`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '42501' || attempt === 25) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
