import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '../../../contract/endpoint';
import { REFRESH_COOKIE, AUTH_HEADERS } from '../../../contract/envelope';
import { PUSH_ENDPOINTS } from '../../../contract/push';
import { SESSION_ENDPOINTS as E } from '../../../contract/session';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { passwordNotice } from '../signin/passwordPolicy';
import { logSignIn } from '../signin/secondStep';
import { createCaptcha } from './captcha';
import { issuePushTicket } from './pushTickets';
import * as session from './service';

/**
 * The httpOnly refresh cookie of a new or refreshed session (path /api): Secure on an https request, which behind
 * a reverse proxy is one a TRUST_PROXY proxy forwarded with X-Forwarded-Proto: https.
 */
export function setRefreshCookie(app: FastifyInstance, reply: FastifyReply, value: string, maxAgeS = app.config.refreshTokenTtlS) {
  reply.setCookie(REFRESH_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: reply.request.protocol === 'https', path: API_BASE, maxAge: maxAgeS });
}

/** The address and browser of a sign-in, for the limits and the sign-in log. */
export function signInOrigin(request: FastifyRequest): session.SignInOrigin {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, browser: (Array.isArray(agent) ? agent[0] : agent) ?? '' };
}

/** Session and account calls (seller-tool §7 "Session and account"); the logic lives in service.ts. */
export async function sessionRoutes(app: FastifyInstance) {
  const cookiePath = API_BASE;

  route(app, E.captchaImage, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return createCaptcha(app);
  });

  route(app, E.register, async ({ input }) => session.register(app, input));

  route(app, E.login, async ({ input, request, reply }) => {
    const { data, refreshToken } = await session.login(app, input, signInOrigin(request));
    if (refreshToken !== null) setRefreshCookie(app, reply, refreshToken);
    return data;
  });

  route(app, E.getInfo, async ({ user, lang }) => ({ ...session.userInfo(user), ...(await passwordNotice(app, user.row, lang)) }));

  route(app, E.refreshToken, async ({ request, reply }) => {
    const userId = request.headers[AUTH_HEADERS.userId];
    const result = await session.refreshAccessToken(app, Array.isArray(userId) ? userId[0] : userId, request.cookies[REFRESH_COOKIE]);
    if (result.kind === 'reused') {
      request.log.warn({ sessionId: result.sessionId }, 'a replaced refresh credential came back: session ended');
      app.push.closeSessions([result.sessionId]);
      reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
      throw new ApiError(401, 'unauthorized');
    }
    if (result.refreshToken) setRefreshCookie(app, reply, result.refreshToken, result.refreshMaxAgeS);
    reply.header('cache-control', 'no-store');
    return { token: result.token };
  });

  route(app, E.logout, async ({ user, reply, request }) => {
    await session.logout(app, user.sessionId);
    await logSignIn(app, { orgId: user.accountId, userId: user.id, username: user.name, event: 'logout', method: 'session', success: true, ...signInOrigin(request) });
    app.push.closeSessions([user.sessionId]);
    reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
    return null;
  });

  route(app, E.loginCheck, async ({ input }) => session.loginCheck(app, input.username, input.auto));

  route(app, E.checkPsw, async ({ user, input, request }) => session.checkPassword(app, user.id, input.password, request.ip));

  route(app, E.changePsw, async ({ user, input }) => {
    const { auto, endedSessionIds } = await session.changePassword(app, user, input.oldPassword, input.newPassword);
    app.push.closeSessions(endedSessionIds);
    return { auto };
  });

  route(app, E.noticeCheck, async () => session.newestNotice(app));

  route(app, E.limitInfo, async ({ user }) => session.userLimitInfo(app, user));

  route(app, E.getBrand, async () => session.BRAND);

  route(app, PUSH_ENDPOINTS.ticket, async ({ user, reply }) => {
    reply.header('cache-control', 'no-store');
    return issuePushTicket(app, user);
  });
}
