import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { SESSION_ENDPOINTS } from '../../../contract/session';
import { route } from '../../http/route';

const packageVersion = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const startedAt = Date.now();

/** The release file the browser's version checker polls, and the health probe for load balancers. */
export async function systemRoutes(app: FastifyInstance) {
  route(app, SESSION_ENDPOINTS.versionFile, async ({ reply }) => {
    reply.header('cache-control', 'no-cache, no-store, must-revalidate');
    return { version: packageVersion, isUpdate: app.config.releaseIsUpdate };
  });

  route(app, SESSION_ENDPOINTS.health, async () => {
    await app.database.query('select 1');
    return { status: 'ok' as const, database: app.database.kind, version: packageVersion, uptimeS: Math.round((Date.now() - startedAt) / 1000) };
  });
}
