import type { AnyStateMachine, AnyStateNode } from 'xstate';

/**
 * A machine's statechart as plain data, derived from its definition (never drawn by hand): every state with its
 * parent, kind, initial flag and invoked actors, and every transition with its event, guard and delay.
 */

export type FlowState = {
  /** The state node's id, e.g. 'session.loggedIn.verifying' (the machine's root is the machine id). */
  id: string;
  key: string;
  /** The keys from the root, joined with dots ('' for the root): what a snapshot's value names. */
  path: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  parentId: string | null;
  /** The parent's initial state. */
  initial: boolean;
  invokes: { id: string; src: string }[];
  tags: string[];
  description: string | null;
};

export type FlowTransition = {
  id: string;
  sourceId: string;
  /** Empty for a transition that stays in its state (actions only). */
  targetIds: string[];
  kind: 'event' | 'after' | 'always';
  /** The event type ('*' for any), 'after 800 ms' for a delayed one, 'always' for an eventless one. */
  event: string;
  /** What the chart writes: the event, with an invoked actor's done and error events named by the actor's source. */
  display: string;
  guard: string | null;
  delay: string | null;
};

export type FlowGraph = {
  machineId: string;
  states: FlowState[];
  transitions: FlowTransition[];
  events: string[];
  /** Actors the machine declares but never invokes: the ones its actions spawn (shown on the root's box). */
  spawns: string[];
};

function nameOf(value: unknown, fallback: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'function') return value.name || fallback;
  if (value && typeof value === 'object') {
    const record = value as { type?: unknown; id?: unknown; guards?: unknown };
    if (typeof record.type === 'string') {
      // Higher-order guards (and(), or(), not()) name their parts.
      if (Array.isArray(record.guards)) return `${record.type.replace('xstate.', '')}(${record.guards.map((guard) => nameOf(guard, '?')).join(', ')})`;
      return record.type;
    }
    if (typeof record.id === 'string') return record.id;
  }
  return fallback;
}

function delayOf(delay: unknown): string {
  if (typeof delay === 'number') return delay >= 1000 && delay % 1000 === 0 ? `${delay / 1000} s` : `${delay} ms`;
  return nameOf(delay, 'delay');
}

export function machineGraph(machine: AnyStateMachine): FlowGraph {
  const states: FlowState[] = [];
  const transitions: FlowTransition[] = [];
  const events = new Set<string>();

  const invokeSources = new Map<string, string>();
  const collect = (node: AnyStateNode) => {
    for (const invoke of node.invoke as { id: string; src: unknown }[]) invokeSources.set(invoke.id, nameOf(invoke.src, 'inline'));
    for (const child of Object.values(node.states) as AnyStateNode[]) collect(child);
  };
  collect(machine.root);
  const displayOf = (event: string) => {
    const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
    if (!match) return event;
    return `${match[1]}: ${invokeSources.get(match[2] ?? '') ?? match[2]}`;
  };

  const visit = (node: AnyStateNode, parent: AnyStateNode | null) => {
    const initialTargets = parent?.type === 'compound' ? (parent.initial?.target ?? []) : [];
    states.push({
      id: node.id,
      key: node.key,
      path: node.path.join('.'),
      type: node.type,
      parentId: parent?.id ?? null,
      initial: initialTargets.some((target: AnyStateNode) => target === node),
      invokes: node.invoke.map((invoke: { id: string; src: unknown }) => ({ id: invoke.id, src: nameOf(invoke.src, 'inline') })),
      tags: [...node.tags],
      description: node.description ?? null,
    });
    const add = (kind: FlowTransition['kind'], event: string, definition: { target?: ReadonlyArray<AnyStateNode>; guard?: unknown }, delay: string | null) => {
      transitions.push({
        id: `${node.id}#${transitions.length}`,
        sourceId: node.id,
        targetIds: (definition.target ?? []).map((target) => target.id),
        kind,
        event,
        display: displayOf(event),
        guard: definition.guard === undefined ? null : nameOf(definition.guard, 'guard'),
        delay,
      });
    };
    for (const [eventType, definitions] of node.transitions) {
      if (eventType.startsWith('xstate.after')) continue;
      if (!eventType.startsWith('xstate.')) events.add(eventType);
      for (const definition of definitions) add('event', eventType, definition, null);
    }
    for (const definition of node.after) {
      const delay = delayOf(definition.delay);
      add('after', `after ${delay}`, definition, delay);
    }
    for (const definition of node.always ?? []) add('always', 'always', definition, null);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child, node);
  };
  visit(machine.root, null);
  const invoked = new Set(states.flatMap((state) => state.invokes.map((invoke) => invoke.src)));
  const declared = Object.keys((machine.implementations as { actors?: Record<string, unknown> }).actors ?? {});
  const spawns = declared.filter((name) => !invoked.has(name)).sort();
  return { machineId: machine.id, states, transitions, events: [...events].sort(), spawns };
}

/** The paths of the states a snapshot value says are active: { loggedIn: 'ready' } -> '', 'loggedIn', 'loggedIn.ready'. */
export function activeStatePaths(value: unknown): Set<string> {
  const active = new Set<string>(['']);
  const walk = (prefix: string, part: unknown) => {
    const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
    if (typeof part === 'string') {
      active.add(join(part));
      return;
    }
    if (part && typeof part === 'object') {
      for (const [key, child] of Object.entries(part as Record<string, unknown>)) {
        active.add(join(key));
        walk(join(key), child);
      }
    }
  };
  walk('', value);
  return active;
}
