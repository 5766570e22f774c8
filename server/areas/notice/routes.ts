import type { FastifyInstance } from 'fastify';
import { FEATURE_UPDATE_ENDPOINTS, NOTICE_ENDPOINTS } from '../../../contract/notice';
import { route } from '../../http/route';
import * as featureUpdates from './featureUpdates';
import * as notices from './service';

/**
 * The notice manager and the feature-update announcements (seller-tool §2.4, §7 "Administration"). The banner's
 * own read, SESSION_ENDPOINTS.noticeCheck, lives with the session calls; publishing here pushes to every open socket.
 */
export async function noticeRoutes(app: FastifyInstance) {
  const N = NOTICE_ENDPOINTS;
  const F = FEATURE_UPDATE_ENDPOINTS;

  route(app, N.list, async ({ input }) => notices.listNotices(app, input));

  route(app, N.add, async ({ user, input }) => {
    const row = await notices.addNotice(app, user.id, input.text);
    app.push.broadcast({ type: 'notice', notice: notices.asNotice(row) });
    return row;
  });

  route(app, N.update, async ({ input }) => {
    const row = await notices.updateNotice(app, input.id, input.text);
    app.push.broadcast({ type: 'notice', notice: notices.asNotice(row) });
    return row;
  });

  route(app, N.delete, async ({ input }) => {
    const { deleted, newNewest } = await notices.deleteNotices(app, input.ids);
    if (newNewest) app.push.broadcast({ type: 'notice', notice: newNewest });
    return { deleted };
  });

  route(app, F.current, async () => featureUpdates.currentFeatureUpdate(app));

  route(app, F.list, async ({ input }) => featureUpdates.listFeatureUpdates(app, input));

  route(app, F.add, async ({ input }) => featureUpdates.addFeatureUpdate(app, input));

  route(app, F.update, async ({ input }) => {
    const { id, ...changes } = input;
    return featureUpdates.updateFeatureUpdate(app, id, changes);
  });

  route(app, F.delete, async ({ input }) => featureUpdates.deleteFeatureUpdates(app, input.ids));
}
