import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { WatermarkJob, WatermarkJobDetail } from '../contract/watermark';
import { reasonOf } from './chatSendMachine';

/**
 * Watermarking a shop's pictures (or putting a job's originals back) as an actor, from the seller's confirmation to
 * every card's outcome on Ozon. The job itself runs on the server and survives a closed tab; this machine starts it
 * and follows it:
 *
 *   idle → confirming → starting → following ⇄ waiting → finished
 *                    ↘ idle      ↘ failed (retry → starting)
 *
 * `following` reads the job (each product's pictures and Ozon's answer) every `pollMs` while the server still runs
 * it; a read that fails keeps following (the job goes on without us) and shows the reason until the next read works.
 * `job.watch` follows an earlier job from the history.
 */

export type WatermarkRequest =
  | { kind: 'watermark'; templateId: number; shopId: number; productIds?: string[]; send: boolean; products: number }
  | { kind: 'restore'; jobId: number; products: number };

export type WatermarkJobContext = {
  request: WatermarkRequest | null;
  jobId: number | null;
  detail: WatermarkJobDetail | null;
  /** Why the start failed, or why the last read of a running job failed. */
  error: string | null;
  pollMs: number;
};

export type WatermarkJobEvent =
  | { type: 'action.start'; request: WatermarkRequest }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.close' }
  | { type: 'job.watch'; id: number };

export type WatermarkJobEmitted = { type: 'action.finished'; job: WatermarkJob };
export type WatermarkJobInput = { pollMs?: number };

/** How often a running job is read. */
export const WATERMARK_POLL_MS = 1_500;

const notProvided = (name: string) => () => {
  throw new Error(`watermarkJobMachine: actor '${name}' not provided`);
};

export const watermarkJobMachine = setup({
  types: {
    context: {} as WatermarkJobContext,
    events: {} as WatermarkJobEvent,
    input: {} as WatermarkJobInput,
    emitted: {} as WatermarkJobEmitted,
  },
  actors: {
    startJob: fromPromise<WatermarkJob, WatermarkRequest>(notProvided('startJob')),
    readJob: fromPromise<WatermarkJobDetail, { id: number }>(notProvided('readJob')),
  },
  delays: {
    poll: ({ context }) => context.pollMs,
  },
  actions: {
    ask: assign(({ event }) => {
      assertEvent(event, 'action.start');
      return { request: event.request, error: null };
    }),
    watch: assign(({ event }) => {
      assertEvent(event, 'job.watch');
      return { request: null, jobId: event.id, detail: null, error: null };
    }),
    started: assign((_, job: WatermarkJob) => ({ jobId: job.id, detail: { job, products: [] }, error: null })),
    read: assign((_, detail: WatermarkJobDetail) => ({ detail, error: null })),
    storeError: assign((_, error: unknown) => ({ error: reasonOf(error) ?? '' })),
    emitFinished: emit(({ context }) => ({ type: 'action.finished' as const, job: context.detail!.job })),
    reset: assign({ request: null, jobId: null, detail: null, error: null }),
  },
}).createMachine({
  id: 'watermarkJob',
  context: ({ input }) => ({ request: null, jobId: null, detail: null, error: null, pollMs: input?.pollMs ?? WATERMARK_POLL_MS }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'action.start': { target: 'confirming', actions: 'ask' },
        'job.watch': { target: 'following', actions: 'watch' },
      },
    },
    confirming: {
      on: {
        'action.confirm': 'starting',
        'action.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    starting: {
      invoke: {
        src: 'startJob',
        input: ({ context }) => context.request!,
        onDone: { target: 'waiting', actions: { type: 'started', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    /** The start was refused (no pictures, a template gone, the network): retry starts the same request again. */
    failed: {
      on: {
        'action.retry': { target: 'starting', actions: assign({ error: null }) },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    following: {
      invoke: {
        src: 'readJob',
        input: ({ context }) => ({ id: context.jobId! }),
        onDone: [
          { guard: ({ event }) => event.output.job.state === 'running', target: 'waiting', actions: { type: 'read', params: ({ event }) => event.output } },
          { target: 'finished', actions: [{ type: 'read', params: ({ event }) => event.output }, 'emitFinished'] },
        ],
        onError: { target: 'waiting', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    waiting: {
      after: { poll: 'following' },
      on: { 'action.close': { target: 'idle', actions: 'reset' } },
    },
    finished: {
      on: {
        'action.start': { target: 'confirming', actions: 'ask' },
        'job.watch': { target: 'following', actions: 'watch' },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
  },
});

export type WatermarkJobSnapshot = SnapshotFrom<typeof watermarkJobMachine>;
export type WatermarkStep = 'idle' | 'confirming' | 'starting' | 'running' | 'finished' | 'failed';

export const selectWatermarkStep = (s: WatermarkJobSnapshot): WatermarkStep =>
  s.matches('following') || s.matches('waiting') ? 'running' : (s.value as Exclude<WatermarkStep, 'running'>);
export const selectWatermarkRequest = (s: WatermarkJobSnapshot) => s.context.request;
export const selectWatermarkDetail = (s: WatermarkJobSnapshot) => s.context.detail;
export const selectWatermarkError = (s: WatermarkJobSnapshot) => s.context.error;
/** Settled pictures (and sent cards) of all: what the progress bar shows. */
export const selectWatermarkProgress = (s: WatermarkJobSnapshot) => {
  const job = s.context.detail?.job;
  if (!job) return { done: 0, total: 0, percent: 0 };
  const total = job.pictures + (job.send ? job.products : 0);
  const done = job.picturesDone + job.picturesFailed + (job.send ? job.productsSent + job.productsFailed : 0);
  return { done, total, percent: total === 0 ? 0 : Math.min(100, Math.round((done / total) * 100)) };
};
