import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CHAT_ENDPOINTS } from '../../../contract/chat';
import { createLeases } from '../../db/leases';
import { route } from '../../http/route';
import { createBuyerChatService } from './service';
import { chatUploadRoutes } from './upload';
import { createBuyerChatWatcher, type BuyerChatWatcher } from './watcher';

export type ChatRoutesOptions = {
  /** How often new buyer messages are looked for (default 3 s); 0 turns the timer off (tests call `tick`). */
  pollMs?: number;
  /** Where uploads are kept; default DATA_DIR/uploads. */
  uploadDir?: string;
  /** Hands the watcher to a test. */
  onWatcher?: (watcher: BuyerChatWatcher) => void;
};

export const BUYER_CHAT_POLL_MS = 3_000;

/** Buyer chat (seller-tool §7 "Chat"): every call gated on the 'chat' area. */
export async function chatRoutes(app: FastifyInstance, options: ChatRoutesOptions = {}) {
  const service = createBuyerChatService({
    database: app.database,
    secretKey: app.config.secretKey,
    // The one client factory every area uses (server/marketplace/plugin.ts): one place decides where a shop's calls go.
    clientFor: (connection) => app.marketplace.clientFor(connection),
    now: () => app.now(),
    push: (userId, message) => void app.push.toAccount(userId, message),
  });
  const watcher = createBuyerChatWatcher({
    service,
    onlineUserIds: () => app.push.onlineAccountIds(),
    push: (userId, message) => void app.push.toAccount(userId, message),
    log: app.log,
    intervalMs: options.pollMs ?? BUYER_CHAT_POLL_MS,
    leases: createLeases(app.database),
    database: app.database,
  });
  options.onWatcher?.(watcher);
  app.addHook('onReady', async () => watcher.start());
  app.addHook('onClose', async () => watcher.stop());

  const E = CHAT_ENDPOINTS;

  route(app, E.list, async ({ user, lang }) => {
    const data = await service.list(user.accountId, lang);
    // A shop with an error shows the synced copy, not the marketplace's chats now.
    for (const shop of data.shops) if (shop.error === null) watcher.noteListed(shop.storeId, shop.chats);
    return data;
  });

  route(app, E.history, async ({ user, input }) => service.history(user.accountId, input));

  route(app, E.read, async ({ user, input }) => service.read(user.accountId, input));

  // Its own scope: multipart parsing stays on the upload route.
  await app.register(chatUploadRoutes, {
    database: app.database,
    dir: options.uploadDir ?? join(app.config.dataDir, 'uploads'),
    buyerChat: service,
    now: () => app.now(),
  });

  route(app, E.replyWindow, async ({ user, input, lang }) => service.replyWindow(user.accountId, input, lang));

  route(app, E.send, async ({ user, input }) => service.send(user.accountId, input));
}
