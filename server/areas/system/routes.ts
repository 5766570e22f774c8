import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AREA_ROLES, isPermitted } from '../../../contract/access';
import { AUTH_HEADERS } from '../../../contract/envelope';
import { ERROR_CODES, message } from '../../../contract/errors';
import { SESSION_ENDPOINTS } from '../../../contract/session';
import { route } from '../../http/route';
import { authenticate } from '../session/service';

const packageVersion = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const startedAt = Date.now();
/** How long the health probe's `select 1` may take before the database counts as away. */
const HEALTH_QUERY_MS = 3_000;

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The release file the browser's version checker polls, and the health probe for load balancers. */
export async function systemRoutes(app: FastifyInstance) {
  route(app, SESSION_ENDPOINTS.versionFile, async ({ reply }) => {
    reply.header('cache-control', 'no-cache, no-store, must-revalidate');
    return { version: packageVersion, isUpdate: app.config.releaseIsUpdate };
  });

  /** Whether the caller is signed in as an administrator (the probe is public: anyone else reads "ok" only). */
  const byAdministrator = async (request: FastifyRequest) => {
    const token = header(request.headers[AUTH_HEADERS.token]);
    if (!token) return false;
    const user = await authenticate(app, token, header(request.headers[AUTH_HEADERS.userId])).catch(() => null);
    return user !== null && isPermitted(AREA_ROLES.admin, user.rolePermissions);
  };

  const databaseAnswers = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the database did not answer the health probe in time')), HEALTH_QUERY_MS);
    });
    try {
      await Promise.race([app.database.query('select 1'), late]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  route(app, SESSION_ENDPOINTS.health, async ({ request, reply, lang }) => {
    // Asked of the database itself, not of what this process last found: the first answer after an outage is news.
    const up = await databaseAnswers();
    const details = up && (await byAdministrator(request))
      ? { database: app.database.kind, version: packageVersion, uptimeS: Math.round((Date.now() - startedAt) / 1000) }
      : {};
    if (up) return { status: 'ok' as const, ...details };
    // Not the envelope of an answer: a load balancer reads the 503 and sends the traffic elsewhere meanwhile.
    const code = ERROR_CODES.databaseUnavailable;
    reply.code(code).type('application/json; charset=utf-8').header('cache-control', 'no-store');
    reply.send({ code, msg: message('databaseUnavailable', lang), data: { status: 'degraded' } });
    return reply as never;
  });
}
