import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import type { ProductLimit } from '../contract/products';
import type { ReuploadItem, ReuploadStep } from '../contract/reupload';
import { transitionPaths } from '../tests/support/transitionPaths';
import {
  reuploadMachine,
  selectReuploadProgress,
  selectReuploadStage,
  type ReuploadEmitted,
  type ReuploadEvent,
  type ReuploadRetryInput,
  type ReuploadSnapshot,
  type StartReuploadInput,
  type StartReuploadOutput,
} from './reuploadMachine';

const POLL = 3_000;
const SUBJECTS = [
  { id: '1:11', label: 'A-1 · Card 11', shopId: 1, offerId: 'A-1' },
  { id: '1:12', label: 'A-2 · Card 12', shopId: 1, offerId: 'A-2' },
];
const LIMIT: ProductLimit = { shopId: 1, shopName: 'Shop', dailyCreate: { limit: 1000, usage: 3, resetAt: '2026-11-27T00:00:00Z' }, dailyUpdate: { limit: 1000, usage: 0, resetAt: '' }, total: { limit: 50_000, usage: 80 }, error: null };

const item = (n: number, step: ReuploadStep, failedStep: ReuploadStep | null = null): ReuploadItem => ({
  id: n,
  batchId: 'b',
  rowId: `1:1${n}`,
  shopId: 1,
  shopName: 'Shop',
  name: `Card 1${n}`,
  image: '',
  oldOfferId: `A-${n}`,
  oldProductId: `1${n}`,
  newOfferId: `A-${n}-R1`,
  newProductId: null,
  step,
  failedStep,
  oldCard: 'archived',
  errors: step === 'failed' ? [{ code: 'x', message: '缺少必填属性', attribute: '品牌' }] : [],
  createdAt: 0,
  updatedAt: 0,
});

type Answers = { startFails?: number; pollFails?: number; steps: ReuploadStep[][] };

function harness(answers: Answers) {
  const clock = new SimulatedClock();
  const started: StartReuploadInput[] = [];
  const retried: ReuploadRetryInput[] = [];
  let polls = 0;
  let startFails = answers.startFails ?? 0;
  let pollFails = answers.pollFails ?? 0;
  const at = (k: number) => answers.steps[Math.min(k, answers.steps.length - 1)]!.map((step, i) => item(i + 1, step, step === 'failed' ? 'importing' : null));
  const actor = createActor(
    reuploadMachine.provide({
      actors: {
        prepareReupload: fromPromise(async () => ({ subjects: SUBJECTS, omitted: 0, limits: [LIMIT] })),
        startReupload: fromPromise<StartReuploadOutput, StartReuploadInput>(async ({ input }) => {
          started.push(input);
          if (startFails-- > 0) throw { message: '网络问题，请重试' };
          return { items: at(0), refused: [] };
        }),
        reuploadStatus: fromPromise(async () => {
          if (pollFails-- > 0) throw { message: 'ozon接口请求超时' };
          return { items: at(++polls) };
        }),
        retryReupload: fromPromise<{ items: ReuploadItem[] }, ReuploadRetryInput>(async ({ input }) => {
          retried.push(input);
          return { items: at(0).map((i) => ({ ...i, step: 'importing' as const })) };
        }),
      },
    }),
    { input: { pollMs: POLL }, clock },
  );
  const finished: ReuploadEmitted[] = [];
  actor.on('reupload.finished', (e) => finished.push(e));
  actor.start();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const stage = () => selectReuploadStage(actor.getSnapshot());
  return { actor, clock, started, retried, finished, settle, stage };
}

const ALL = { type: 'reupload.start', selection: { kind: 'ids', ids: SUBJECTS.map((s) => s.id) } } as const;

describe('reuploadMachine', () => {
  it('shows the quota, starts one batch and follows it until every product settles', async () => {
    const h = harness({ steps: [['importing', 'archiving'], ['moderating', 'importing'], ['done', 'failed']] });
    h.actor.send(ALL);
    await h.settle();
    expect(h.stage()).toBe('confirming');
    expect(h.actor.getSnapshot().context.limits).toEqual([LIMIT]);
    h.actor.send({ type: 'reupload.confirm' });
    await h.settle();
    expect(h.stage()).toBe('following');
    expect(h.started).toHaveLength(1);
    expect(h.started[0]!.ids).toEqual(['1:11', '1:12']);
    h.clock.increment(POLL);
    await h.settle();
    expect(h.stage()).toBe('following');
    expect(h.actor.getSnapshot().context.items.map((i) => i.step)).toEqual(['moderating', 'importing']);
    h.clock.increment(POLL);
    await h.settle();
    expect(h.stage()).toBe('outcome');
    expect(selectReuploadProgress(h.actor.getSnapshot())).toEqual({ total: 2, done: 1, failed: 1, underway: 0 });
    expect(h.finished).toEqual([{ type: 'reupload.finished', done: 1, failed: 1 }]);
  });

  it('retries a failed start with the same batch, so the server resumes it instead of starting another', async () => {
    const h = harness({ startFails: 1, steps: [['done', 'done']] });
    h.actor.send(ALL);
    await h.settle();
    h.actor.send({ type: 'reupload.confirm' });
    await h.settle();
    expect(h.stage()).toBe('failed');
    expect(h.actor.getSnapshot().context.error).toBe('网络问题，请重试');
    h.actor.send({ type: 'reupload.retry' });
    await h.settle();
    expect(h.stage()).toBe('outcome');
    expect(h.started.map((s) => s.batchId)).toEqual([h.started[0]!.batchId, h.started[0]!.batchId]);
  });

  it('keeps following when an ask fails, and retries only the failed products', async () => {
    const h = harness({ pollFails: 1, steps: [['importing', 'importing'], ['done', 'failed']] });
    h.actor.send(ALL);
    await h.settle();
    h.actor.send({ type: 'reupload.confirm' });
    await h.settle();
    h.clock.increment(POLL);
    await h.settle();
    expect(h.stage()).toBe('following');
    expect(h.actor.getSnapshot().context.error).toBe('ozon接口请求超时');
    h.clock.increment(POLL);
    await h.settle();
    expect(h.stage()).toBe('outcome');
    expect(h.actor.getSnapshot().context.error).toBeNull();
    h.actor.send({ type: 'reupload.retry' });
    await h.settle();
    expect(h.retried).toEqual([{ batchId: h.started[0]!.batchId, ids: [2] }]);
    expect(h.stage()).toBe('following');
  });

  it('follows a batch left under way earlier, and cancels before anything is sent', async () => {
    const h = harness({ steps: [['importing'], ['done']] });
    h.actor.send({ type: 'reupload.resume', batchId: 'earlier' });
    await h.settle();
    expect(h.stage()).toBe('outcome');
    expect(h.actor.getSnapshot().context.batchId).toBe('earlier');
    h.actor.send({ type: 'reupload.close' });
    h.actor.send(ALL);
    await h.settle();
    h.actor.send({ type: 'reupload.cancel' });
    expect(h.stage()).toBe('idle');
    expect(h.started).toEqual([]);
  });
});

// Every state is reachable with the events and answers the page and the server give.
type GraphEvent = ReuploadEvent | { type: string; output?: unknown; error?: unknown };
const done = (src: string, output: unknown): GraphEvent => ({ type: `xstate.done.actor.${src}`, output });
const error = (src: string): GraphEvent => ({ type: `xstate.error.actor.${src}`, error: { message: 'x' } });
const settled = { items: [item(1, 'done'), item(2, 'failed', 'importing')] };
const underway = { items: [item(1, 'importing')] };

function eventsFor(snapshot: ReuploadSnapshot): GraphEvent[] {
  switch (selectReuploadStage(snapshot)) {
    case 'idle':
      return [ALL, { type: 'reupload.resume', batchId: 'b' }];
    case 'preparing':
      return snapshot.matches('preparing')
        ? [done('prepareReupload', { subjects: SUBJECTS, omitted: 0, limits: [] }), done('prepareReupload', { subjects: [], omitted: 2, limits: [] }), error('prepareReupload'), { type: 'reupload.cancel' }]
        : [];
    case 'confirming':
      return [{ type: 'reupload.confirm' }, { type: 'reupload.cancel' }];
    case 'starting':
      return [done('startReupload', { ...settled, refused: [] }), done('startReupload', { ...underway, refused: [] }), error('startReupload')];
    case 'following':
      return snapshot.matches('polling')
        ? [done('reuploadStatus', settled), done('reuploadStatus', underway), error('reuploadStatus'), { type: 'reupload.close' }]
        : [{ type: 'xstate.after.poll.reupload.following' }, { type: 'reupload.close' }];
    case 'retrying':
      return [done('retryReupload', settled), done('retryReupload', underway), error('retryReupload')];
    case 'outcome':
      return [{ type: 'reupload.retry' }, { type: 'reupload.close' }, ALL];
    case 'failed':
    case 'empty':
      return [{ type: 'reupload.retry' }, { type: 'reupload.close' }];
  }
}

const seen = (snapshot: ReuploadSnapshot) =>
  JSON.stringify([snapshot.value, snapshot.context.batchId !== '', snapshot.context.items.map((i) => i.step), snapshot.context.subjects.length, snapshot.context.error !== null]);

describe('reuploadMachine: every state', () => {
  it('reaches every state through the page and the server', () => {
    const traversal: TraversalOptions<never, never, unknown> = { events: eventsFor as never, serializeState: seen as never, input: { pollMs: POLL } as never };
    const { shortest } = transitionPaths<ReuploadSnapshot>(reuploadMachine, traversal, seen);
    const values = new Set(shortest.map((path) => JSON.stringify(path.state.value)));
    expect([...values].sort()).toEqual(['"confirming"', '"empty"', '"failed"', '"following"', '"idle"', '"outcome"', '"polling"', '"preparing"', '"retrying"', '"starting"'].sort());
  });
});
