import { useSyncExternalStore } from 'react';
import { FLOWS_CHANNEL, type FlowMessage, type FlowRequest, type PlainEvent } from '@/app/flows/channel';

/**
 * What the flows page knows of the running app, from the inspection messages every app window posts on the flows
 * channel (src/app/flows/channel.ts): the actors and who spawned whom, each actor's snapshots after each event, and the
 * events between actors. Read-only: nothing is ever sent to the app's actors.
 */

/** One snapshot of an actor after an event: the event (with its payload) and the state and context it led to. */
export type Moment = { seq: number; time: number; eventType: string; event: PlainEvent | null; value: unknown; context: unknown; status: string };
export type LiveActor = {
  key: string;
  windowId: string;
  id: string;
  /** The actor's own id: the invoke or spawn id of a child, the machine id of a root. */
  name: string;
  parentKey: string | null;
  systemId: string | null;
  machineId: string | null;
  started: number;
  /** Every snapshot after an event, oldest first (the last is the current one). */
  moments: Moment[];
};
export type LiveEvent = { key: string; time: number; windowId: string; sourceKey: string | null; targetKey: string; event: PlainEvent };
export type LiveState = { actors: ReadonlyMap<string, LiveActor>; events: readonly LiveEvent[]; version: number };

const MAX_EVENTS = 5_000;
const MAX_MOMENTS = 500;

/** Puts `moment` among `moments` (ordered by seq, one window's counter) where its seq belongs: usually at the end. */
function insertInOrder(moments: Moment[], moment: Moment): void {
  let at = moments.length;
  while (at > 0 && moments[at - 1]!.seq > moment.seq) at--;
  moments.splice(at, 0, moment);
}

export function createLiveStore() {
  const actors = new Map<string, LiveActor>();
  let events: LiveEvent[] = [];
  const seen = new Set<string>();
  /** The last event each actor received: the snapshot that follows it is what it led to. */
  const lastEvent = new Map<string, PlainEvent>();
  let state: LiveState = { actors, events, version: 0 };
  const listeners = new Set<() => void>();
  let scheduled = false;

  const publish = () => {
    if (scheduled) return;
    scheduled = true;
    // Many messages arrive in one burst (a replay, a login): the page renders once per frame at most.
    setTimeout(() => {
      scheduled = false;
      state = { actors, events, version: state.version + 1 };
      for (const listener of listeners) listener();
    }, 50);
  };

  const keyOf = (windowId: string, id: string) => `${windowId}:${id}`;
  const actorFor = (windowId: string, id: string, time: number): LiveActor => {
    const key = keyOf(windowId, id);
    let actor = actors.get(key);
    if (!actor) {
      actor = { key, windowId, id, name: id, parentKey: null, systemId: null, machineId: null, started: time, moments: [] };
      actors.set(key, actor);
    }
    return actor;
  };

  function receive(message: FlowMessage): void {
    const dedupe = `${message.windowId}#${message.seq}`;
    if (seen.has(dedupe)) return;
    seen.add(dedupe);
    if (message.kind === 'actor') {
      const actor = actorFor(message.windowId, message.id, message.time);
      actor.parentKey = message.parentId ? keyOf(message.windowId, message.parentId) : null;
      actor.systemId = message.systemId;
      actor.name = message.name;
      actor.machineId = message.machineId;
      actor.started = message.time;
    } else if (message.kind === 'event') {
      lastEvent.set(keyOf(message.windowId, message.targetId), message.event);
      events.push({
        key: dedupe,
        time: message.time,
        windowId: message.windowId,
        sourceKey: message.sourceId ? keyOf(message.windowId, message.sourceId) : null,
        targetKey: keyOf(message.windowId, message.targetId),
        event: message.event,
      });
      if (events.length > MAX_EVENTS) events = events.slice(-MAX_EVENTS);
    } else {
      const actor = actorFor(message.windowId, message.id, message.time);
      const event = lastEvent.get(actor.key);
      // In the window's order: a live snapshot can come before the replay of the ones the window kept from earlier.
      insertInOrder(actor.moments, {
        seq: message.seq,
        time: message.time,
        eventType: message.eventType,
        event: event && event.type === message.eventType ? event : null,
        value: message.value,
        context: message.context,
        status: message.status,
      });
      if (actor.moments.length > MAX_MOMENTS) actor.moments.splice(0, actor.moments.length - MAX_MOMENTS);
    }
    publish();
  }

  return {
    receive,
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Listens on the flows channel and asks every window for what it kept. */
    connect(): () => void {
      if (typeof BroadcastChannel === 'undefined') return () => undefined;
      const channel = new BroadcastChannel(FLOWS_CHANNEL);
      channel.onmessage = (message: MessageEvent<FlowMessage>) => {
        if (message.data && 'seq' in message.data) receive(message.data);
      };
      channel.postMessage({ kind: 'replay' } satisfies FlowRequest);
      return () => channel.close();
    },
  };
}

export type LiveStore = ReturnType<typeof createLiveStore>;

export function useLive(store: LiveStore): LiveState {
  return useSyncExternalStore(store.subscribe, store.getState);
}

/** An actor's label: its machine and, when it has one, its system id. */
export function actorLabel(actor: LiveActor): string {
  const name = actor.machineId ?? actor.name;
  return actor.systemId ? `${name} (${actor.systemId})` : name;
}
