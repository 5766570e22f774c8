import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';
import { ordersChangedPushSchema } from './orders';
import { productsChangedPushSchema } from './products';
import { returnsChangedPushSchema } from './returns';
import { noticeSchema } from './session';
import { syncProgressSchema } from './store';
import { buyerMessageSchema, teamMessageSchema, teamRequestSchema } from './chat';

/**
 * Messages the server pushes over the WebSocket at /api/ws (auth: `token` and `userId` query parameters, the same
 * rules as the X-Token / X-User-Id headers). One discriminated union: each area adds its own `type`s here, and the
 * worker parses every frame with `pushMessageSchema` and drops what it does not know.
 */
export const pushMessageSchema = lazySchema(() => z.discriminatedUnion('type', [
  /** Sent once when the socket is accepted. */
  z.object({ type: z.literal('hello'), userId: z.number().int() }),
  /** The person's role or shops in their organisation changed: lists drop what they may no longer see and sync again. */
  z.object({ type: z.literal('scope.changed') }),
  /** A notice was published or changed: the banner shows it without waiting for the next notice check. */
  z.object({ type: z.literal('notice'), notice: noticeSchema }),
  /** A shop's marketplace sync moved on (contract/store.ts). */
  syncProgressSchema.extend({ type: z.literal('sync.progress') }),
  /** The user's orders changed on the server (contract/orders.ts): the worker syncs its cache from its cursor. */
  ordersChangedPushSchema,
  /** The user's products changed on the server (contract/products.ts): the worker syncs its cache from its cursor. */
  productsChangedPushSchema,
  /** The user's returns changed on the server (contract/returns.ts): the worker syncs its returns cache. */
  returnsChangedPushSchema,
  /** A friend or group message (contract/chat.ts), to every member including the sender's other pages. */
  z.object({ type: z.literal('chat.message'), message: teamMessageSchema }),
  /** A friend or group application was made or answered: the system tab shows it. */
  z.object({ type: z.literal('chat.request'), request: teamRequestSchema }),
  /** Friends, sections or groups changed (accepted friend, joined group, new notice ...): read the overview again. */
  z.object({ type: z.literal('chat.contacts') }),
  /** A friend opened their first page or closed their last one. */
  z.object({ type: z.literal('chat.presence'), userId: z.number().int(), online: z.boolean() }),
  /** A new buyer message arrived in one of the seller's shops, with that chat's unread count. */
  z.object({ type: z.literal('chat.buyerMessage'), message: buyerMessageSchema, unread: z.number().int() }),
]));
export type PushMessage = z.infer<typeof pushMessageSchema>;
export type PushType = PushMessage['type'];

export const PUSH_PATH = '/api/ws';

/** How long a push ticket can open the socket (seconds): the page uses it at once. */
export const PUSH_TICKET_TTL_S = 30;

// POST /api/ws/ticket
export const pushTicketDataSchema = lazySchema(() => z.object({
  /** Opens PUSH_PATH once (`?ticket=`), within PUSH_TICKET_TTL_S. */
  ticket: z.string(),
  expiresInS: z.number().int(),
}));
export type PushTicketData = z.infer<typeof pushTicketDataSchema>;

export const PUSH_ENDPOINTS = {
  ticket: defineEndpoint({
    method: 'POST',
    path: '/ws/ticket',
    summary: `A single-use ticket that opens the push WebSocket (${PUSH_PATH}?ticket=...) within ${PUSH_TICKET_TTL_S} s, so no access token travels in its URL.`,
    access: 'open',
    // Hands out a ticket and changes nothing: the operation log leaves it out.
    action: 'view',
    answer: pushTicketDataSchema,
    settings: { silent: true, retries: 0, timeout: 15_000 },
  }),
} as const;
