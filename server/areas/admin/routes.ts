import type { FastifyInstance } from 'fastify';
import { ADMIN_USER_ENDPOINTS as E } from '../../../contract/admin';
import { route } from '../../http/route';
import * as admin from './service';

/** The administrator's user manager (seller-tool §7 "Administration"); every call is gated on the admin area. */
export async function adminRoutes(app: FastifyInstance) {
  route(app, E.list, async ({ input }) => admin.listUsers(app, input));

  route(app, E.add, async ({ input }) => admin.addUser(app, input));

  route(app, E.update, async ({ input }) => admin.updateUser(app, input));

  route(app, E.delete, async ({ user, input }) => {
    const { deleted, endedSessionIds } = await admin.deleteUsers(app, user, input.ids);
    app.push.closeSessions(endedSessionIds);
    return { deleted };
  });

  route(app, E.resetPassword, async ({ user, input }) => {
    const { endedSessionIds } = await admin.resetPassword(app, user, input.id, input.newPassword);
    app.push.closeSessions(endedSessionIds);
    return null;
  });
}
