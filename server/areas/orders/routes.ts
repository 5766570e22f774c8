import type { FastifyInstance } from 'fastify';
import { ORDER_ENDPOINTS } from '../../../contract/orders';
import { ORDER_FRAME_TYPE } from '../../../contract/orderChunk';
import { route } from '../../http/route';
import type { ClientFactory } from '../../marketplace/plugin';
import { clientForShop } from '../store/service';
import { fetchExternalImage } from '../../integrations/images/externalImage';
import { orderPictures, pickingFile, type PictureBytes } from './picking';
import {
  addOrder,
  cancelOrders,
  cancelReasons,
  postingDetail,
  deleteOrders,
  getOrder,
  labelPdf,
  listOrders,
  listWarehouses,
  setTrackingNumbers,
  shipOrders,
  startLabelTasks,
  syncChunk,
  createFrameSync,
  unfulfilledList,
  unfulfilledListLive,
  updateOrder,
  updateStock,
  type OrdersDeps,
} from './service';

export type OrdersRoutesOptions = {
  /** Where shop requests go; default: the marketplace plugin's factory. */
  clientFor?: ClientFactory;
};

/** EUB (China Post ePacket) orders carry this substatus once handed over. */
const EUB_SUBSTATUS = 'eub';

/**
 * Orders and shipping (seller-tool §7 "Orders and shipping") and the browser cache's incremental sync.
 * Every call is gated on the 'orders' area (admin, follow); every change pushes 'orders.changed' to the user.
 */
export async function ordersRoutes(app: FastifyInstance, options: OrdersRoutesOptions = {}) {
  const factory = () => options.clientFor ?? app.marketplace.clientFor;
  const deps: OrdersDeps = {
    database: app.database,
    now: () => app.now(),
    clientFor: async (userId, shopId) =>
      (await clientForShop({ database: app.database, secretKey: app.config.secretKey, clientFor: factory() }, userId, shopId)).client,
  };
  const syncFrame = createFrameSync(deps);
  const changed = (userId: number, count = 1) => {
    if (count > 0) app.push.toAccount(userId, { type: 'orders.changed' });
  };

  const E = ORDER_ENDPOINTS;

  route(app, E.list, async ({ user, input }) => listOrders(deps, user.accountId, input));

  route(app, E.get, async ({ user, input }) => getOrder(deps, user.accountId, input.id));

  route(app, E.add, async ({ user, input }) => {
    const row = await addOrder(deps, user.accountId, input, user.id);
    changed(user.accountId);
    return row;
  });

  route(app, E.update, async ({ user, input }) => {
    const row = await updateOrder(deps, user.accountId, input);
    changed(user.accountId);
    return row;
  });

  route(app, E.delete, async ({ user, input }) => {
    const count = await deleteOrders(deps, user.accountId, input.ids);
    changed(user.accountId, count);
    return count;
  });

  // The rows arrive as JSON text built by Postgres and go out inside the envelope without being parsed; the binary
  // format is the browser cache's bulk path (contract/orderChunk.ts). Failures answer the JSON envelope either way.
  // Both are sent as prebuilt text or bytes, which Fastify's serializer (and so the answer check) leaves alone:
  // the rows' shape is pinned by the sync tests instead.
  route(app, E.sync, async ({ user, input, reply }) => {
    const { cursor, limit, format, next } = input;
    if (format === 'binary') {
      const frame = await syncFrame(user.accountId, cursor, limit, next);
      return reply.type(ORDER_FRAME_TYPE).send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
    }
    const chunk = await syncChunk(deps, user.accountId, cursor, limit);
    return reply
      .type('application/json; charset=utf-8')
      .send(`{"code":200,"msg":"success","data":{"rows":${chunk.rowsJson},"cursor":${JSON.stringify(chunk.cursor)},"hasMore":${chunk.hasMore}}}`);
  });

  route(app, E.unfulfilledList, async ({ user, input }) => unfulfilledList(deps, user.accountId, input.storeId, input.page, input.rows));

  route(app, E.unfulfilledListV3, async ({ user, input }) => unfulfilledListLive(deps, user.accountId, input.storeId, input.limit, input.cursor));

  route(app, E.ship, async ({ user, input, lang }) => {
    const result = await shipOrders(deps, user.accountId, input.ids, lang);
    changed(user.accountId, result.done);
    return result;
  });

  route(app, E.posting, async ({ user, input }) => postingDetail(deps, user.accountId, input.id));

  route(app, E.cancelReasons, async ({ user, input }) => cancelReasons(deps, user.accountId, input.ids));

  route(app, E.cancel, async ({ user, input, lang }) => {
    const result = await cancelOrders(deps, user.accountId, input, lang);
    changed(user.accountId, result.done);
    return result;
  });

  route(app, E.addTrackNumber, async ({ user, input, lang }) => {
    const result = await setTrackingNumbers(deps, user.accountId, input.items, lang);
    changed(user.accountId, result.done);
    return result;
  });

  // Our own record only (an entered order's tracking, or a correction): Ozon is not told.
  route(app, E.updateTrack, async ({ user, input, lang }) => {
    const result = await setTrackingNumbers(deps, user.accountId, [input], lang, { marketplace: false });
    changed(user.accountId, result.done);
    return result;
  });

  route(app, E.setEubOrder, async ({ user, input, lang }) => {
    const { ids, trackingNumber } = input;
    const rows = await Promise.all(ids.map((id) => getOrder(deps, user.accountId, id)));
    const items = rows.map((row) => ({ id: row.id, trackingNumber: trackingNumber ?? row.trackingNumber ?? '' }));
    const result = await setTrackingNumbers(deps, user.accountId, items, lang, { marketplace: trackingNumber !== undefined, substatus: EUB_SUBSTATUS });
    changed(user.accountId, result.done);
    return result;
  });

  route(app, E.updatePdf, async ({ user, input }) => startLabelTasks(deps, user.accountId, input.ids));

  route(app, E.labelPdf, async ({ user, input, reply }) => {
    const pdf = await labelPdf(deps, user.accountId, input.ids);
    return reply
      .type('application/pdf')
      .header('content-disposition', 'attachment; filename="labels.pdf"')
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });

  route(app, E.pictures, async ({ user, input }) => orderPictures(deps, user.accountId, input.items));

  // The simulator's pictures (the demo's, the tests') are read in-process; any other only from a public address.
  const pictureBytes: PictureBytes = async (url) => {
    const { pathname, search } = new URL(url, 'http://localhost');
    if (pathname.startsWith('/sim/')) {
      const answer = await app.inject({ method: 'GET', url: pathname + search });
      return answer.statusCode === 200 ? answer.rawPayload : null;
    }
    return (await fetchExternalImage({ allowedHosts: [], timeoutMs: 5_000 }, url)).bytes;
  };

  route(app, E.pickingList, async ({ user, input, lang, reply }) => {
    const file = await pickingFile(deps, user.accountId, input.ids, input.format, lang, pictureBytes);
    return reply
      .type(file.type)
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
  });

  route(app, E.warehouseList, async ({ user, input }) => listWarehouses(deps, user.accountId, input.storeId));

  route(app, E.updateStock, async ({ user, input, lang }) => updateStock(deps, user.accountId, input.items, lang));
}
