import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS, login, startTestApp, type TestApp } from '../harness';

describe.each(DATABASE_TARGETS)('what the server logs on $kind', (target) => {
  let t: TestApp;
  let log = '';
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    t = await startTestApp(target, { app: { logger: { level: 'debug', stream } } });
    // A failing statement whose parameters are secrets, as a NUL byte in a new user's introduction once made.
    t.app.post('/api/test/failing-query', { config: { public: true } }, async () => {
      await t.app.db.execute(sql`insert into users (username, password_hash, password_stamp, introduction) values (${'leaky'}, ${'scrypt$SECRET-HASH'}, ${'SECRET-STAMP'}, ${'a\u0000b'})`);
      return null;
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("logs a failed query's statement without its values", async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/test/failing-query' });
    expect(response.statusCode).toBe(500);
    expect(log).toContain('Failed query: insert into users');
    expect(log).not.toContain('SECRET-HASH');
    expect(log).not.toContain('SECRET-STAMP');
  });

  it('redacts tokens, cookies and passwords in logged requests', async () => {
    const session = await login(t.app, 'seller', 'seller123');
    t.app.log.info({ req: { headers: { 'x-token': session.token, cookie: `refresh_token=${session.refreshCookie}` } }, body: { password: 'seller123', apiKey: 'sim-key-1001' } }, 'probe');
    expect(log).toContain('"msg":"probe"');
    for (const secret of [session.token, session.refreshCookie, 'seller123', 'sim-key-1001']) expect(log).not.toContain(secret);
  });
});
