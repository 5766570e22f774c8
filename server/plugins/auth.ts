import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AREA_ROLES, hasPermission, isPermitted, type Area } from '../../contract/access';
import { ALTERNATE_BASES, permissionOf, type Endpoint } from '../../contract/endpoint';
import { ACCESS_ENDPOINTS, endpointKey, PUSH_RESOURCE } from '../../contract/accessPolicy';
import { AUTH_HEADERS } from '../../contract/envelope';
import { PASSWORD_POLICY_ENDPOINTS } from '../../contract/passwordPolicy';
import { PLUGIN_TOKEN_HEADER } from '../../contract/pluginProtocol';
import { SESSION_ENDPOINTS } from '../../contract/session';
import { API_CLIENT_MESSAGES, API_TOKEN_PREFIX } from '../../contract/apiClients';
import { checkPolicies } from '../areas/access/plugin';
import { authenticateApiToken } from '../areas/access/tokens';
import { authenticatePluginToken } from '../areas/plugin/service';
import { consumePushTicket } from '../areas/session/pushTickets';
import { authenticate, type AuthUser } from '../areas/session/service';
import { ApiError } from '../http/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a session (login, register, captcha, refresh, login check, health). */
    public?: boolean;
    /** Gate the route on the roles of this area (contract/access.ts): 401 for a caller outside them. */
    area?: Area;
  }
  interface FastifyRequest {
    /** The caller of a non-public /api route; null on public routes. */
    user: AuthUser | null;
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The calls a session whose password must change first may make (users.password_change, signin/passwordPolicy.ts). */
const DURING_PASSWORD_CHANGE: ReadonlySet<Endpoint> = new Set<Endpoint>([
  SESSION_ENDPOINTS.getInfo,
  SESSION_ENDPOINTS.changePsw,
  SESSION_ENDPOINTS.logout,
  SESSION_ENDPOINTS.getBrand,
  PASSWORD_POLICY_ENDPOINTS.ownRules,
]);

/** Calls no access policy refuses: giving the one-time code a policy asks for, and leaving. */
const BEYOND_POLICIES: ReadonlySet<Endpoint> = new Set<Endpoint>([ACCESS_ENDPOINTS.stepUp, SESSION_ENDPOINTS.logout]);

/** Reads the session of the caller for the role check. */
export function requireUser(user: AuthUser | null): AuthUser {
  if (!user) throw new ApiError(402, 'tokenExpired');
  return user;
}

/**
 * Every /api route (and its aliases under the alternate bases) needs a valid session unless its config says `public: true`; `area` adds the role check,
 * and a member of an organisation also needs the endpoint's permission (`permissionOf`), and then passes the
 * organisation's access policies (server/areas/access/plugin.ts), on the WebSocket too.
 * The WebSocket route authenticates with a single-use ticket in its query (browsers cannot set headers on a WebSocket,
 * and a token in a URL ends up in proxies' logs): POST /api/ws/ticket issues it (areas/session/pushTickets.ts).
 * The browser plugin's token (X-Plugin-Token, contract/plugin.ts) is taken only by endpoints marked `pluginToken`;
 * anywhere else it is refused outright, not ignored, so a plugin never acts through a session by accident. An
 * application's API token (`Authorization: Bearer sbo_...`) acts as its role within its shops, on any call but the socket.
 */
export const authPlugin = fp(async function authPlugin(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!url || !ALTERNATE_BASES.some((base) => url.startsWith(`${base}/`))) return;
    const config = request.routeOptions.config;
    if (config.public) return;
    const websocket = request.headers.upgrade?.toLowerCase() === 'websocket';
    const pluginToken = header(request.headers[PLUGIN_TOKEN_HEADER]);
    if (pluginToken !== undefined && !config.endpoint?.pluginToken) throw new ApiError(401, 'pluginTokenScope');
    // An application's API token (server/areas/access/tokens.ts): `Authorization: Bearer sbo_...`.
    const bearer = /^Bearer\s+(\S+)$/i.exec(header(request.headers.authorization) ?? '')?.[1];
    const apiToken = bearer?.startsWith(API_TOKEN_PREFIX) ? bearer : undefined;
    if (apiToken !== undefined && websocket) throw new ApiError(401, API_CLIENT_MESSAGES.tokenSocket);
    const user = websocket
      ? await consumePushTicket(app, (request.query as Record<string, string | undefined>).ticket)
      : pluginToken !== undefined
        ? await authenticatePluginToken(app, pluginToken)
        : apiToken !== undefined
          ? await authenticateApiToken(app, apiToken, request.ip)
          : await authenticate(app, header(request.headers[AUTH_HEADERS.token]), header(request.headers[AUTH_HEADERS.userId]));
    request.user = user;
    // A password that has expired or that the policy no longer accepts: the change first, nothing else.
    if (user.row.passwordChange && !(config.endpoint && DURING_PASSWORD_CHANGE.has(config.endpoint))) throw new ApiError(403, 'passwordChangeRequired');
    if (config.area && !isPermitted(AREA_ROLES[config.area], user.rolePermissions)) {
      throw new ApiError(401, 'unauthorized');
    }
    // A member of an organisation: what their role grants (contract/access.ts), read from the database on this call.
    if (user.permissions !== null && config.endpoint) {
      const needed = permissionOf(config.endpoint);
      if (needed === undefined || !hasPermission(user.permissions, needed)) throw new ApiError(401, 'unauthorized');
    }
    // Then the organisation's access policies (server/areas/access): who, which call, from where, when.
    const endpoint = config.endpoint;
    if (endpoint ? !BEYOND_POLICIES.has(endpoint) : websocket) {
      await checkPolicies(app, request, user, endpoint?.access ?? 'open', endpoint ? endpointKey(endpoint) : PUSH_RESOURCE);
    }
  });
});
