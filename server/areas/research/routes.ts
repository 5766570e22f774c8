import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MARKET_IMPORT_MAX_BYTES, RESEARCH_ENDPOINTS } from '../../../contract/research';
import { isDatabaseUnavailable } from '../../db/availability';
import { openPostgres, QueryCancelled, type Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { importUpload, marketData } from './upload';
import { ownQueries } from './ownQueries';
import { clientForShop } from '../store/service';
import {
  categoryTree, cnExport, cnProducts, hotExport, hotProducts, keywordDetail, keywordExport, keywords, newExport, newProducts, potentialExport, potentialProducts, productDetail,
} from './queries';

/**
 * Market research (seller-tool /search/*). Roles and paid validity are the route's access gate (contract/access.ts:
 * an analyst whose search period has passed holds no active role and is answered 401 before any query runs).
 * Queries read DATABASE_READ_URL's replica when one is configured, else the main database, and each stops in the
 * database when its request's connection closes: the worker aborts a cancellable call when a newer one starts or
 * the page goes away.
 */
export async function researchRoutes(app: FastifyInstance) {
  // A replica that is away (at start or later) does not stop research: its queries go to the primary meanwhile,
  // and to the replica again once its probe finds it back (availability.ts).
  let replica: Database | null = null;
  if (app.config.databaseReadUrl) {
    const opened = await openPostgres(app.config.databaseReadUrl, {
      connectNow: false,
      onAvailability: (up) =>
        up ? app.log.info('research: the read replica answers again; reading it') : app.log.warn('research: the read replica cannot be reached; reading the primary'),
    });
    replica = opened;
    app.addHook('onClose', async () => opened.close());
    // Found out now rather than by the first research query: a replica down at start is said at start.
    opened.query('select 1').catch(() => undefined);
  }
  /** The replica while it answers, else the primary. */
  const reader = (): Database => (replica && replica.availability.up ? replica : app.database);

  /** Runs the handler's queries with a signal that aborts when the client goes away before the answer is sent. */
  const withSignal = async <T>(reply: FastifyReply, work: (run: <Row extends Record<string, unknown>>(text: string, params: unknown[]) => Promise<Row[]>) => Promise<T>) => {
    const controller = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableEnded) controller.abort();
    };
    reply.raw.once('close', onClose);
    try {
      return await work(async (text, params) => {
        const read = reader();
        try {
          return await read.cancellableQuery(text, params, controller.signal);
        } catch (error) {
          // The replica went away under this query: it is marked down (availability), and the query asks the primary.
          if (read !== app.database && isDatabaseUnavailable(error)) return app.database.cancellableQuery(text, params, controller.signal);
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof QueryCancelled) throw new ApiError(400, 'queryCancelled');
      throw error;
    } finally {
      reply.raw.off('close', onClose);
    }
  };

  // The administrator's market data: what is loaded, the imports, and the upload (the main database, not a replica).
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: MARKET_IMPORT_MAX_BYTES, files: 2, fields: 0, parts: 2 } });
  route(app, RESEARCH_ENDPOINTS.marketData, async ({ lang }) => marketData(app.database, lang));
  route(app, RESEARCH_ENDPOINTS.marketImport, async ({ user, request, lang }) => {
    if (!request.isMultipart()) throw new ApiError(400, 'marketImportFiles', 'file');
    return importUpload(app.database, user.accountId, request.files(), lang);
  });

  // The user's own products' search queries come from Ozon through the user's own shops (the main database).
  const clientOf = async (userId: number, shopId: number) =>
    (await clientForShop({ database: app.database, secretKey: app.config.secretKey, clientFor: app.marketplace.clientFor }, userId, shopId)).client;
  route(app, RESEARCH_ENDPOINTS.ownQueries, async ({ user, lang }) => ownQueries({ database: app.database, clientOf, now: () => app.now().getTime() }, user.accountId, lang));

  route(app, RESEARCH_ENDPOINTS.categories, async ({ lang }) => ({ tree: categoryTree(lang) }));
  route(app, RESEARCH_ENDPOINTS.hotProducts, async ({ input, reply }) => withSignal(reply, (run) => hotProducts(run, input)));
  route(app, RESEARCH_ENDPOINTS.newProducts, async ({ input, reply }) => withSignal(reply, (run) => newProducts(run, input)));
  route(app, RESEARCH_ENDPOINTS.cnProducts, async ({ input, reply }) => withSignal(reply, (run) => cnProducts(run, input)));
  route(app, RESEARCH_ENDPOINTS.potential, async ({ input, reply }) => withSignal(reply, (run) => potentialProducts(run, input)));
  route(app, RESEARCH_ENDPOINTS.productDetail, async ({ input, reply }) => withSignal(reply, (run) => productDetail(run, input.sku)));
  route(app, RESEARCH_ENDPOINTS.keywords, async ({ input, reply }) => withSignal(reply, (run) => keywords(run, input)));
  // Exports: page after page of the same query in the same sort, under the list's own role (and the export permission).
  route(app, RESEARCH_ENDPOINTS.hotExport, async ({ input, reply }) => withSignal(reply, (run) => hotExport(run, input)));
  route(app, RESEARCH_ENDPOINTS.newExport, async ({ input, reply }) => withSignal(reply, (run) => newExport(run, input)));
  route(app, RESEARCH_ENDPOINTS.cnExport, async ({ input, reply }) => withSignal(reply, (run) => cnExport(run, input)));
  route(app, RESEARCH_ENDPOINTS.potentialExport, async ({ input, reply }) => withSignal(reply, (run) => potentialExport(run, input)));
  route(app, RESEARCH_ENDPOINTS.keywordExport, async ({ input, reply }) => withSignal(reply, (run) => keywordExport(run, input)));
  route(app, RESEARCH_ENDPOINTS.keywordDetail, async ({ input, reply }) => withSignal(reply, (run) => keywordDetail(run, input.keyword)));
}
