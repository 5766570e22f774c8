import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { PUSH_PATH, pushMessageSchema, type PushMessage } from '../../contract/push';
import { requireUser } from './auth';
import { startPushFanout, type FanoutEvent, type PushFanout } from './pushFanout';

export type PushHub = {
  /**
   * Delivers to every open socket of the user, on this instance and (through PostgreSQL) on the others sharing the
   * database; answers how many sockets on this instance got it.
   */
  toUser(userId: number, message: PushMessage): number;
  /**
   * Delivers a message about an account's data to every socket working on it (the owner's, and its members'), but
   * only where the person may see the shop the message is about (its `storeId` or `shopId`), everywhere.
   */
  toAccount(accountId: number, message: PushMessage): number;
  /**
   * The account's organisation changed: every socket working on it reads its person's scope again (a disabled
   * member's sockets close) and is told `scope.changed`, so an open page drops what it may no longer see.
   */
  rescope(accountId: number): void;
  /** The accounts with a socket open on any instance (an owner's or a member's). */
  onlineAccountIds(): number[];
  broadcast(message: PushMessage): number;
  /** Closes the sockets of ended sessions (logout, password change), wherever they are connected. */
  closeSessions(sessionIds: readonly number[]): void;
  /** Presence: the user has at least one open socket on any instance. */
  isOnline(userId: number): boolean;
  onlineUserIds(): number[];
  /**
   * Called when a user's first socket opens or last one closes, across instances: one instance calls it for each
   * change (the one where it happened; for an instance that stopped answering, the one with the lowest id).
   * Answers an unsubscribe.
   */
  onPresence(listener: (userId: number, online: boolean) => void): () => void;
};

declare module 'fastify' {
  interface FastifyInstance {
    push: PushHub;
  }
}

type Connection = { socket: WebSocket; sessionId: number; userId: number; accountId: number; shopScope: number[] | null };

/** The shop a push is about, when it is about one. */
export function pushShopId(message: PushMessage): number | null {
  if ('storeId' in message && typeof message.storeId === 'number') return message.storeId;
  if ('shopId' in message && typeof message.shopId === 'number') return message.shopId;
  if (message.type === 'chat.buyerMessage') return message.message.storeId;
  return null;
}

const mayReceive = (connection: Connection, message: PushMessage) => {
  if (connection.shopScope === null) return true;
  const shopId = pushShopId(message);
  return shopId === null || connection.shopScope.includes(shopId);
};

export type PushPluginOptions = {
  /** How often an instance tells the others who is connected to it (default 10 s); silent for 3.5 of these, it is gone. */
  heartbeatMs?: number;
  /**
   * How long after a user's last socket closed they are announced offline, if no socket opened meanwhile on any
   * instance (default 3 s): a reload (closed here, opened perhaps on another instance) is no news, and the other
   * instances have heard of a socket opened there by then.
   */
  offlineGraceMs?: number;
  /**
   * A person's scope as of now (server/areas/session: who they work for and the shops they see); null when they may
   * no longer connect. Read again for an account's sockets on `rescope`.
   */
  scopeOf?: (userId: number) => Promise<{ accountId: number; shopScope: number[] | null } | null>;
};

/**
 * Sockets live on one instance. With several instances on one PostgreSQL database (pushFanout.ts), each push is
 * delivered to this instance's sockets at once and sent to the others, which deliver it to theirs: a browser gets it
 * once whichever instance it is connected to. On PGlite (one instance) nothing leaves the process.
 */
export const pushPlugin = fp(async function pushPlugin(app: FastifyInstance, options: PushPluginOptions) {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const offlineGraceMs = options.offlineGraceMs ?? 3_000;
  /** Users whose last socket here closed, waiting out the grace before they are announced offline. */
  const goingOffline = new Map<number, ReturnType<typeof setTimeout>>();
  const byUser = new Map<number, Set<Connection>>();
  /** The sockets working on each account's data (its owner's and its members'). */
  const byAccount = new Map<number, Set<Connection>>();
  /** Other instances' accounts with sockets there. */
  const peerAccounts = new Map<string, Set<number>>();
  /** Other instances: the users with sockets there, and when each was last heard from. */
  const peers = new Map<string, { users: Set<number>; seenAt: number }>();
  let fanout: PushFanout | null = null;
  /** Shutting down: the sockets closed now are no news (the others hear 'bye'). */
  let closing = false;
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
  const onPeer = (userId: number) => [...peers.values()].some((peer) => peer.users.has(userId));
  const isOnline = (userId: number) => (byUser.get(userId)?.size ?? 0) > 0 || onPeer(userId);

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
  const deliverToAccount = (accountId: number, message: PushMessage) =>
    deliver([...(byAccount.get(accountId) ?? [])].filter((connection) => mayReceive(connection, message)), message);
  /** Reads each socket's scope again from the database; a socket whose person lost access closes. */
  const rescopeLocal = async (accountId: number) => {
    for (const connection of [...(byAccount.get(accountId) ?? [])]) {
      try {
        const scope = await options.scopeOf?.(connection.userId);
        if (scope === undefined) continue;
        if (scope === null || scope.accountId !== accountId) {
          connection.socket.close(4001, 'session ended');
          continue;
        }
        connection.shopScope = scope.shopScope;
        deliver([connection], { type: 'scope.changed' });
      } catch (error) {
        app.log.error({ err: error, accountId }, 'push scope refresh failed');
      }
    }
  };
  const allConnections = () => [...byUser.values()].flatMap((set) => [...set]);
  const closeLocalSessions = (sessionIds: readonly number[]) => {
    for (const set of byUser.values()) {
      for (const connection of set) if (sessionIds.includes(connection.sessionId)) connection.socket.close(4001, 'session ended');
    }
  };

  // An instance that stopped answering (or said goodbye) takes its users' presence with it; of the instances
  // left, the one with the lowest id tells about those now offline everywhere.
  const dropPeer = (peerId: string) => {
    const peer = peers.get(peerId);
    const self = fanout?.instanceId;
    if (!peer || !self) return;
    peers.delete(peerId);
    peerAccounts.delete(peerId);
    if ([...peers.keys()].some((other) => other < self)) return;
    for (const userId of peer.users) if (!isOnline(userId)) announce(userId, false);
  };

  const onRemote = (from: string, event: FanoutEvent) => {
    let peer = peers.get(from);
    if (!peer) {
      peer = { users: new Set(), seenAt: 0 };
      peers.set(from, peer);
    }
    peer.seenAt = Date.now();
    switch (event.kind) {
      case 'user':
        deliver(byUser.get(event.userId) ?? [], event.message);
        break;
      case 'account':
        deliverToAccount(event.accountId, event.message);
        break;
      case 'rescope':
        void rescopeLocal(event.accountId);
        break;
      case 'all':
        deliver(allConnections(), event.message);
        break;
      case 'close':
        closeLocalSessions(event.sessionIds);
        break;
      case 'presence':
        if (event.online) peer.users.add(event.userId);
        else peer.users.delete(event.userId);
        break;
      case 'roster':
        peer.users = new Set(event.userIds);
        peerAccounts.set(from, new Set(event.accountIds ?? []));
        if (event.ask) fanout?.publish({ kind: 'roster', userIds: [...byUser.keys()], accountIds: [...byAccount.keys()], ask: false });
        break;
      case 'bye':
        dropPeer(from);
        break;
    }
  };
  fanout = await startPushFanout(app.database, onRemote, app.log);
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  if (fanout) {
    const started = fanout;
    started.publish({ kind: 'roster', userIds: [], ask: true });
    heartbeat = setInterval(() => {
      started.publish({ kind: 'roster', userIds: [...byUser.keys()], accountIds: [...byAccount.keys()], ask: false });
      const silentSince = Date.now() - heartbeatMs * 3.5;
      for (const [peerId, peer] of peers) if (peer.seenAt < silentSince) dropPeer(peerId);
    }, heartbeatMs);
    heartbeat.unref?.();
  }

  app.decorate('push', {
    toUser(userId, message) {
      fanout?.publish({ kind: 'user', userId, message });
      return deliver(byUser.get(userId) ?? [], message);
    },
    toAccount(accountId, message) {
      fanout?.publish({ kind: 'account', accountId, message });
      return deliverToAccount(accountId, message);
    },
    rescope(accountId) {
      fanout?.publish({ kind: 'rescope', accountId });
      void rescopeLocal(accountId);
    },
    onlineAccountIds: () => [...new Set([...byAccount.keys(), ...[...peerAccounts.values()].flatMap((set) => [...set])])],
    broadcast(message) {
      fanout?.publish({ kind: 'all', message });
      return deliver(allConnections(), message);
    },
    closeSessions(sessionIds) {
      fanout?.publish({ kind: 'close', sessionIds: [...sessionIds] });
      closeLocalSessions(sessionIds);
    },
    isOnline,
    onlineUserIds: () => [...new Set([...byUser.keys(), ...[...peers.values()].flatMap((peer) => [...peer.users])])],
    onPresence(listener) {
      presenceListeners.add(listener);
      return () => presenceListeners.delete(listener);
    },
  } satisfies PushHub);

  app.get(PUSH_PATH, { websocket: true }, (socket, request) => {
    const user = requireUser(request.user);
    const connection: Connection = { socket, sessionId: user.sessionId, userId: user.id, accountId: user.accountId, shopScope: user.shopScope };
    const accountSet = byAccount.get(user.accountId) ?? new Set<Connection>();
    accountSet.add(connection);
    byAccount.set(user.accountId, accountSet);
    const set = byUser.get(user.id) ?? new Set<Connection>();
    set.add(connection);
    byUser.set(user.id, set);
    if (set.size === 1) {
      fanout?.publish({ kind: 'presence', userId: user.id, online: true });
      const pending = goingOffline.get(user.id);
      goingOffline.delete(user.id);
      // Back within the grace: never announced offline, so not announced online again.
      if (pending) clearTimeout(pending);
      else if (!onPeer(user.id)) announce(user.id, true);
    }
    socket.on('close', () => {
      set.delete(connection);
      accountSet.delete(connection);
      if (accountSet.size === 0 && byAccount.get(user.accountId) === accountSet) byAccount.delete(user.accountId);
      if (set.size === 0 && byUser.get(user.id) === set) {
        byUser.delete(user.id);
        if (closing) return;
        fanout?.publish({ kind: 'presence', userId: user.id, online: false });
        const timer = setTimeout(() => {
          goingOffline.delete(user.id);
          if (!isOnline(user.id)) announce(user.id, false);
        }, offlineGraceMs);
        timer.unref?.();
        goingOffline.set(user.id, timer);
      }
    });
    // Clients only listen; anything they send is ignored.
    socket.send(JSON.stringify({ type: 'hello', userId: user.id } satisfies PushMessage));
  });

  app.addHook('onClose', async () => {
    closing = true;
    if (heartbeat) clearInterval(heartbeat);
    for (const timer of goingOffline.values()) clearTimeout(timer);
    fanout?.publish({ kind: 'bye' });
    for (const set of byUser.values()) for (const { socket } of set) socket.close(1001, 'server shutting down');
    await fanout?.stop();
  });
});
