import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { productPng, productSvg } from '../../marketplace/simulator/assets';

/**
 * The source sites for the link collector and the plugin's tests, served from saved product pages (./fixtures, as a
 * browser's "save page" keeps them: the pictures beside the page in a `<page>_files` folder). Ozon's storefront at
 * `/ozon/product/<slug>-<sku>/`, 1688 at `/1688/offer/<id>.html`; any other product answers 404 like the sites do.
 * Pictures are drawn from their file name, so the pages look alike every time and nothing reaches outside.
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Saved pages by site and product id. */
export const SAVED_PAGES = { ozon: ['1789012345'], '1688': ['712345678901', '698765432109'] } as const;

async function page(name: string): Promise<string | null> {
  try {
    return await readFile(`${FIXTURES}${name}.html`, 'utf8');
  } catch {
    return null;
  }
}

export async function sourceSimulatorPlugin(app: FastifyInstance) {
  const sendPage = async (html: string | null, reply: FastifyReply) =>
    html === null ? reply.code(404).type('text/html').send('<html><body>404</body></html>') : reply.type('text/html; charset=utf-8').send(html);
  const picture = async (name: string, reply: FastifyReply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(productSvg(name.replace(/\.\w+$/, '')));
  // The sites' pictures as the image proxy asks for them (their hosts mapped here by `simulatedPictureUrl`): rasters,
  // as the real CDNs serve, drawn from the file name.
  app.get<{ Params: { site: string; file: string } }>('/:site/picture/:file', async (request, reply) =>
    reply.type('image/png').header('cache-control', 'public, max-age=86400').send(productPng(request.params.file.replace(/\..*$/, ''))),
  );

  app.get<{ Params: { slug: string } }>('/ozon/product/:slug/', async (request, reply) => {
    const sku = /(\d{1,19})$/.exec(request.params.slug)?.[1];
    return sendPage(sku ? await page(`ozon-${sku}`) : null, reply);
  });
  app.get<{ Params: { slug: string; folder: string; file: string } }>('/ozon/product/:slug/:folder/:file', async (request, reply) => picture(request.params.file, reply));
  app.get<{ Params: { file: string } }>('/1688/offer/:file', async (request, reply) => {
    const id = /^(\d{1,19})\.html$/.exec(request.params.file)?.[1];
    return sendPage(id ? await page(`1688-${id}`) : null, reply);
  });
  app.get<{ Params: { folder: string; file: string } }>('/1688/offer/:folder/:file', async (request, reply) => picture(request.params.file, reply));
}
