import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  FEATURE_UPDATE_PATHS,
  NOTICE_PATHS,
  addFeatureUpdateBodySchema,
  addNoticeBodySchema,
  deleteFeatureUpdatesBodySchema,
  deleteNoticesBodySchema,
  featureUpdateListQuerySchema,
  noticeListQuerySchema,
  updateFeatureUpdateBodySchema,
  updateNoticeBodySchema,
} from '../../../contract/notice';
import { ok } from '../../http/envelope';
import { requireUser } from '../../plugins/auth';
import * as featureUpdates from './featureUpdates';
import * as notices from './service';

type Body<S extends z.ZodType> = { Body: z.output<S> };
type Query<S extends z.ZodType> = { Querystring: z.output<S> };

/**
 * The notice manager and the feature-update announcements (seller-tool §2.4, §7 "Administration"). The banner's
 * own read, GET /api/noticeCheck, lives with the session calls; publishing here pushes to every open socket.
 */
export async function noticeRoutes(app: FastifyInstance) {
  const config = { area: 'admin' } as const;

  app.get<Query<typeof noticeListQuerySchema>>(NOTICE_PATHS.list, { config, schema: { querystring: noticeListQuerySchema } }, async (request) => {
    return ok(await notices.listNotices(app, request.query));
  });

  app.post<Body<typeof addNoticeBodySchema>>(NOTICE_PATHS.add, { config, schema: { body: addNoticeBodySchema } }, async (request) => {
    const row = await notices.addNotice(app, requireUser(request.user).id, request.body.text);
    app.push.broadcast({ type: 'notice', notice: notices.asNotice(row) });
    return ok(row);
  });

  app.post<Body<typeof updateNoticeBodySchema>>(NOTICE_PATHS.update, { config, schema: { body: updateNoticeBodySchema } }, async (request) => {
    const row = await notices.updateNotice(app, request.body.id, request.body.text);
    app.push.broadcast({ type: 'notice', notice: notices.asNotice(row) });
    return ok(row);
  });

  app.post<Body<typeof deleteNoticesBodySchema>>(NOTICE_PATHS.delete, { config, schema: { body: deleteNoticesBodySchema } }, async (request) => {
    const { deleted, newNewest } = await notices.deleteNotices(app, request.body.ids);
    if (newNewest) app.push.broadcast({ type: 'notice', notice: newNewest });
    return ok({ deleted });
  });

  app.get(FEATURE_UPDATE_PATHS.current, async () => ok(await featureUpdates.currentFeatureUpdate(app)));

  app.get<Query<typeof featureUpdateListQuerySchema>>(
    FEATURE_UPDATE_PATHS.list,
    { config, schema: { querystring: featureUpdateListQuerySchema } },
    async (request) => ok(await featureUpdates.listFeatureUpdates(app, request.query)),
  );

  app.post<Body<typeof addFeatureUpdateBodySchema>>(FEATURE_UPDATE_PATHS.add, { config, schema: { body: addFeatureUpdateBodySchema } }, async (request) => {
    return ok(await featureUpdates.addFeatureUpdate(app, request.body));
  });

  app.post<Body<typeof updateFeatureUpdateBodySchema>>(
    FEATURE_UPDATE_PATHS.update,
    { config, schema: { body: updateFeatureUpdateBodySchema } },
    async (request) => {
      const { id, ...changes } = request.body;
      return ok(await featureUpdates.updateFeatureUpdate(app, id, changes));
    },
  );

  app.post<Body<typeof deleteFeatureUpdatesBodySchema>>(
    FEATURE_UPDATE_PATHS.delete,
    { config, schema: { body: deleteFeatureUpdatesBodySchema } },
    async (request) => ok(await featureUpdates.deleteFeatureUpdates(app, request.body.ids)),
  );
}
