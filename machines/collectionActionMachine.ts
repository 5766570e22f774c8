import { assign, assertEvent, fromPromise, setup } from 'xstate';
import type { CollectAnswer, UploadRecord } from '../contract/collection';
import type { PriceRule } from '../contract/copy';
import { reasonOf } from './chatSendMachine';

/**
 * The collection list's actions. Collect by link: `collecting` runs the `collect` actor (the server reads the page),
 * then back to `idle` with what was collected, or `collectFailed` with the server's reason (not a product link, page
 * not found…), from which the seller retries or closes. Upload: `action.start` with the chosen items opens
 * `confirming` (shops and price template), `action.confirm` runs `upload` into `uploaded` with one record per variant
 * and shop (their outcome follows on the upload history) or `uploadFailed` with the reason, retried as it was asked.
 */

export type CollectInput = { url: string };
export type UploadInput = { ids: number[]; shopIds: number[]; rule: PriceRule };

export type CollectionActionContext = {
  /** The items an upload is for. */
  ids: number[];
  url: string;
  upload: UploadInput | null;
  collected: CollectAnswer | null;
  records: UploadRecord[];
  reason: string | null;
};

export type CollectionActionEvent =
  | { type: 'collect.start'; url: string }
  | { type: 'action.start'; ids: number[] }
  | { type: 'action.confirm'; shopIds: number[]; rule: PriceRule }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.close' };

export const collectionActionMachine = setup({
  types: { context: {} as CollectionActionContext, events: {} as CollectionActionEvent },
  actors: {
    collect: fromPromise<CollectAnswer, CollectInput>(async () => {
      throw new Error('collect not provided');
    }),
    upload: fromPromise<UploadRecord[], UploadInput>(async () => {
      throw new Error('upload not provided');
    }),
  },
  guards: {
    hasItems: ({ event }) => event.type === 'action.start' && event.ids.length > 0,
    hasLink: ({ event }) => event.type === 'collect.start' && event.url.trim() !== '',
  },
  actions: {
    takeLink: assign({ url: ({ event }) => (assertEvent(event, 'collect.start'), event.url.trim()), reason: null }),
    takeItems: assign({ ids: ({ event }) => (assertEvent(event, 'action.start'), event.ids), records: [], reason: null }),
    takeChoice: assign({
      upload: ({ context, event }) => (assertEvent(event, 'action.confirm'), { ids: context.ids, shopIds: event.shopIds, rule: event.rule }),
    }),
    keepReason: assign({ reason: ({ event }) => reasonOf((event as { error?: unknown }).error) }),
  },
}).createMachine({
  id: 'collectionAction',
  context: { ids: [], url: '', upload: null, collected: null, records: [], reason: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'collect.start': { guard: 'hasLink', target: 'collecting', actions: 'takeLink' },
        'action.start': { guard: 'hasItems', target: 'confirming', actions: 'takeItems' },
      },
    },
    collecting: {
      invoke: {
        src: 'collect',
        input: ({ context }) => ({ url: context.url }),
        onDone: { target: 'idle', actions: assign({ collected: ({ event }) => event.output }) },
        onError: { target: 'collectFailed', actions: 'keepReason' },
      },
    },
    collectFailed: {
      on: { 'action.retry': 'collecting', 'action.close': 'idle', 'collect.start': { guard: 'hasLink', target: 'collecting', actions: 'takeLink' } },
    },
    confirming: {
      on: { 'action.confirm': { target: 'uploading', actions: 'takeChoice' }, 'action.cancel': 'idle' },
    },
    uploading: {
      invoke: {
        src: 'upload',
        input: ({ context }) => context.upload!,
        onDone: { target: 'uploaded', actions: assign({ records: ({ event }) => event.output }) },
        onError: { target: 'uploadFailed', actions: 'keepReason' },
      },
    },
    uploaded: { on: { 'action.close': 'idle' } },
    uploadFailed: { on: { 'action.retry': 'uploading', 'action.close': 'idle', 'action.cancel': 'confirming' } },
  },
});

export type CollectionActionSnapshot = { value: unknown; context: CollectionActionContext };

export const selectCollecting = (s: CollectionActionSnapshot) => s.value === 'collecting';
export const selectCollectFailure = (s: CollectionActionSnapshot) => (s.value === 'collectFailed' ? (s.context.reason ?? '') : null);
export const selectCollected = (s: CollectionActionSnapshot) => s.context.collected;
/** The upload dialog: closed, choosing, sending, or its outcome. */
export const selectUpload = (s: CollectionActionSnapshot) =>
  s.value === 'confirming' || s.value === 'uploading' || s.value === 'uploaded' || s.value === 'uploadFailed'
    ? { state: s.value, ids: s.context.ids, records: s.context.records, reason: s.context.reason }
    : null;
