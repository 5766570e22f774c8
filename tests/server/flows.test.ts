import { DATABASE_TARGETS, login, startTestApp } from './harness';

const target = DATABASE_TARGETS[0]!;

describe('the flows page setting', () => {
  it('tells administrators whether FLOWS_PAGE allows the page, and no one else', async () => {
    const on = await startTestApp(target);
    try {
      const admin = await login(on.app, 'admin', 'admin123');
      const seller = await login(on.app, 'seller', 'seller123');
      const answer = await on.app.inject({ method: 'GET', url: '/api/flows/settings', headers: admin.headers });
      expect(answer.json()).toMatchObject({ code: 200, data: { enabled: true } });
      expect((await on.app.inject({ method: 'GET', url: '/api/flows/settings', headers: seller.headers })).statusCode).toBe(401);
    } finally {
      await on.close();
    }
    const off = await startTestApp(target, { env: { FLOWS_PAGE: 'off' } });
    try {
      const admin = await login(off.app, 'admin', 'admin123');
      const answer = await off.app.inject({ method: 'GET', url: '/api/flows/settings', headers: admin.headers });
      expect(answer.json()).toMatchObject({ data: { enabled: false } });
    } finally {
      await off.close();
    }
  });
});
