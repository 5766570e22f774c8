import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  ADMIN_USER_PATHS,
  addUserBodySchema,
  adminUserListQuerySchema,
  deleteUsersBodySchema,
  resetPasswordBodySchema,
  updateUserBodySchema,
} from '../../../contract/admin';
import { ok } from '../../http/envelope';
import { requireUser } from '../../plugins/auth';
import * as admin from './service';

type Body<S extends z.ZodType> = { Body: z.output<S> };
type Query<S extends z.ZodType> = { Querystring: z.output<S> };

/** The administrator's user manager (seller-tool §7 "Administration"); every call is gated on the admin area. */
export async function adminRoutes(app: FastifyInstance) {
  const config = { area: 'admin' } as const;

  app.get<Query<typeof adminUserListQuerySchema>>(ADMIN_USER_PATHS.list, { config, schema: { querystring: adminUserListQuerySchema } }, async (request) => {
    return ok(await admin.listUsers(app, request.query));
  });

  app.post<Body<typeof addUserBodySchema>>(ADMIN_USER_PATHS.add, { config, schema: { body: addUserBodySchema } }, async (request) => {
    return ok(await admin.addUser(app, request.body));
  });

  app.post<Body<typeof updateUserBodySchema>>(ADMIN_USER_PATHS.update, { config, schema: { body: updateUserBodySchema } }, async (request) => {
    return ok(await admin.updateUser(app, request.body));
  });

  app.post<Body<typeof deleteUsersBodySchema>>(ADMIN_USER_PATHS.delete, { config, schema: { body: deleteUsersBodySchema } }, async (request) => {
    const { deleted, endedSessionIds } = await admin.deleteUsers(app, requireUser(request.user), request.body.ids);
    app.push.closeSessions(endedSessionIds);
    return ok({ deleted });
  });

  app.post<Body<typeof resetPasswordBodySchema>>(ADMIN_USER_PATHS.resetPassword, { config, schema: { body: resetPasswordBodySchema } }, async (request) => {
    const { endedSessionIds } = await admin.resetPassword(app, requireUser(request.user), request.body.id, request.body.newPassword);
    app.push.closeSessions(endedSessionIds);
    return ok(null);
  });
}
