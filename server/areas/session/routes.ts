import type { FastifyInstance } from 'fastify';
import { API_BASE } from '../../../contract/endpoint';
import { REFRESH_COOKIE, AUTH_HEADERS } from '../../../contract/envelope';
import { SESSION_ENDPOINTS as E } from '../../../contract/session';
import { route } from '../../http/route';
import { createCaptcha } from './captcha';
import * as session from './service';

/** Session and account calls (seller-tool §7 "Session and account"); the logic lives in service.ts. */
export async function sessionRoutes(app: FastifyInstance) {
  const cookiePath = API_BASE;

  route(app, E.captchaImage, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return createCaptcha(app);
  });

  route(app, E.register, async ({ input }) => session.register(app, input));

  route(app, E.login, async ({ input, request, reply }) => {
    const { data, refreshToken } = await session.login(app, input, request.ip);
    reply.setCookie(REFRESH_COOKIE, refreshToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      path: cookiePath,
      maxAge: app.config.refreshTokenTtlS,
    });
    return data;
  });

  route(app, E.getInfo, async ({ user }) => session.userInfo(user));

  route(app, E.refreshToken, async ({ request }) => {
    const userId = request.headers[AUTH_HEADERS.userId];
    return session.refreshAccessToken(app, Array.isArray(userId) ? userId[0] : userId, request.cookies[REFRESH_COOKIE]);
  });

  route(app, E.logout, async ({ user, reply }) => {
    await session.logout(app, user.sessionId);
    app.push.closeSessions([user.sessionId]);
    reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
    return null;
  });

  route(app, E.loginCheck, async ({ input }) => session.loginCheck(app, input.username, input.auto));

  route(app, E.checkPsw, async ({ user, input }) => session.checkPassword(app, user.id, input.password));

  route(app, E.changePsw, async ({ user, input }) => {
    const { auto, endedSessionIds } = await session.changePassword(app, user, input.oldPassword, input.newPassword);
    app.push.closeSessions(endedSessionIds);
    return { auto };
  });

  route(app, E.noticeCheck, async () => session.newestNotice(app));

  route(app, E.limitInfo, async ({ user }) => session.userLimitInfo(user));

  route(app, E.getBrand, async () => session.BRAND);
}
