import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  addOrderBodySchema,
  ORDER_PATHS,
  orderIdQuerySchema,
  orderIdsBodySchema,
  orderListQuerySchema,
  orderSyncQuerySchema,
  setEubOrderBodySchema,
  trackNumbersBodySchema,
  unfulfilledListBodySchema,
  unfulfilledListV3BodySchema,
  updateOrderBodySchema,
  updateStockBodySchema,
  updateTrackBodySchema,
  warehouseListBodySchema,
} from '../../../contract/orders';
import { ORDER_FRAME_TYPE } from '../../../contract/orderChunk';
import { ok } from '../../http/envelope';
import type { ClientFactory } from '../../marketplace/plugin';
import { requireUser } from '../../plugins/auth';
import { clientForShop } from '../store/service';
import {
  addOrder,
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

type Body<S extends z.ZodType> = { Body: z.output<S> };
type Query<S extends z.ZodType> = { Querystring: z.output<S> };

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
  const config = { area: 'orders' } as const;
  const changed = (userId: number, count = 1) => {
    if (count > 0) app.push.toUser(userId, { type: 'orders.changed' });
  };

  app.get<Query<typeof orderListQuerySchema>>(ORDER_PATHS.list, { config, schema: { querystring: orderListQuerySchema } }, async (request) => {
    const user = requireUser(request.user);
    return ok(await listOrders(deps, user.id, request.query));
  });

  app.get<Query<typeof orderIdQuerySchema>>(ORDER_PATHS.get, { config, schema: { querystring: orderIdQuerySchema } }, async (request) =>
    ok(await getOrder(deps, requireUser(request.user).id, request.query.id)),
  );

  app.post<Body<typeof addOrderBodySchema>>(ORDER_PATHS.add, { config, schema: { body: addOrderBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const row = await addOrder(deps, user.id, request.body);
    changed(user.id);
    return ok(row);
  });

  app.post<Body<typeof updateOrderBodySchema>>(ORDER_PATHS.update, { config, schema: { body: updateOrderBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const row = await updateOrder(deps, user.id, request.body);
    changed(user.id);
    return ok(row);
  });

  app.post<Body<typeof orderIdsBodySchema>>(ORDER_PATHS.delete, { config, schema: { body: orderIdsBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const count = await deleteOrders(deps, user.id, request.body.ids);
    changed(user.id, count);
    return ok(count);
  });

  // The rows arrive as JSON text built by Postgres and go out inside the envelope without being parsed; the binary
  // format is the browser cache's bulk path (contract/orderChunk.ts). Failures answer the JSON envelope either way.
  app.get<Query<typeof orderSyncQuerySchema>>(ORDER_PATHS.sync, { config, schema: { querystring: orderSyncQuerySchema } }, async (request, reply) => {
    const user = requireUser(request.user);
    const { cursor, limit, format, next } = request.query;
    if (format === 'binary') {
      const frame = await syncFrame(user.id, cursor, limit, next);
      return reply.type(ORDER_FRAME_TYPE).send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
    }
    const chunk = await syncChunk(deps, user.id, cursor, limit);
    return reply
      .type('application/json; charset=utf-8')
      .send(`{"code":200,"msg":"success","data":{"rows":${chunk.rowsJson},"cursor":${JSON.stringify(chunk.cursor)},"hasMore":${chunk.hasMore}}}`);
  });

  app.post<Body<typeof unfulfilledListBodySchema>>(ORDER_PATHS.unfulfilledList, { config, schema: { body: unfulfilledListBodySchema } }, async (request) =>
    ok(await unfulfilledList(deps, requireUser(request.user).id, request.body.storeId, request.body.page, request.body.rows)),
  );

  app.post<Body<typeof unfulfilledListV3BodySchema>>(ORDER_PATHS.unfulfilledListV3, { config, schema: { body: unfulfilledListV3BodySchema } }, async (request) =>
    ok(await unfulfilledListLive(deps, requireUser(request.user).id, request.body.storeId, request.body.limit, request.body.cursor)),
  );

  app.post<Body<typeof orderIdsBodySchema>>(ORDER_PATHS.shipOrder, { config, schema: { body: orderIdsBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const result = await shipOrders(deps, user.id, request.body.ids, request.lang);
    changed(user.id, result.done);
    return ok(result);
  });

  app.post<Body<typeof trackNumbersBodySchema>>(ORDER_PATHS.addTrackNumber, { config, schema: { body: trackNumbersBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const result = await setTrackingNumbers(deps, user.id, request.body.items, request.lang);
    changed(user.id, result.done);
    return ok(result);
  });

  // Our own record only (an entered order's tracking, or a correction): Ozon is not told.
  app.post<Body<typeof updateTrackBodySchema>>(ORDER_PATHS.updateTrack, { config, schema: { body: updateTrackBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const result = await setTrackingNumbers(deps, user.id, [request.body], request.lang, { marketplace: false });
    changed(user.id, result.done);
    return ok(result);
  });

  app.post<Body<typeof setEubOrderBodySchema>>(ORDER_PATHS.setEubOrder, { config, schema: { body: setEubOrderBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const { ids, trackingNumber } = request.body;
    const rows = await Promise.all(ids.map((id) => getOrder(deps, user.id, id)));
    const items = rows.map((row) => ({ id: row.id, trackingNumber: trackingNumber ?? row.trackingNumber ?? '' }));
    const result = await setTrackingNumbers(deps, user.id, items, request.lang, { marketplace: trackingNumber !== undefined, substatus: EUB_SUBSTATUS });
    changed(user.id, result.done);
    return ok(result);
  });

  app.post<Body<typeof orderIdsBodySchema>>(ORDER_PATHS.updatePdf, { config, schema: { body: orderIdsBodySchema } }, async (request) =>
    ok(await startLabelTasks(deps, requireUser(request.user).id, request.body.ids)),
  );

  app.post<Body<typeof orderIdsBodySchema>>(ORDER_PATHS.labelPdf, { config, schema: { body: orderIdsBodySchema } }, async (request, reply) => {
    const pdf = await labelPdf(deps, requireUser(request.user).id, request.body.ids);
    return reply
      .type('application/pdf')
      .header('content-disposition', 'attachment; filename="labels.pdf"')
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });

  app.post<Body<typeof warehouseListBodySchema>>(ORDER_PATHS.warehouseList, { config, schema: { body: warehouseListBodySchema } }, async (request) =>
    ok(await listWarehouses(deps, requireUser(request.user).id, request.body.storeId)),
  );

  app.post<Body<typeof updateStockBodySchema>>(ORDER_PATHS.updateStock, { config, schema: { body: updateStockBodySchema } }, async (request) =>
    ok(await updateStock(deps, requireUser(request.user).id, request.body.items, request.lang)),
  );
}
