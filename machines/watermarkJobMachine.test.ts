import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { WatermarkJob, WatermarkJobDetail } from '../contract/watermark';
import {
  selectWatermarkDetail,
  selectWatermarkError,
  selectWatermarkProgress,
  selectWatermarkStep,
  watermarkJobMachine,
  type WatermarkJobEmitted,
  type WatermarkRequest,
} from './watermarkJobMachine';

const job = (over: Partial<WatermarkJob> = {}): WatermarkJob => ({
  id: 7,
  shopId: 1,
  shopName: '义乌小百货',
  templateName: '店名',
  kind: 'watermark',
  send: true,
  state: 'running',
  products: 2,
  pictures: 4,
  picturesDone: 0,
  picturesFailed: 0,
  productsSent: 0,
  productsFailed: 0,
  createdAt: '2026-11-26T10:00:00.000Z',
  finishedAt: null,
  ...over,
});
const detailOf = (over: Partial<WatermarkJob>): WatermarkJobDetail => ({ job: job(over), products: [] });
const request: WatermarkRequest = { kind: 'watermark', templateId: 3, shopId: 1, send: true, products: 2 };
const refused = { type: 'BadRequest', code: 400, message: '所选店铺没有可加水印的商品图片' };

/** The server's job as it moves on: each read answers the next of `reads` (the last one again after that). */
function setup(options: { startFails?: number; reads?: (WatermarkJobDetail | 'fail')[] } = {}) {
  const clock = new SimulatedClock();
  const started: WatermarkRequest[] = [];
  const read: number[] = [];
  let startFails = options.startFails ?? 0;
  const reads = [...(options.reads ?? [detailOf({ state: 'done', picturesDone: 4, productsSent: 2 })])];
  const actor = createActor(
    watermarkJobMachine.provide({
      actors: {
        startJob: fromPromise<WatermarkJob, WatermarkRequest>(async ({ input }) => {
          started.push(input);
          if (startFails-- > 0) throw refused;
          return job();
        }),
        readJob: fromPromise<WatermarkJobDetail, { id: number }>(async ({ input }) => {
          read.push(input.id);
          const next = reads.length > 1 ? reads.shift()! : reads[0]!;
          if (next === 'fail') throw { type: 'Network', code: 0, message: '网络问题，请重试或刷新网页' };
          return next;
        }),
      },
    }),
    { input: { pollMs: 1_000 }, clock },
  );
  const finished: WatermarkJobEmitted[] = [];
  actor.on('action.finished', (e) => finished.push(e));
  actor.start();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { actor, clock, started, read, finished, settle };
}

describe('watermarkJobMachine', () => {
  it('confirms, starts the job once and follows it to the end, showing progress on the way', async () => {
    const { actor, clock, started, read, finished, settle } = setup({
      reads: [detailOf({ picturesDone: 2 }), detailOf({ picturesDone: 4, productsSent: 1 }), detailOf({ state: 'done', picturesDone: 4, productsSent: 2 })],
    });
    actor.send({ type: 'action.start', request });
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('confirming');
    expect(started).toEqual([]);
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(started).toEqual([request]);
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('running');
    clock.increment(1_000);
    await settle();
    expect(selectWatermarkProgress(actor.getSnapshot())).toEqual({ done: 2, total: 6, percent: 33 });
    clock.increment(1_000);
    await settle();
    expect(selectWatermarkProgress(actor.getSnapshot()).done).toBe(5);
    clock.increment(1_000);
    await settle();
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('finished');
    expect(read).toEqual([7, 7, 7]);
    expect(finished.map((e) => e.job.productsSent)).toEqual([2]);
    // Nothing is read once the job is finished.
    clock.increment(5_000);
    await settle();
    expect(read).toHaveLength(3);
  });

  it('starts nothing when the seller cancels at the confirmation', () => {
    const { actor, started } = setup();
    actor.send({ type: 'action.start', request });
    actor.send({ type: 'action.cancel' });
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('idle');
    expect(started).toEqual([]);
  });

  it('shows the server’s refusal of the start and starts the same request again on retry', async () => {
    const { actor, started, settle } = setup({ startFails: 1 });
    actor.send({ type: 'action.start', request });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('failed');
    expect(selectWatermarkError(actor.getSnapshot())).toBe(refused.message);
    actor.send({ type: 'action.retry' });
    await settle();
    expect(started).toEqual([request, request]);
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('running');
    expect(selectWatermarkError(actor.getSnapshot())).toBeNull();
  });

  it('keeps following through a failed read: the job runs on the server without us', async () => {
    const { actor, clock, settle } = setup({ reads: ['fail', detailOf({ state: 'done', picturesDone: 4, productsSent: 2 })] });
    actor.send({ type: 'job.watch', id: 7 });
    await settle();
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('running');
    expect(selectWatermarkError(actor.getSnapshot())).toBe('网络问题，请重试或刷新网页');
    clock.increment(1_000);
    await settle();
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('finished');
    expect(selectWatermarkError(actor.getSnapshot())).toBeNull();
    expect(selectWatermarkDetail(actor.getSnapshot())?.job.state).toBe('done');
  });

  it('restores a finished job from its result, and closes back to idle', async () => {
    const { actor, started, settle } = setup();
    actor.send({ type: 'job.watch', id: 7 });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'restore', jobId: 7, products: 2 } });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(started).toEqual([{ kind: 'restore', jobId: 7, products: 2 }]);
    actor.send({ type: 'action.close' });
    expect(selectWatermarkStep(actor.getSnapshot())).toBe('idle');
    expect(selectWatermarkDetail(actor.getSnapshot())).toBeNull();
  });

  it('reaches every state by some path of events', () => {
    const paths = getShortestPaths(watermarkJobMachine, {
      events: [
        { type: 'action.start', request },
        { type: 'action.confirm' },
        { type: 'action.cancel' },
        { type: 'action.retry' },
        { type: 'action.close' },
        { type: 'job.watch', id: 7 },
      ],
    });
    const reached = new Set(paths.map((path) => JSON.stringify(path.state.value)));
    // The invoked states are left only by their actors' answers, which the model does not send.
    for (const state of ['idle', 'confirming', 'starting', 'following']) expect(reached).toContain(JSON.stringify(state));
  });
});
