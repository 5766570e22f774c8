import { createActor, fromPromise, SimulatedClock, type Actor } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import { transitionPaths } from '../tests/support/transitionPaths';
import {
  MAX_LABEL_WAITS,
  orderActionsMachine,
  selectCanRetry,
  selectProgress,
  selectStep,
  selectSummary,
  selectUnfinished,
  type ActionSubject,
  type OrderActionsEmitted,
  type OrderActionsEvent,
  type OrderActionsInput,
  type OrderActionsSnapshot,
  type PrepareSubjectsInput,
  type PrepareSubjectsOutput,
  type RunChunkInput,
  type RunChunkOutput,
} from './orderActionsMachine';

const LABEL_RETRY_MS = 60_000;
const CHUNK = 2;

const subject = (n: number, shopName: string): ActionSubject => ({ key: `1:P-${n}`, ref: `P-${n}`, shopId: n === 3 ? 2 : 1, shopName, rowIds: [`r${n}`] });
const SUBJECTS = [subject(1, '深圳数码'), subject(2, '深圳数码'), subject(3, 'Yiwu')];
const file = { name: 'labels.pdf', type: 'application/pdf', bytes: new ArrayBuffer(4) };
const refused = { message: 'ozon接口请求超时' };
const notReady = 'Ozon尚未生成面单（发货后约45–60秒生成），请1分钟后重试';

// ---------------------------------------------------------------------------------------------------------------
// The graph: the real machine, traversed with the user's events and every answer its two actors can give (done
// with no failure, done with one posting refused, the whole call failing, labels not ready yet; nothing to act on).
// Each vertex is the state plus what the page shows of the context, so a retry that leaves other postings pending
// is a state of its own.

type GraphEvent = OrderActionsEvent | { type: string; output?: unknown; error?: unknown };

const prepared = (subjects: ActionSubject[]): GraphEvent => ({ type: 'xstate.done.actor.prepareSubjects', output: { subjects, omitted: 0 } });
const answered = (output: RunChunkOutput): GraphEvent => ({ type: 'xstate.done.actor.runChunk', output });
const AFTER_LABEL_RETRY = 'xstate.after.labelRetry.orderActions.running.waitingForLabels';

function eventsFor(snapshot: OrderActionsSnapshot): GraphEvent[] {
  const { kind, chunk } = snapshot.context;
  const first = SUBJECTS.find((s) => s.key === chunk[0]);
  switch (selectStep(snapshot)) {
    case 'idle':
      return [
        { type: 'action.start', kind: 'ship', selection: { kind: 'ids', ids: ['r1', 'r2', 'r3'] } },
        { type: 'action.start', kind: 'labels', selection: { kind: 'all', handle: 7, except: [], total: 3 } },
      ];
    case 'preparing':
      return [prepared(SUBJECTS), prepared([]), { type: 'xstate.error.actor.prepareSubjects', error: refused }, { type: 'action.cancel' }];
    case 'confirming':
      return [{ type: 'action.confirm', params: kind === 'tracking' ? { trackingNumber: 'TRK-1' } : {} }, { type: 'action.cancel' }];
    case 'running':
      return [
        answered(kind === 'labels' ? { status: 'done', failures: [], file } : { status: 'done', failures: [] }),
        answered({ status: 'done', failures: [{ ref: first!.ref, reason: '该订单当前状态不能发货' }] }),
        { type: 'xstate.error.actor.runChunk', error: refused },
        ...(kind === 'labels' ? [answered({ status: 'notReady', reason: notReady })] : []),
        { type: 'action.cancel' },
      ];
    case 'waitingForLabels':
      return [{ type: AFTER_LABEL_RETRY }, { type: 'action.fetchNow' }, { type: 'action.cancel' }];
    case 'outcome':
      return [{ type: 'action.retry' }, { type: 'action.close' }, { type: 'action.start', kind: 'labels', selection: { kind: 'ids', ids: ['r1'] } }];
    case 'failed':
      return [{ type: 'action.retry' }, { type: 'action.close' }];
    case 'empty':
      return [{ type: 'action.close' }];
  }
}

/** What the page can see: the step, the action, each posting's outcome, what is queued, the label waits. */
function seen(snapshot: OrderActionsSnapshot): string {
  const { kind, outcomes, queue, chunk, labelWaits, cancelled, error, subjects } = snapshot.context;
  const statuses = Object.entries(outcomes).map(([key, o]) => `${key}=${o.status}`);
  return JSON.stringify({ value: snapshot.value, kind, subjects: subjects.length, statuses, queue: queue.length, chunk: chunk.length, labelWaits, cancelled, error });
}

// createTestModel refuses machines that invoke actors; the traversal functions it is built on take them.
const traversal: TraversalOptions<OrderActionsSnapshot, OrderActionsEvent, OrderActionsInput> = {
  events: eventsFor as (snapshot: OrderActionsSnapshot) => OrderActionsEvent[],
  serializeState: (snapshot: OrderActionsSnapshot) => seen(snapshot),
  input: { labelRetryMs: LABEL_RETRY_MS, chunkSize: CHUNK },
};


// ---------------------------------------------------------------------------------------------------------------
// The live actor the paths are replayed on: the machine with fakes that answer when a step says so.

type Pending<I, O> = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void };

function startHarness() {
  const clock = new SimulatedClock();
  const calls = { prepare: [] as Pending<PrepareSubjectsInput, PrepareSubjectsOutput>[], run: [] as Pending<RunChunkInput, RunChunkOutput>[] };
  const emitted: OrderActionsEmitted[] = [];
  const machine = orderActionsMachine.provide({
    actors: {
      prepareSubjects: fromPromise<PrepareSubjectsOutput, PrepareSubjectsInput>(
        ({ input }) => new Promise((resolve, reject) => calls.prepare.push({ input, resolve, reject })),
      ),
      runChunk: fromPromise<RunChunkOutput, RunChunkInput>(({ input }) => new Promise((resolve, reject) => calls.run.push({ input, resolve, reject }))),
    },
  });
  const actor: Actor<typeof machine> = createActor(machine, { clock, input: { labelRetryMs: LABEL_RETRY_MS, chunkSize: CHUNK } });
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, clock, calls, emitted };
}

type Harness = ReturnType<typeof startHarness>;
let h: Harness;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const eventExecs = {
  'xstate.done.actor.prepareSubjects': async ({ event }: { event: GraphEvent }) => {
    h.calls.prepare.at(-1)!.resolve((event as { output: PrepareSubjectsOutput }).output);
    await settle();
  },
  'xstate.error.actor.prepareSubjects': async ({ event }: { event: GraphEvent }) => {
    h.calls.prepare.at(-1)!.reject((event as { error: unknown }).error);
    await settle();
  },
  'xstate.done.actor.runChunk': async ({ event }: { event: GraphEvent }) => {
    h.calls.run.at(-1)!.resolve((event as { output: RunChunkOutput }).output);
    await settle();
  },
  'xstate.error.actor.runChunk': async ({ event }: { event: GraphEvent }) => {
    h.calls.run.at(-1)!.reject((event as { error: unknown }).error);
    await settle();
  },
  [AFTER_LABEL_RETRY]: () => h.clock.increment(LABEL_RETRY_MS),
} as Record<string, (step: { event: GraphEvent }) => unknown>;

/** A user event goes to the actor as it is. */
const userEvent = ({ event }: { event: GraphEvent }) => h.actor.send(event as OrderActionsEvent);

/** What each step must show on the live actor, beyond matching the model's state and context. */
const stateChecks = {
  preparing: () => expect(h.calls.prepare.at(-1)!.input.kind).toBe(h.actor.getSnapshot().context.kind),
  confirming: () => {
    expect(selectSummary(h.actor.getSnapshot())).toEqual({
      count: 3,
      shops: [{ name: '深圳数码', count: 2 }, { name: 'Yiwu', count: 1 }],
      omitted: 0,
    });
  },
  'running.chunk': () => {
    const { context } = h.actor.getSnapshot();
    // The actor runs exactly the chunk, with what the user confirmed.
    expect(h.calls.run.at(-1)!.input.subjects.map((s) => s.key)).toEqual(context.chunk);
    expect(h.calls.run.at(-1)!.input.params).toEqual(context.params);
    expect(context.chunk.length).toBe(Math.min(CHUNK, context.queue.length));
  },
  'running.waitingForLabels': () => {
    const { context } = h.actor.getSnapshot();
    expect(context.labelsReason).toBe(notReady);
    expect(context.labelsDueAt).toBeGreaterThan(Date.now() + LABEL_RETRY_MS - 5_000);
    expect(context.labelWaits).toBeLessThanOrEqual(MAX_LABEL_WAITS);
  },
  outcome: () => {
    const snapshot = h.actor.getSnapshot();
    const progress = selectProgress(snapshot);
    // Every entry into the outcome tells the page how it went.
    expect(h.emitted.filter((e) => e.type === 'action.finished').at(-1)).toEqual({ type: 'action.finished', kind: snapshot.context.kind, done: progress.done, failed: progress.failed });
    expect(selectUnfinished(snapshot).length).toBe(progress.failed + progress.pending);
    expect(selectCanRetry(snapshot)).toBe(progress.failed + progress.pending > 0);
    for (const { reason } of selectUnfinished(snapshot)) expect(reason === null || reason.length > 0).toBe(true);
  },
  failed: () => expect(h.actor.getSnapshot().context.error).toBe(refused.message),
  idle: () => expect(h.actor.getSnapshot().context.subjects).toEqual([]),
};

function describePath(path: { steps: readonly { event: GraphEvent }[]; state: OrderActionsSnapshot }): string {
  const events = path.steps.slice(1).map(({ event }) => {
    const output = (event as { output?: { status?: string; subjects?: unknown[]; failures?: unknown[] } }).output;
    const detail = output?.subjects ? `${output.subjects.length}` : output?.status === 'done' ? `${output.failures?.length ?? 0} refused` : (output?.status ?? '');
    return `${event.type.replace('xstate.', '').replace(AFTER_LABEL_RETRY.replace('xstate.', ''), 'after label delay')}${detail ? `(${detail})` : ''}`;
  });
  return `${events.join(' → ')} ⇒ ${JSON.stringify(path.state.value)}`;
}

describe('order actions machine: every reachable state and transition', () => {
  const { shortest, adjacency, paths } = transitionPaths<OrderActionsSnapshot>(orderActionsMachine, traversal as never, seen);

  it('reaches every state, including failure, retry and the label wait', () => {
    const values = new Set(shortest.map((path) => JSON.stringify(path.state.value)));
    expect([...values].sort()).toEqual(
      ['"confirming"', '"empty"', '"failed"', '"idle"', '"outcome"', '"preparing"', '{"running":"chunk"}', '{"running":"waitingForLabels"}'].sort(),
    );
    const labelWaits = shortest.map((path) => path.state.context.labelWaits);
    expect(Math.max(...labelWaits)).toBe(MAX_LABEL_WAITS);
    // A retry that succeeds and one that fails again are both walked.
    const retried = paths.filter((path) => path.steps.some((step) => step.event.type === 'action.retry') && path.state.matches('outcome'));
    expect(retried.some((path) => Object.values(path.state.context.outcomes).every((o) => o.status === 'done'))).toBe(true);
    expect(retried.some((path) => Object.values(path.state.context.outcomes).some((o) => o.status === 'failed'))).toBe(true);
    // Every transition of the graph is the last step of one path.
    const edges = Object.values(adjacency).reduce((sum, vertex) => sum + Object.keys(vertex.transitions).length, 0);
    expect(paths.length).toBe(edges);
  });

  for (const path of paths) {
    it(describePath(path), async () => {
      h = startHarness();
      try {
        for (const step of path.steps) {
          const exec = step.event.type === 'xstate.init' ? () => undefined : (eventExecs[step.event.type] ?? userEvent);
          await exec(step);
          const snapshot = h.actor.getSnapshot();
          expect(seen(snapshot)).toBe(seen(step.state));
          for (const [key, check] of Object.entries(stateChecks)) if (snapshot.matches(key as never)) check();
        }
      } finally {
        h.actor.stop();
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------

async function confirmed(kind: 'ship' | 'labels' | 'tracking', params = {}) {
  const harness = startHarness();
  h = harness;
  harness.actor.send({ type: 'action.start', kind, selection: { kind: 'ids', ids: ['r1', 'r2', 'r3'] } });
  await eventExecs['xstate.done.actor.prepareSubjects']!({ event: prepared(SUBJECTS) });
  // Labels change nothing on Ozon: no confirm step.
  if (kind === 'labels') expect(selectStep(harness.actor.getSnapshot())).toBe('running');
  else harness.actor.send({ type: 'action.confirm', params });
  return harness;
}
const run = (output: RunChunkOutput) => eventExecs['xstate.done.actor.runChunk']!({ event: answered(output) });

describe('order actions machine: what the page notices', () => {
  afterEach(() => h.actor.stop());

  it('shows each posting refused with its reason, and a retry runs only those', async () => {
    const { actor, calls } = await confirmed('tracking', { trackingNumber: 'TRK-1' });
    expect(selectProgress(actor.getSnapshot())).toMatchObject({ finished: 0, total: 3 });
    await run({ status: 'done', failures: [{ ref: 'P-2', reason: 'Ozon拒绝' }] });
    expect(selectStep(actor.getSnapshot())).toBe('running');
    expect(selectProgress(actor.getSnapshot())).toMatchObject({ finished: 2, total: 3 });
    await run({ status: 'done', failures: [] });
    expect(selectStep(actor.getSnapshot())).toBe('outcome');
    expect(selectUnfinished(actor.getSnapshot())).toEqual([{ subject: SUBJECTS[1], reason: 'Ozon拒绝' }]);

    actor.send({ type: 'action.retry' });
    expect(calls.run.at(-1)!.input).toEqual({ kind: 'tracking', subjects: [SUBJECTS[1]], params: { trackingNumber: 'TRK-1' } });
    await run({ status: 'done', failures: [] });
    expect(selectProgress(actor.getSnapshot())).toMatchObject({ done: 3, failed: 0 });
    expect(selectCanRetry(actor.getSnapshot())).toBe(false);
  });

  it('waits for Ozon\'s labels with a due time and fetches them by itself, then hands the page the file', async () => {
    const { actor, calls, clock, emitted } = await confirmed('labels');
    await run({ status: 'notReady', reason: notReady });
    expect(selectStep(actor.getSnapshot())).toBe('waitingForLabels');
    expect(actor.getSnapshot().context.labelsDueAt! - Date.now()).toBeGreaterThan(LABEL_RETRY_MS - 1_000);
    const asked = calls.run.length;
    clock.increment(LABEL_RETRY_MS - 1);
    expect(calls.run.length).toBe(asked);
    clock.increment(1);
    expect(calls.run.length).toBe(asked + 1);
    await run({ status: 'done', failures: [], file });
    expect(emitted).toContainEqual({ type: 'action.file', file });
  });

  it('gives up on labels after the last wait and says Ozon\'s reason per posting', async () => {
    const { actor, clock } = await confirmed('labels');
    for (let wait = 0; wait < MAX_LABEL_WAITS; wait++) {
      await run({ status: 'notReady', reason: notReady });
      clock.increment(LABEL_RETRY_MS);
    }
    await run({ status: 'notReady', reason: notReady });
    // CHUNK is 2 here: the first two postings failed with the reason, the third is asked for next.
    expect(selectUnfinished(actor.getSnapshot()).slice(0, 2).map((u) => u.reason)).toEqual([notReady, notReady]);
  });

  it('stops between chunks on cancel; what was not run stays to be retried, without a reason', async () => {
    const { actor, calls } = await confirmed('ship');
    await run({ status: 'done', failures: [] });
    actor.send({ type: 'action.cancel' });
    expect(selectStep(actor.getSnapshot())).toBe('outcome');
    expect(selectUnfinished(actor.getSnapshot())).toEqual([{ subject: SUBJECTS[2], reason: null }]);
    actor.send({ type: 'action.retry' });
    expect(calls.run.at(-1)!.input.subjects).toEqual([SUBJECTS[2]]);
  });

  it('names a typed failure without a message by its type (a selection whose result was replaced)', async () => {
    h = startHarness();
    h.actor.send({ type: 'action.start', kind: 'ship', selection: { kind: 'all', handle: 3, except: [], total: 9 } });
    await eventExecs['xstate.error.actor.prepareSubjects']!({ event: { type: 'xstate.error.actor.prepareSubjects', error: { type: 'StaleHandle', handle: 3 } } });
    expect(selectStep(h.actor.getSnapshot())).toBe('failed');
    expect(h.actor.getSnapshot().context.error).toBe('StaleHandle');
  });

  it('a whole call that fails marks its postings failed with the reason and goes on with the next chunk', async () => {
    const { actor, calls } = await confirmed('ship');
    await eventExecs['xstate.error.actor.runChunk']!({ event: { type: 'xstate.error.actor.runChunk', error: refused } });
    expect(calls.run.at(-1)!.input.subjects).toEqual([SUBJECTS[2]]);
    await run({ status: 'done', failures: [] });
    expect(selectUnfinished(actor.getSnapshot()).map((u) => u.reason)).toEqual([refused.message, refused.message]);
  });
});
