import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { ALTERNATE_BASES } from '../../contract/endpoint';
import { MESSAGES } from '../../contract/errors';

export type SpaOptions = { distDir: string };

const MISSING_BUILD = `The user interface has not been built yet.
界面尚未构建。

Run \`npm run build\` (or \`npm start\`, which builds first), then reload this page.
请先运行 \`npm run build\`（或 \`npm start\`，它会先构建），然后刷新本页。
`;

/**
 * Serves the built UI from dist/: index.html for every non-API GET path (the router decides what it shows),
 * never cached so a new release is picked up; hashed assets under static/ cached for a year.
 * Unknown /api and /sim paths and other methods answer the 404 envelope.
 */
export const spaPlugin = fp(async function spaPlugin(app: FastifyInstance, options: SpaOptions) {
  // A server started before the UI is built (a build under way beside it) serves the UI once the build is in place:
  // the files are read from dist/ at each request, and dist/ is looked for again until it is there.
  let built = existsSync(join(options.distDir, 'index.html'));
  const isBuilt = () => (built ||= existsSync(join(options.distDir, 'index.html')));
  await app.register(fastifyStatic, {
    root: options.distDir,
    // No warning for a dist/ that a build beside this server has not made yet.
    suppressWarning: true,
    cacheControl: false,
    setHeaders(reply, path) {
      if (path.endsWith('.html')) reply.header('cache-control', 'no-cache');
      else if (/[\\/]static[\\/]/.test(path)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      else reply.header('cache-control', 'public, max-age=3600');
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = ALTERNATE_BASES.some((base) => path === base || path.startsWith(`${base}/`));
    // The embedded simulators (/sim/ozon, /sim/cbr) are outside services, not pages: their unknown paths are 404s.
    const isSimulator = path === '/sim' || path.startsWith('/sim/');
    if (!isApi && !isSimulator && (request.method === 'GET' || request.method === 'HEAD')) {
      if (!isBuilt()) return reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(MISSING_BUILD);
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ code: 404, msg: MESSAGES.notFound[request.lang], data: null });
  });
});
