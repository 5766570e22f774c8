import type { AnyActorRef, InspectionEvent, Observer } from 'xstate';

/**
 * The app's side of the flows page (src/features/flows): every inspection event of the app's actors, made plain data
 * and posted on a BroadcastChannel of this origin, so a flows page in this window or another one draws them live with
 * nothing from outside. Posting costs a copy per event, so it happens only in development builds or once an
 * administrator has opened the flows page in this browser (which sets FLOWS_FLAG_KEY). The last events are kept so a
 * flows page opened later can ask for what happened before it.
 */

export const FLOWS_CHANNEL = 'seller-flows';
export const FLOWS_FLAG_KEY = 'flows.enabled';
const KEPT_EVENTS = 3_000;

/** `seq` counts a window's messages, so a page that hears a replay twice keeps each once. */
type Origin = { windowId: string; seq: number; time: number };
export type FlowMessage = Origin &
  (
  | { kind: 'actor'; id: string; name: string; parentId: string | null; systemId: string | null; machineId: string | null }
  | { kind: 'event'; sourceId: string | null; targetId: string; event: PlainEvent }
  | { kind: 'snapshot'; id: string; value: unknown; status: string; context: unknown; eventType: string }
  );

export type PlainEvent = { type: string; [key: string]: unknown };

/** What a flows page sends to ask every window for the events it kept. */
export type FlowRequest = { kind: 'replay' };

/** Values under these keys are credentials (access tokens, the login's `auto` token, passwords, keys): never shown. */
const SECRET_KEY = /token|password|passwd|secret|apikey|api_key|^auto$|cookie|captcha|^code$/i;

/**
 * Copies a value so it can cross a BroadcastChannel: actor references become their ids, functions are dropped, big
 * values cut, and credentials replaced by '[redacted]' (the flows page is screenshotted and exported).
 */
export function toPlain(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > 300 ? `${value.slice(0, 300)}…` : value;
  if (typeof value === 'undefined' || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value === 'bigint') return `${value}n`;
  if (depth >= 4) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, 30).map((item) => toPlain(item, depth + 1));
    return value.length > 30 ? [...items, `… ${value.length - 30} more`] : items;
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map) return { Map: toPlain([...value.entries()], depth) };
  if (value instanceof Set) return { Set: toPlain([...value], depth) };
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as ArrayBufferView).byteLength} bytes)`;
  const record = value as Record<string, unknown>;
  if (typeof record.sessionId === 'string' && typeof record.send === 'function') return { actor: record.sessionId };
  const plain: Record<string, unknown> = {};
  let count = 0;
  for (const key of Object.keys(record)) {
    if (count++ >= 40) {
      plain['…'] = `${Object.keys(record).length - 40} more`;
      break;
    }
    if (SECRET_KEY.test(key) && record[key] !== null && record[key] !== undefined && record[key] !== '') {
      plain[key] = '[redacted]';
      continue;
    }
    const item = toPlain(record[key], depth + 1);
    if (item !== undefined) plain[key] = item;
  }
  return plain;
}

function parentOf(actor: AnyActorRef): AnyActorRef | undefined {
  return (actor as { _parent?: AnyActorRef })._parent;
}

function machineIdOf(actor: AnyActorRef): string | null {
  const logic = (actor as { logic?: { id?: unknown; config?: { id?: unknown } } }).logic;
  const id = logic?.id ?? logic?.config?.id;
  return typeof id === 'string' ? id : null;
}

export function flowMessageOf(event: InspectionEvent, windowId: string, seq: number, time = Date.now()): FlowMessage | null {
  switch (event.type) {
    case '@xstate.actor': {
      const actor = event.actorRef as AnyActorRef;
      return {
        kind: 'actor',
        windowId,
        seq,
        time,
        id: actor.sessionId,
        name: actor.id,
        parentId: parentOf(actor)?.sessionId ?? null,
        systemId: (actor as { systemId?: string }).systemId ?? null,
        machineId: machineIdOf(actor),
      };
    }
    case '@xstate.event':
      return { kind: 'event', windowId, seq, time, sourceId: event.sourceRef?.sessionId ?? null, targetId: event.actorRef.sessionId, event: toPlain(event.event) as PlainEvent };
    case '@xstate.snapshot': {
      const snapshot = event.snapshot as { value?: unknown; status?: string; context?: unknown };
      return {
        kind: 'snapshot',
        windowId,
        seq,
        time,
        id: event.actorRef.sessionId,
        value: toPlain(snapshot.value),
        status: snapshot.status ?? 'active',
        context: toPlain(snapshot.context),
        eventType: event.event.type,
      };
    }
    default:
      return null;
  }
}

function enabled(): boolean {
  if (process.env.NODE_ENV === 'development') return true;
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(FLOWS_FLAG_KEY) === '1';
  } catch {
    return false;
  }
}

let observer: Observer<InspectionEvent> | null | undefined;

/** The inspection observer every app actor is created with (createAppActor), or undefined when flows are off. */
export function flowsInspect(): Observer<InspectionEvent> | undefined {
  if (observer !== undefined) return observer ?? undefined;
  if (typeof BroadcastChannel === 'undefined' || !enabled()) {
    observer = null;
    return undefined;
  }
  const channel = new BroadcastChannel(FLOWS_CHANNEL);
  const windowId = Math.random().toString(36).slice(2, 8);
  const kept: FlowMessage[] = [];
  let seq = 0;
  channel.onmessage = (message: MessageEvent<FlowRequest>) => {
    if (message.data?.kind === 'replay') for (const item of kept) channel.postMessage(item);
  };
  observer = {
    next(event) {
      const message = flowMessageOf(event, windowId, (seq += 1));
      if (!message) return;
      kept.push(message);
      if (kept.length > KEPT_EVENTS) kept.splice(0, kept.length - KEPT_EVENTS);
      try {
        channel.postMessage(message);
      } catch {
        // A value the copy above let through that still cannot be cloned: the page misses this one event.
      }
    },
  };
  return observer;
}
