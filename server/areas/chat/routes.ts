import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { CHAT_PATHS, chatHistoryQuerySchema, chatReadBodySchema, sendMessageBodySchema } from '../../../contract/chat';
import { ok } from '../../http/envelope';
import { createLeases } from '../../db/leases';
import { requireUser } from '../../plugins/auth';
import { createBuyerChatService } from './service';
import { chatUploadRoutes } from './upload';
import { createBuyerChatWatcher, type BuyerChatWatcher } from './watcher';

type Body<S extends z.ZodType> = { Body: z.output<S> };
type Query<S extends z.ZodType> = { Querystring: z.output<S> };

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
    push: (userId, message) => void app.push.toUser(userId, message),
  });
  const watcher = createBuyerChatWatcher({
    service,
    onlineUserIds: () => app.push.onlineUserIds(),
    push: (userId, message) => void app.push.toUser(userId, message),
    log: app.log,
    intervalMs: options.pollMs ?? BUYER_CHAT_POLL_MS,
    leases: createLeases(app.database),
  });
  options.onWatcher?.(watcher);
  app.addHook('onReady', async () => watcher.start());
  app.addHook('onClose', async () => watcher.stop());
  const config = { area: 'chat' } as const;

  app.get(CHAT_PATHS.list, { config }, async (request) => ok(await service.list(requireUser(request.user).id, request.lang)));

  app.get<Query<typeof chatHistoryQuerySchema>>(CHAT_PATHS.history, { config, schema: { querystring: chatHistoryQuerySchema } }, async (request) =>
    ok(await service.history(requireUser(request.user).id, request.query)),
  );

  app.post<Body<typeof chatReadBodySchema>>(CHAT_PATHS.read, { config, schema: { body: chatReadBodySchema } }, async (request) =>
    ok(await service.read(requireUser(request.user).id, request.body)),
  );

  // Its own scope: multipart parsing stays on the upload route.
  await app.register(chatUploadRoutes, {
    database: app.database,
    dir: options.uploadDir ?? join(app.config.dataDir, 'uploads'),
    buyerChat: service,
    now: () => app.now(),
  });

  app.post<Body<typeof sendMessageBodySchema>>(CHAT_PATHS.send, { config, schema: { body: sendMessageBodySchema } }, async (request) =>
    ok(await service.send(requireUser(request.user).id, request.body)),
  );
}
