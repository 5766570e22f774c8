import type { FastifyInstance } from 'fastify';
import { RETURN_ENDPOINTS, RETURN_FRAME_TYPE } from '../../../contract/returns';
import { route } from '../../http/route';
import type { ClientFactory } from '../../marketplace/plugin';
import { clientForShop } from '../store/service';
import { createReturnFrameSync, getReturn, listReturns, rfbsAction, type ReturnsDeps } from './service';

export type ReturnsRoutesOptions = {
  /** Where shop requests go; default: the marketplace plugin's factory. */
  clientFor?: ClientFactory;
};

/**
 * Returns (seller-tool /return/return-list and /return/return-list-new): the browser cache's sync, the server-paged
 * lists (`/ozonReturn/list` FBS and FBO, `/ozonReturnNew/list` every scheme), one return's details, and decisions on
 * rFBS return requests. Every call is gated on the 'returns' area (admin, follow) and reads only the user's own shops.
 */
export async function returnsRoutes(app: FastifyInstance, options: ReturnsRoutesOptions = {}) {
  const factory = () => options.clientFor ?? app.marketplace.clientFor;
  const deps: ReturnsDeps = {
    database: app.database,
    now: () => app.now(),
    clientFor: async (userId, shopId) =>
      (await clientForShop({ database: app.database, secretKey: app.config.secretKey, clientFor: factory() }, userId, shopId)).client,
  };
  const syncFrame = createReturnFrameSync(deps);
  const E = RETURN_ENDPOINTS;

  route(app, E.sync, async ({ user, input, reply }) => {
    const frame = await syncFrame(user.accountId, input.cursor, input.limit, input.next);
    return reply.type(RETURN_FRAME_TYPE).send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
  });

  route(app, E.list, async ({ user, input }) => listReturns(deps, user.accountId, input, ['FBS', 'FBO']));

  route(app, E.listNew, async ({ user, input }) => listReturns(deps, user.accountId, input, ['FBS', 'FBO', 'rFBS']));

  route(app, E.get, async ({ user, input }) => getReturn(deps, user.accountId, input.id));

  route(app, E.rfbsAction, async ({ user, input }) => {
    const { detail, changed } = await rfbsAction(deps, user.accountId, input);
    if (changed) app.push.toAccount(user.accountId, { type: 'returns.changed', shopId: detail.row.shopId });
    return detail;
  });
}
