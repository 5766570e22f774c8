import { z } from 'zod';
import { noticeSchema } from './session';
import { syncProgressSchema } from './store';

/**
 * Messages the server pushes over the WebSocket at /api/ws (auth: `token` and `userId` query parameters, the same
 * rules as the X-Token / X-User-Id headers). One discriminated union: each area adds its own `type`s here, and the
 * worker parses every frame with `pushMessageSchema` and drops what it does not know.
 */
export const pushMessageSchema = z.discriminatedUnion('type', [
  /** Sent once when the socket is accepted. */
  z.object({ type: z.literal('hello'), userId: z.number().int() }),
  /** A notice was published or changed: the banner shows it without waiting for the next notice check. */
  z.object({ type: z.literal('notice'), notice: noticeSchema }),
  /** A shop's marketplace sync moved on (contract/store.ts). */
  syncProgressSchema.extend({ type: z.literal('sync.progress') }),
]);
export type PushMessage = z.infer<typeof pushMessageSchema>;
export type PushType = PushMessage['type'];

export const PUSH_PATH = '/api/ws';
