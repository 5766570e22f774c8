import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { PUSH_PATH, pushMessageSchema, type PushMessage } from '../../contract/push';
import { requireUser } from './auth';

export type PushHub = {
  /** Delivers to every open socket of the user on this instance; answers how many sockets got it. */
  toUser(userId: number, message: PushMessage): number;
  broadcast(message: PushMessage): number;
  /** Closes the sockets of ended sessions (logout, password change). */
  closeSessions(sessionIds: readonly number[]): void;
  /** Presence: the user has at least one open socket on this instance. */
  isOnline(userId: number): boolean;
  onlineUserIds(): number[];
  /** Called when a user's first socket opens or last one closes; answers an unsubscribe. */
  onPresence(listener: (userId: number, online: boolean) => void): () => void;
};

declare module 'fastify' {
  interface FastifyInstance {
    push: PushHub;
  }
}

type Connection = { socket: WebSocket; sessionId: number };

// Sockets live on one instance; with several instances behind a load balancer a Postgres LISTEN/NOTIFY fan-out
// would feed toUser/broadcast on each of them.
export const pushPlugin = fp(async function pushPlugin(app: FastifyInstance) {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const byUser = new Map<number, Set<Connection>>();
  const presenceListeners = new Set<(userId: number, online: boolean) => void>();
  const announce = (userId: number, online: boolean) => {
    for (const listener of presenceListeners) {
      try {
        listener(userId, online);
      } catch (error) {
        app.log.error({ err: error, userId }, 'presence listener failed');
      }
    }
  };

  const deliver = (connections: Iterable<Connection>, message: PushMessage) => {
    const frame = JSON.stringify(pushMessageSchema.parse(message));
    let sent = 0;
    for (const { socket } of connections) {
      if (socket.readyState === socket.OPEN) {
        socket.send(frame);
        sent += 1;
      }
    }
    return sent;
  };

  app.decorate('push', {
    toUser: (userId, message) => deliver(byUser.get(userId) ?? [], message),
    broadcast: (message) => deliver([...byUser.values()].flatMap((set) => [...set]), message),
    closeSessions(sessionIds) {
      for (const set of byUser.values()) {
        for (const connection of set) if (sessionIds.includes(connection.sessionId)) connection.socket.close(4001, 'session ended');
      }
    },
    isOnline: (userId) => (byUser.get(userId)?.size ?? 0) > 0,
    onlineUserIds: () => [...byUser.keys()],
    onPresence(listener) {
      presenceListeners.add(listener);
      return () => presenceListeners.delete(listener);
    },
  } satisfies PushHub);

  app.get(PUSH_PATH, { websocket: true }, (socket, request) => {
    const user = requireUser(request.user);
    const connection: Connection = { socket, sessionId: user.sessionId };
    const set = byUser.get(user.id) ?? new Set<Connection>();
    set.add(connection);
    byUser.set(user.id, set);
    if (set.size === 1) announce(user.id, true);
    socket.on('close', () => {
      set.delete(connection);
      if (set.size === 0 && byUser.get(user.id) === set) {
        byUser.delete(user.id);
        announce(user.id, false);
      }
    });
    // Clients only listen; anything they send is ignored.
    socket.send(JSON.stringify({ type: 'hello', userId: user.id } satisfies PushMessage));
  });

  app.addHook('onClose', async () => {
    for (const set of byUser.values()) for (const { socket } of set) socket.close(1001, 'server shutting down');
  });
});
