import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

/**
 * Answers a route sends itself (the list syncs' binary frames and prebuilt JSON): sent once, with nothing logged about
 * a second reply.
 */
describe.each(DATABASE_TARGETS)('answers a route sends itself ($kind)', (target) => {
  let t: TestApp;
  let seller: Session;
  const warnings: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line.trim()) warnings.push(line);
        done();
      },
    });
    t = await startTestApp(target, { app: { logger: { level: 'warn', stream } } });
    seller = await login(t.app, 'seller', 'seller123');
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const url of ['/api/product/sync?limit=25', '/api/order/sync?limit=25&format=binary', '/api/order/sync?limit=25']) {
    it(`${url} answers once and logs no second reply`, async () => {
      const before = warnings.length;
      const response = await t.app.inject({ method: 'GET', url, headers: seller.headers });
      expect(response.statusCode).toBe(200);
      // The log is written as the request ends.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.slice(before).filter((line) => line.includes('already sent'))).toEqual([]);
    });
  }
});
