import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Health, VersionFile } from '../../../contract/session';
import { ok } from '../../http/envelope';

const packageVersion = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const startedAt = Date.now();

/** The release file the browser's version checker polls, and the health probe for load balancers. */
export async function systemRoutes(app: FastifyInstance) {
  app.get('/version.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache, no-store, must-revalidate');
    return { version: packageVersion, isUpdate: app.config.releaseIsUpdate } satisfies VersionFile;
  });

  app.get('/api/health', { config: { public: true } }, async () => {
    await app.database.query('select 1');
    return ok({ status: 'ok', database: app.database.kind, version: packageVersion, uptimeS: Math.round((Date.now() - startedAt) / 1000) } satisfies Health);
  });
}
