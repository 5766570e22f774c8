import { createActor, type Actor } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import { controlledPromise, pathName, transitionPaths } from '../tests/support/transitionPaths';
import {
  promotionActionsMachine,
  selectOutcomes,
  selectPhase,
  selectProgress,
  type PromotionActionsEmitted,
  type PromotionActionsEvent,
  type PromotionActionsInput,
  type PromotionActionsSnapshot,
  type PromotionSubject,
  type RunPromotionChunkInput,
  type RunPromotionChunkOutput,
} from './promotionActionsMachine';

const CHUNK = 2;
const subject = (n: number): PromotionSubject => ({ key: `p${n}`, label: `offer-${n}`, data: { productId: n, actionPrice: 100 } });
const SUBJECTS = [subject(1), subject(2), subject(3)];
const target = { storeId: 1, actionId: 7 };
const tooHigh = '活动价高于Ozon允许的最高活动价';
const timeout = { message: 'ozon接口请求超时' };

// ---------------------------------------------------------------------------------------------------------------
// The graph: the real machine walked with the user's events (start with and without subjects, edit a price, confirm,
// cancel before and while running, retry, close, start the next action) and every answer of its one actor (all done,
// the chunk's first product refused, the whole call failing). A vertex is the phase plus what the dialog shows.

type GraphEvent = PromotionActionsEvent | { type: string; output?: unknown; error?: unknown };

const answered = (output: RunPromotionChunkOutput): GraphEvent => ({ type: 'xstate.done.actor.runChunk', output });

function eventsFor(snapshot: PromotionActionsSnapshot): GraphEvent[] {
  const { chunk } = snapshot.context;
  switch (selectPhase(snapshot)) {
    case 'idle':
      return [
        { type: 'action.start', kind: 'add', target, subjects: SUBJECTS },
        { type: 'action.start', kind: 'remove', target, subjects: [] },
      ];
    case 'confirming':
      return [{ type: 'action.edit', key: 'p3', data: { actionPrice: 90 } }, { type: 'action.confirm' }, { type: 'action.cancel' }];
    case 'running':
      return [
        answered({ failures: {} }),
        answered({ failures: { [chunk[0]!]: tooHigh } }),
        { type: 'xstate.error.actor.runChunk', error: timeout },
        { type: 'action.cancel' },
      ];
    case 'outcome':
      return [{ type: 'action.retry' }, { type: 'action.close' }, { type: 'action.start', kind: 'remove', target, subjects: [SUBJECTS[0]!] }];
  }
}

function seen(snapshot: PromotionActionsSnapshot): string {
  const { kind, outcomes, queue, chunk, cancelled, subjects } = snapshot.context;
  const statuses = Object.entries(outcomes).map(([key, o]) => `${key}=${o.status}`);
  const prices = subjects.map((s) => s.data.actionPrice);
  return JSON.stringify({ value: snapshot.value, kind, prices, statuses, queue: queue.length, chunk: chunk.length, cancelled });
}

const traversal: TraversalOptions<PromotionActionsSnapshot, PromotionActionsEvent, PromotionActionsInput> = {
  events: eventsFor as (snapshot: PromotionActionsSnapshot) => PromotionActionsEvent[],
  serializeState: seen,
  input: { chunkSize: CHUNK },
};

// ---------------------------------------------------------------------------------------------------------------
// The live actor each path is replayed on: the machine with a fake server that answers when a step says so.

function startHarness() {
  const server = controlledPromise<RunPromotionChunkInput, RunPromotionChunkOutput>();
  const emitted: PromotionActionsEmitted[] = [];
  const machine = promotionActionsMachine.provide({ actors: { runChunk: server.logic } });
  const actor: Actor<typeof machine> = createActor(machine, { input: { chunkSize: CHUNK } });
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, calls: server.calls, answer: server.answer, emitted };
}

let h: ReturnType<typeof startHarness>;

/** A step: an actor's answer settles the fake server's latest call; a user's event goes to the actor as it is. */
const exec = async (event: GraphEvent) => {
  if (event.type === 'xstate.init') return;
  if (event.type.startsWith('xstate.')) await h.answer(event);
  else h.actor.send(event as PromotionActionsEvent);
};

/** What each phase must show on the live actor, beyond matching the model. */
const phaseChecks = {
  running: () => {
    const { context } = h.actor.getSnapshot();
    if (context.cancelled) return;
    // The server is sent exactly the chunk, with the prices as last edited, for the action's shop and action.
    const call = h.calls.at(-1)!;
    expect(call.input.subjects.map((s) => s.key)).toEqual(context.chunk);
    expect(call.input.subjects).toEqual(context.subjects.filter((s) => context.chunk.includes(s.key)));
    expect(call.input.target).toEqual(target);
    expect(context.chunk.length).toBe(Math.min(CHUNK, context.queue.length));
  },
  outcome: () => {
    const snapshot = h.actor.getSnapshot();
    const progress = selectProgress(snapshot);
    const done = Object.values(selectOutcomes(snapshot)).filter((o) => o.status === 'done').length;
    // Each entry into the outcome tells the page how it went; a retry is offered while something did not get done.
    expect(h.emitted.at(-1)).toEqual({ type: 'action.finished', kind: snapshot.context.kind, done, failed: progress.failed });
    expect(snapshot.can({ type: 'action.retry' })).toBe(done < progress.total);
    for (const outcome of Object.values(selectOutcomes(snapshot))) if (outcome.status === 'failed') expect([tooHigh, timeout.message]).toContain(outcome.reason);
  },
  idle: () => expect(selectOutcomes(h.actor.getSnapshot())).toEqual({}),
};

describe('promotion actions machine: every reachable state and transition', () => {
  const { shortest, adjacency, paths } = transitionPaths<PromotionActionsSnapshot>(promotionActionsMachine, traversal as never, seen);

  it('reaches every phase, a retry that succeeds and one refused again, and a cancel mid-run', () => {
    expect(new Set(shortest.map((path) => selectPhase(path.state)))).toEqual(new Set(['idle', 'confirming', 'running', 'outcome']));
    const retried = paths.filter((path) => path.steps.some((step) => step.event.type === 'action.retry') && path.state.matches('outcome'));
    expect(retried.some((path) => Object.values(path.state.context.outcomes).every((o) => o.status === 'done'))).toBe(true);
    expect(retried.some((path) => Object.values(path.state.context.outcomes).some((o) => o.status === 'failed'))).toBe(true);
    expect(paths.some((path) => path.state.matches('outcome') && Object.values(path.state.context.outcomes).some((o) => o.status === 'pending'))).toBe(true);
    const edges = Object.values(adjacency).reduce((sum, vertex) => sum + Object.keys(vertex.transitions).length, 0);
    expect(paths.length).toBe(edges);
  });

  for (const path of paths) {
    it(`${pathName(path)} ⇒ ${JSON.stringify(path.state.value)}`, async () => {
      h = startHarness();
      try {
        for (const step of path.steps) {
          await exec(step.event);
          const snapshot = h.actor.getSnapshot();
          expect(seen(snapshot)).toBe(seen(step.state));
          for (const [phase, check] of Object.entries(phaseChecks)) if (selectPhase(snapshot) === phase) check();
        }
      } finally {
        h.actor.stop();
      }
    });
  }
});
