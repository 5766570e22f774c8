import type { FastifyInstance } from 'fastify';
import { CONTACTS_ENDPOINTS } from '../../../contract/chat';
import { route } from '../../http/route';
import { createContactsService } from './service';

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

  const E = CONTACTS_ENDPOINTS;

  route(app, E.overview, async ({ user, lang }) => contacts.overview(user.id, lang));

  route(app, E.searchUsers, async ({ user, input }) => contacts.searchUsers(user.id, input.keyword));
  route(app, E.searchGroups, async ({ user, input }) => contacts.searchGroups(user.id, input.keyword));

  route(app, E.applyFriend, async ({ user, input, lang }) => contacts.applyFriend(user.id, input, lang));
  route(app, E.acceptFriend, async ({ user, input, lang }) => contacts.acceptFriend(user.id, input, lang));
  route(app, E.rejectFriend, async ({ user, input }) => contacts.rejectFriend(user.id, input.requestId));

  route(app, E.addSection, async ({ user, input }) => contacts.addSection(user.id, input.name));
  route(app, E.renameSection, async ({ user, input }) => contacts.renameSection(user.id, input.id, input.name));

  route(app, E.createGroup, async ({ user, input }) => contacts.createGroup(user.id, input));
  route(app, E.applyGroup, async ({ user, input }) => contacts.applyGroup(user.id, input));
  route(app, E.decideGroup, async ({ user, input }) => contacts.decideGroup(user.id, input.requestId, input.accept));
  route(app, E.leaveGroup, async ({ user, input }) => contacts.leaveGroup(user.id, input.groupId));
  route(app, E.addNotice, async ({ user, input }) => contacts.addNotice(user.id, input));

  route(app, E.history, async ({ user, input }) => contacts.history(user.id, input));
  route(app, E.send, async ({ user, input }) => contacts.send(user.id, input));
  route(app, E.read, async ({ user, input }) => ({ unread: await contacts.read(user.id, input) }));
}
