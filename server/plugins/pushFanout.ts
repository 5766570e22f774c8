import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { PushMessage } from '../../contract/push';
import type { Database } from '../db/database';
import { NOTIFY_MAX_BYTES } from '../db/notifications';

/**
 * What one server instance tells the others sharing its PostgreSQL database, through one LISTEN/NOTIFY channel:
 * pushes for the sockets they hold, sessions to close, and which users have sockets where (presence).
 */
export type FanoutEvent =
  | { kind: 'user'; userId: number; message: PushMessage }
  /** For every socket working on this account's data that may see the message's shop. */
  | { kind: 'account'; accountId: number; message: PushMessage }
  /** The organisation of this account changed (roles, members, shops): read its sockets' scope again. */
  | { kind: 'rescope'; accountId: number }
  | { kind: 'all'; message: PushMessage }
  | { kind: 'close'; sessionIds: number[] }
  /** A user's first socket on the sender opened, or its last one closed. */
  | { kind: 'presence'; userId: number; online: boolean }
  /** Every user with a socket on the sender (its heartbeat); `ask`: a new instance asks the others for theirs. */
  | { kind: 'roster'; userIds: number[]; accountIds?: number[]; ask: boolean }
  /** The sender is shutting down. */
  | { kind: 'bye' };

const id = z.number().int();
// Push messages are checked again (pushMessageSchema) where they are delivered.
const fanoutEventSchema: z.ZodType<FanoutEvent> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: id, message: z.custom<PushMessage>((value) => typeof value === 'object' && value !== null) }),
  z.object({ kind: z.literal('account'), accountId: id, message: z.custom<PushMessage>((value) => typeof value === 'object' && value !== null) }),
  z.object({ kind: z.literal('rescope'), accountId: id }),
  z.object({ kind: z.literal('all'), message: z.custom<PushMessage>((value) => typeof value === 'object' && value !== null) }),
  z.object({ kind: z.literal('close'), sessionIds: z.array(id) }),
  z.object({ kind: z.literal('presence'), userId: id, online: z.boolean() }),
  z.object({ kind: z.literal('roster'), userIds: z.array(id), accountIds: z.array(id).optional(), ask: z.boolean() }),
  z.object({ kind: z.literal('bye') }),
]);
/** A notification: the event itself, or the id of the push_outbox row holding an event too large to notify. */
const envelopeSchema = z.union([z.object({ from: z.string(), event: fanoutEventSchema }), z.object({ from: z.string(), ref: id })]);

export const PUSH_CHANNEL = 'seller_push';
/** Outbox rows outlive every listener's read of them by far; then they go. */
const OUTBOX_KEEP = '1 minute';

export type PushFanout = {
  readonly instanceId: string;
  /** Sends to the other instances, in the order of the calls. A send that fails is logged and dropped. */
  publish(event: FanoutEvent): void;
  /** Everything published so far has been sent (or dropped). */
  flushed(): Promise<void>;
  stop(): Promise<void>;
};

type Log = { warn(object: unknown, message: string): void; error(object: unknown, message: string): void };

/**
 * Starts listening for the other instances' events (`onEvent` gets them in the order sent, never this instance's
 * own). Null on PGlite: one process, nothing to fan out.
 */
export async function startPushFanout(database: Database, onEvent: (from: string, event: FanoutEvent) => void, log: Log): Promise<PushFanout | null> {
  const notifications = database.notifications;
  if (!notifications) return null;
  const instanceId = randomUUID();

  let received = Promise.resolve();
  const receive = async (payload: string) => {
    const envelope = envelopeSchema.parse(JSON.parse(payload));
    if (envelope.from === instanceId) return;
    if ('event' in envelope) return onEvent(envelope.from, envelope.event);
    const [row] = await database.query<{ payload: string }>(`select payload from push_outbox where id = $1`, [envelope.ref]);
    if (!row) return log.warn({ ref: envelope.ref }, 'pushed event no longer in the outbox');
    const stored = envelopeSchema.parse(JSON.parse(row.payload));
    if ('event' in stored) onEvent(stored.from, stored.event);
  };
  const stopListening = await notifications.listen(
    PUSH_CHANNEL,
    (payload) => {
      // One at a time, so an event read from the outbox keeps its place among the small ones.
      received = received.then(() => receive(payload)).catch((error: unknown) => log.error({ err: error }, 'pushed event not handled'));
    },
    log,
  );

  const queue: string[] = [];
  let sent = Promise.resolve();
  const toPayload = async (text: string): Promise<string> => {
    if (Buffer.byteLength(text) <= NOTIFY_MAX_BYTES) return text;
    const [row] = await database.query<{ id: number }>(`insert into push_outbox (payload) values ($1) returning id`, [text]);
    await database.query(`delete from push_outbox where created_at < now() - interval '${OUTBOX_KEEP}'`);
    return JSON.stringify({ from: instanceId, ref: row!.id });
  };
  const sendQueued = async () => {
    const batch = queue.splice(0);
    try {
      const payloads: string[] = [];
      for (const text of batch) payloads.push(await toPayload(text));
      await notifications.notify(PUSH_CHANNEL, payloads);
    } catch (error) {
      // Pushes are hints: an open page also catches up by its own polls and its next sync.
      log.error({ err: error, events: batch.length }, 'push to the other instances failed');
    }
  };

  return {
    instanceId,
    publish(event) {
      queue.push(JSON.stringify({ from: instanceId, event }));
      // Events published while a send is under way go together in the next one.
      if (queue.length === 1) sent = sent.then(sendQueued);
    },
    flushed: () => sent,
    async stop() {
      await sent;
      await stopListening();
      await received;
    },
  };
}
