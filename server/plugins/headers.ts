import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/**
 * Security headers on every answer (helmet): a Content-Security-Policy the built UI and its data worker run under
 * (scripts and workers from this origin only; antd's CSS-in-JS needs inline styles; captchas and chat images are
 * data: and blob: URLs), no framing by other sites, nosniff. Answers to a logged-in caller are never stored by a
 * browser or proxy cache.
 */
export const headersPlugin = fp(async function headersPlugin(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // The UI is often served over plain http on a local network: HSTS only when configured (below), on https.
    strictTransportSecurity: false,
    // Chat images and label PDFs are fetched by the worker and shown as blob: URLs; nothing is embedded cross-origin.
    crossOriginEmbedderPolicy: false,
  });

  // Over TLS (or from a trusted proxy saying X-Forwarded-Proto: https), HSTS when HSTS_MAX_AGE_S turns it on.
  const hsts = app.config.hstsMaxAgeS > 0 ? `max-age=${app.config.hstsMaxAgeS}` : null;
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.user) reply.header('cache-control', 'no-store');
    if (hsts && request.protocol === 'https') reply.header('strict-transport-security', hsts);
    return payload;
  });
});
