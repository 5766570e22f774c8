import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { REFRESH_COOKIE, AUTH_HEADERS } from '../../../contract/envelope';
import {
  changePswBodySchema,
  checkPswBodySchema,
  loginBodySchema,
  loginCheckBodySchema,
  registerBodySchema,
} from '../../../contract/session';

type Body<S extends z.ZodType> = { Body: z.output<S> };
import { ok } from '../../http/envelope';
import { requireUser } from '../../plugins/auth';
import { createCaptcha } from './captcha';
import * as session from './service';

/** Session and account calls (seller-tool §7 "Session and account"); the logic lives in service.ts. */
export async function sessionRoutes(app: FastifyInstance) {
  const cookiePath = '/api';

  app.get('/api/captchaImage', { config: { public: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(await createCaptcha(app));
  });

  app.post<Body<typeof registerBodySchema>>('/api/user/register', { config: { public: true }, schema: { body: registerBodySchema } }, async (request) => {
    return ok(await session.register(app, request.body));
  });

  app.post<Body<typeof loginBodySchema>>('/api/login', { config: { public: true }, schema: { body: loginBodySchema } }, async (request, reply) => {
    const { data, refreshToken } = await session.login(app, request.body, request.ip);
    reply.setCookie(REFRESH_COOKIE, refreshToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      path: cookiePath,
      maxAge: app.config.refreshTokenTtlS,
    });
    return ok(data);
  });

  app.get('/api/getInfo', async (request) => ok(session.userInfo(requireUser(request.user))));

  app.post('/api/refreshToken', { config: { public: true } }, async (request) => {
    const userId = request.headers[AUTH_HEADERS.userId];
    return ok(await session.refreshAccessToken(app, Array.isArray(userId) ? userId[0] : userId, request.cookies[REFRESH_COOKIE]));
  });

  app.post('/api/logout', async (request, reply) => {
    const user = requireUser(request.user);
    await session.logout(app, user.sessionId);
    app.push.closeSessions([user.sessionId]);
    reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
    return ok(null);
  });

  app.post<Body<typeof loginCheckBodySchema>>('/api/loginCheck', { config: { public: true }, schema: { body: loginCheckBodySchema } }, async (request) => {
    return ok(await session.loginCheck(app, request.body.username, request.body.auto));
  });

  app.post<Body<typeof checkPswBodySchema>>('/api/user/checkPsw', { schema: { body: checkPswBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    return ok(await session.checkPassword(app, user.id, request.body.password));
  });

  app.post<Body<typeof changePswBodySchema>>('/api/user/changePsw', { schema: { body: changePswBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const { auto, endedSessionIds } = await session.changePassword(app, user, request.body.oldPassword, request.body.newPassword);
    app.push.closeSessions(endedSessionIds);
    return ok({ auto });
  });

  app.get('/api/noticeCheck', async () => ok(await session.newestNotice(app)));

  app.get('/api/limitInfo', async (request) => ok(session.userLimitInfo(requireUser(request.user))));

  app.get('/api/getBrand', async () => ok(session.BRAND));
}
