import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { PRODUCT_ENDPOINTS, PRODUCT_FRAME_TYPE } from '../../../contract/products';
import { REUPLOAD_ENDPOINTS } from '../../../contract/reupload';
import { route } from '../../http/route';
import type { ClientFactory } from '../../marketplace/plugin';
import { PICTURE_UPLOAD_LIMITS, readUploadedImage } from '../edit/imageRules';
import { newPictureToken, publicBaseOf, publicPictureUrl } from '../edit/watermarkJobs';
import { clientForShop } from '../store/service';
import { createLeases } from '../../db/leases';
import { createPictureCleanup, PICTURE_CLEANUP_INTERVAL_MS, storeProductPicture, type PictureCleanup } from './pictures';
import { productLimits, retryReupload, reuploadHistory, reuploadStatus, startReupload } from './reupload';
import { createReuploadRunner, REUPLOAD_RUNNER_INTERVAL_MS, type ReuploadRunner } from './reuploadRunner';
import {
  archiveProducts,
  createProductFrameSync,
  productInfo,
  productWarehouses,
  proProductPage,
  searchProducts,
  shopProductPage,
  updatePrices,
  updateSkuImage,
  updateStocks,
  type ProductsDeps,
} from './service';

export type ProductsRoutesOptions = {
  /** Where shop requests go; default: the marketplace plugin's factory. */
  clientFor?: ClientFactory;
  /** How often the re-upload runner makes a pass; 0 turns its timer off (tests tick by hand). */
  reuploadIntervalMs?: number;
  /** Sees the re-upload runner (tests). */
  onReuploadRunner?: (runner: ReuploadRunner) => void;
  /** How often unused uploaded pictures are cleaned up; 0 turns the timer off (tests tick by hand). */
  pictureCleanupIntervalMs?: number;
  onPictureCleanup?: (cleanup: PictureCleanup) => void;
};

/**
 * Products (seller-tool §7 "Products and listing", the calls on existing products) and the browser cache's sync.
 * Every call is gated on the 'products' area (admin, follow) and reads only the caller's shops; every change pushes
 * 'products.changed' to the user.
 */
export async function productsRoutes(app: FastifyInstance, options: ProductsRoutesOptions = {}) {
  const factory = () => options.clientFor ?? app.marketplace.clientFor;
  const deps: ProductsDeps = {
    database: app.database,
    now: () => app.now(),
    clientFor: async (userId, shopId) =>
      (await clientForShop({ database: app.database, secretKey: app.config.secretKey, clientFor: factory() }, userId, shopId)).client,
  };
  const syncFrame = createProductFrameSync(deps);
  const changed = (userId: number, count: number) => {
    if (count > 0) app.push.toAccount(userId, { type: 'products.changed' });
  };
  const runner = createReuploadRunner({
    deps,
    leases: createLeases(app.database),
    intervalMs: options.reuploadIntervalMs ?? REUPLOAD_RUNNER_INTERVAL_MS,
    notify: changed,
    log: app.log,
  });
  options.onReuploadRunner?.(runner);
  const cleanup = createPictureCleanup({
    database: app.database,
    leases: createLeases(app.database),
    now: () => app.now(),
    intervalMs: options.pictureCleanupIntervalMs ?? PICTURE_CLEANUP_INTERVAL_MS,
    log: app.log,
  });
  options.onPictureCleanup?.(cleanup);
  app.addHook('onReady', async () => {
    runner.start();
    runner.wake();
    cleanup.start();
  });
  app.addHook('onClose', async () => {
    await runner.stop();
    await cleanup.stop();
  });
  const E = PRODUCT_ENDPOINTS;

  route(app, E.sync, async ({ user, input, reply }) => {
    const frame = await syncFrame(user.accountId, input.cursor, input.limit, input.next);
    return reply.type(PRODUCT_FRAME_TYPE).send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
  });

  route(app, E.ozonList, async ({ user, input }) => shopProductPage(deps, user.accountId, input));
  route(app, E.ozonProList, async ({ user, input }) => proProductPage(deps, user.accountId, input));
  route(app, E.info, async ({ user, input }) => productInfo(deps, user.accountId, input.id));
  route(app, E.search, async ({ user, input }) => searchProducts(deps, user.accountId, input.q, input.storeIds, input.limit));
  route(app, E.warehouses, async ({ user }) => productWarehouses(deps, user.accountId));

  route(app, E.priceUpdate, async ({ user, input, lang }) => {
    const { outcomes, changed: count } = await updatePrices(deps, user.accountId, input, lang);
    changed(user.accountId, count);
    return { outcomes };
  });
  route(app, E.stockUpdate, async ({ user, input, lang }) => {
    const { outcomes, changed: count } = await updateStocks(deps, user.accountId, input, lang);
    changed(user.accountId, count);
    return { outcomes };
  });
  for (const [endpoint, kind] of [
    [E.archive, 'archive'],
    [E.unarchive, 'unarchive'],
    [E.deleteArchive, 'delete'],
  ] as const) {
    route(app, endpoint, async ({ user, input, lang }) => {
      const { outcomes, changed: count } = await archiveProducts(deps, user.accountId, input.ids, kind, lang);
      changed(user.accountId, count);
      return { outcomes };
    });
  }
  route(app, E.updateSkuImage, async ({ user, input }) => {
    const { result, changed: moved } = await updateSkuImage(deps, user.accountId, input);
    changed(user.accountId, moved ? 1 : 0);
    return result;
  });

  route(app, E.limits, async ({ user, input, lang }) => productLimits(deps, user.accountId, input.storeIds, lang));

  // Its own scope: multipart parsing stays on the upload route. The picture is kept as the image editor keeps its
  // pictures (edit_images), served without a session at an unguessable address for Ozon to fetch.
  await app.register(async (scope) => {
    await scope.register(multipart, PICTURE_UPLOAD_LIMITS);
    route(scope, E.imageUpload, async ({ user, request }) => {
      const { bytes, name, contentType, width, height } = await readUploadedImage(request);
      const token = newPictureToken();
      await storeProductPicture(app.database, user.accountId, { name, contentType, width, height, bytes, token, now: app.now() });
      return { url: publicPictureUrl(publicBaseOf(request), token, contentType), width, height };
    });
  });

  const R = REUPLOAD_ENDPOINTS;
  route(app, R.reUpload, async ({ user, input, lang }) => {
    const answer = await startReupload(deps, user.accountId, input, lang);
    runner.wake();
    return answer;
  });
  route(app, R.status, async ({ user, input, lang }) => reuploadStatus(deps, user.accountId, input.batchId, lang));
  route(app, R.retry, async ({ user, input, lang }) => {
    const answer = await retryReupload(deps, user.accountId, input.batchId, input.ids, lang);
    runner.wake();
    return answer;
  });
  route(app, R.history, async ({ user, input, lang }) => reuploadHistory(deps, user.accountId, input, lang));
}
