import type { AnyStateNode } from 'xstate';
import { createActor } from 'xstate';
import { MACHINES } from '@machines/registry';
import { flowMessageOf, toPlain, type FlowMessage } from '@/app/flows/channel';
import { activeStatePaths, machineGraph } from '@/features/flows/graph';
import { layoutGraph, layoutToSvg } from '@/features/flows/layout';
import { createLiveStore } from '@/features/flows/live';
import { dialogMachine } from '@machines/dialogMachine';

function allStates(node: AnyStateNode): AnyStateNode[] {
  return [node, ...(Object.values(node.states) as AnyStateNode[]).flatMap(allStates)];
}

describe('the flows page draws every machine from its definition', () => {
  it.each(Object.entries(MACHINES))('%s: every state and event is in its graph and laid out', async (_id, machine) => {
    const graph = machineGraph(machine);
    const states = allStates(machine.root);
    expect(graph.states.map((state) => state.id).sort()).toEqual(states.map((state) => state.id).sort());
    const events = new Set(states.flatMap((state) => [...state.transitions.keys()]).filter((type) => !type.startsWith('xstate.')));
    expect(new Set(graph.events)).toEqual(events);
    // Every transition with a target is routed, and its label drawn.
    const layout = await layoutGraph(graph);
    const routed = layout.transitions.filter((transition) => transition.targetIds.length > 0);
    expect(routed.every((transition) => transition.routes.length === transition.targetIds.length)).toBe(true);
    const svg = layoutToSvg(layout);
    for (const state of graph.states.filter((item) => item.parentId !== null)) expect(svg).toContain(`>${state.initial ? `● ${state.key}` : state.key}<`);
  });

  it('names guards, delays and invoked actors as the machine declares them', () => {
    const graph = machineGraph(MACHINES.session!);
    expect(graph.transitions.some((transition) => transition.guard !== null)).toBe(true);
    expect(graph.states.some((state) => state.invokes.length > 0)).toBe(true);
    const delayed = Object.values(MACHINES).flatMap((machine) => machineGraph(machine).transitions.filter((transition) => transition.kind === 'after'));
    expect(delayed.length).toBeGreaterThan(0);
    expect(delayed.every((transition) => /^after \d/.test(transition.event) || /^after [a-zA-Z]/.test(transition.event))).toBe(true);
  });

  it('names the actors a machine spawns from its actions', async () => {
    const tabs = machineGraph(MACHINES.tabs!);
    expect(tabs.spawns).toContain('tab');
    expect(layoutToSvg(await layoutGraph(tabs))).toContain('spawn tab');
    expect(machineGraph(MACHINES.conversation!).spawns).toContain('chatSend');
  });

  it('reads the active states of a nested value', () => {
    expect([...activeStatePaths({ loggedIn: { ready: 'idle' } })].sort()).toEqual(['', 'loggedIn', 'loggedIn.ready', 'loggedIn.ready.idle']);
    expect([...activeStatePaths('closed')].sort()).toEqual(['', 'closed']);
  });
});

/** The inspection messages of a dialog actor that is opened, then cancelled, in window w1. */
function openAndCancelDialog(): FlowMessage[] {
  const messages: FlowMessage[] = [];
  let seq = 0;
  const actor = createActor(dialogMachine, {
    input: { open: false, closeOnEscape: true, closeOnOutsideClick: true, showCloseButton: true },
    inspect: (event) => {
      const message = flowMessageOf(event, 'w1', (seq += 1));
      if (message) messages.push(message);
    },
  });
  actor.start();
  actor.send({ type: 'dialog.open' });
  actor.send({ type: 'dialog.cancel' });
  return messages;
}

describe('the live view of running actors', () => {
  it("keeps each actor's moments in order, ties it to its machine, and ignores a replay heard twice", async () => {
    const store = createLiveStore();
    const messages = openAndCancelDialog();
    for (const message of [...messages, ...messages]) store.receive(message);
    await new Promise((done) => setTimeout(done, 60));
    const live = [...store.getState().actors.values()];
    expect(live).toHaveLength(1);
    expect(live[0]?.machineId).toBe('dialog');
    expect(live[0]?.moments.map((moment) => moment.eventType)).toEqual(['xstate.init', 'dialog.open', 'dialog.cancel']);
    // Each moment carries the event that led to it, payload and all.
    expect(live[0]?.moments[1]?.event).toEqual({ type: 'dialog.open' });
    expect(store.getState().events.map((event) => event.event.type)).toEqual(['xstate.init', 'dialog.open', 'dialog.cancel']);
    // Every message crosses a BroadcastChannel: it must survive a structured clone.
    expect(() => structuredClone(messages)).not.toThrow();
  });

  it("lists a window's moments in its order when a live one is heard before the replay of the earlier ones", async () => {
    const store = createLiveStore();
    const messages = openAndCancelDialog();
    // The page opens while the window works: the newest snapshot comes live, then the window's replay of all it kept.
    const last = messages.filter((message) => message.kind === 'snapshot').at(-1)!;
    for (const message of [last, ...messages]) store.receive(message);
    await new Promise((done) => setTimeout(done, 60));
    const [live] = [...store.getState().actors.values()];
    expect(live?.moments.map((moment) => moment.eventType)).toEqual(['xstate.init', 'dialog.open', 'dialog.cancel']);
  });

  it('turns what cannot be cloned into plain data', () => {
    const ref = { sessionId: 'x:1', send: () => undefined };
    const plain = toPlain({ ref, fn: () => 1, big: 'a'.repeat(400), list: Array.from({ length: 40 }, (_, i) => i), nested: { a: { b: { c: { d: { e: 1 } } } } } }) as Record<string, unknown>;
    expect(plain.ref).toEqual({ actor: 'x:1' });
    expect('fn' in plain).toBe(false);
    expect(String(plain.big)).toHaveLength(301);
    expect(plain.list).toHaveLength(31);
    expect(() => structuredClone(plain)).not.toThrow();
  });
});
