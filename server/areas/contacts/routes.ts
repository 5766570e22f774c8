import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  acceptFriendBodySchema,
  addNoticeBodySchema,
  addSectionBodySchema,
  applyFriendBodySchema,
  applyGroupBodySchema,
  contactSearchQuerySchema,
  CONTACTS_PATHS,
  contactsHistoryQuerySchema,
  contactsReadBodySchema,
  contactsSendBodySchema,
  createGroupBodySchema,
  decideGroupBodySchema,
  groupIdBodySchema,
  renameSectionBodySchema,
  requestIdBodySchema,
} from '../../../contract/chat';
import { ok } from '../../http/envelope';
import { requireUser } from '../../plugins/auth';
import { createContactsService } from './service';

type Body<S extends z.ZodType> = { Body: z.output<S> };
type Query<S extends z.ZodType> = { Querystring: z.output<S> };

/** Team contacts and their messages (issue 6), gated on the 'chat' area like the chat page. */
export async function contactsRoutes(app: FastifyInstance) {
  const contacts = createContactsService({
    database: app.database,
    now: () => app.now(),
    push: (userId, message) => void app.push.toUser(userId, message),
    isOnline: (userId) => app.push.isOnline(userId),
  });
  const unsubscribe = app.push.onPresence((userId, online) => {
    contacts.announcePresence(userId, online).catch((error: unknown) => app.log.error({ err: error, userId }, 'presence push failed'));
  });
  app.addHook('onClose', async () => unsubscribe());
  const config = { area: 'chat' } as const;
  const me = (request: { user: Parameters<typeof requireUser>[0] }) => requireUser(request.user).id;

  app.get(CONTACTS_PATHS.overview, { config }, async (request) => ok(await contacts.overview(me(request), request.lang)));

  app.get<Query<typeof contactSearchQuerySchema>>(CONTACTS_PATHS.searchUsers, { config, schema: { querystring: contactSearchQuerySchema } }, async (request) =>
    ok(await contacts.searchUsers(me(request), request.query.keyword)),
  );
  app.get<Query<typeof contactSearchQuerySchema>>(CONTACTS_PATHS.searchGroups, { config, schema: { querystring: contactSearchQuerySchema } }, async (request) =>
    ok(await contacts.searchGroups(me(request), request.query.keyword)),
  );

  app.post<Body<typeof applyFriendBodySchema>>(CONTACTS_PATHS.applyFriend, { config, schema: { body: applyFriendBodySchema } }, async (request) =>
    ok(await contacts.applyFriend(me(request), request.body, request.lang)),
  );
  app.post<Body<typeof acceptFriendBodySchema>>(CONTACTS_PATHS.acceptFriend, { config, schema: { body: acceptFriendBodySchema } }, async (request) =>
    ok(await contacts.acceptFriend(me(request), request.body, request.lang)),
  );
  app.post<Body<typeof requestIdBodySchema>>(CONTACTS_PATHS.rejectFriend, { config, schema: { body: requestIdBodySchema } }, async (request) =>
    ok(await contacts.rejectFriend(me(request), request.body.requestId)),
  );

  app.post<Body<typeof addSectionBodySchema>>(CONTACTS_PATHS.addSection, { config, schema: { body: addSectionBodySchema } }, async (request) =>
    ok(await contacts.addSection(me(request), request.body.name)),
  );
  app.post<Body<typeof renameSectionBodySchema>>(CONTACTS_PATHS.renameSection, { config, schema: { body: renameSectionBodySchema } }, async (request) =>
    ok(await contacts.renameSection(me(request), request.body.id, request.body.name)),
  );

  app.post<Body<typeof createGroupBodySchema>>(CONTACTS_PATHS.createGroup, { config, schema: { body: createGroupBodySchema } }, async (request) =>
    ok(await contacts.createGroup(me(request), request.body)),
  );
  app.post<Body<typeof applyGroupBodySchema>>(CONTACTS_PATHS.applyGroup, { config, schema: { body: applyGroupBodySchema } }, async (request) =>
    ok(await contacts.applyGroup(me(request), request.body)),
  );
  app.post<Body<typeof decideGroupBodySchema>>(CONTACTS_PATHS.decideGroup, { config, schema: { body: decideGroupBodySchema } }, async (request) =>
    ok(await contacts.decideGroup(me(request), request.body.requestId, request.body.accept)),
  );
  app.post<Body<typeof groupIdBodySchema>>(CONTACTS_PATHS.leaveGroup, { config, schema: { body: groupIdBodySchema } }, async (request) =>
    ok(await contacts.leaveGroup(me(request), request.body.groupId)),
  );
  app.post<Body<typeof addNoticeBodySchema>>(CONTACTS_PATHS.addNotice, { config, schema: { body: addNoticeBodySchema } }, async (request) =>
    ok(await contacts.addNotice(me(request), request.body)),
  );

  app.get<Query<typeof contactsHistoryQuerySchema>>(CONTACTS_PATHS.history, { config, schema: { querystring: contactsHistoryQuerySchema } }, async (request) =>
    ok(await contacts.history(me(request), request.query)),
  );
  app.post<Body<typeof contactsSendBodySchema>>(CONTACTS_PATHS.send, { config, schema: { body: contactsSendBodySchema } }, async (request) =>
    ok(await contacts.send(me(request), request.body)),
  );
  app.post<Body<typeof contactsReadBodySchema>>(CONTACTS_PATHS.read, { config, schema: { body: contactsReadBodySchema } }, async (request) =>
    ok({ unread: await contacts.read(me(request), request.body) }),
  );
}
