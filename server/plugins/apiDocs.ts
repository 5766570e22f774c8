import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { API_BASE, API_DOCS_PATHS } from '../../contract/endpoint';
import { openApiDocument } from '../http/openapi';

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of Swagger UI the page loads, served from node_modules: the reference works without the internet. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
};

const page = (base: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Seller Back Office API</title>
  <link rel="icon" href="${base}/favicon-32x32.png">
  <link rel="stylesheet" href="${base}/swagger-ui.css">
</head>
<body>
  <div id="api-reference"></div>
  <script src="${base}/swagger-ui-bundle.js"></script>
  <script src="${base}/init.js"></script>
</body>
</html>
`;

// A file of its own, not an inline script, so a Content-Security-Policy without 'unsafe-inline' still allows it.
const init = (documentUrl: string) => `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentUrl)},
  dom_id: '#api-reference',
  deepLinking: true,
  docExpansion: 'none',
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

/**
 * The developer's API reference: GET /api/openapi.json (OpenAPI 3.1, generated from the endpoint objects) and
 * /api/docs (Swagger UI, served locally). Who sees it: anyone, when config.apiDocs is on (the default outside
 * production; API_DOCS=on turns it on in production). It tells no more than the shipped browser bundle does, and
 * every call it describes still checks the caller's session and roles. Off, both answer the 404 envelope.
 */
export async function apiDocsRoutes(app: FastifyInstance) {
  if (!app.config.apiDocs) return;
  const config = { public: true } as const;
  const pageBase = `${API_BASE}${API_DOCS_PATHS.page}`;
  const documentUrl = `${API_BASE}${API_DOCS_PATHS.document}`;
  let document: string | null = null;

  app.get(documentUrl, { config }, async (_request, reply) => {
    document ??= JSON.stringify(openApiDocument(packageVersion));
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document);
  });

  app.get(pageBase, { config }, async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page(pageBase)));

  app.get(`${pageBase}/init.js`, { config }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(init(documentUrl)));

  app.get<{ Params: { asset: string } }>(`${pageBase}/:asset`, { config }, async (request, reply) => {
    const asset = ASSETS[request.params.asset];
    if (!asset) return reply.callNotFound();
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(createReadStream(join(swaggerDir, asset.file)));
  });
}
