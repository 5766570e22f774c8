import { createActor, fromPromise, waitFor } from 'xstate';
import type { CollectAnswer, UploadRecord } from '../contract/collection';
import { collectionActionMachine, selectCollectFailure, selectCollected, selectUpload, type CollectInput, type UploadInput } from './collectionActionMachine';

const RULE = { currency: 'CNY', markup: '2', shipping: '0', fixed: '0', rounding: 'cent' } as const;
const refusal = (message: string) => ({ type: 'Http', code: 400, message });

function start(outcomes: { collect?: unknown[]; upload?: unknown[] }) {
  const calls = { collect: [] as CollectInput[], upload: [] as UploadInput[] };
  const next = (list: unknown[] | undefined) => {
    const outcome = list?.shift();
    if (outcome instanceof Error || (outcome && typeof outcome === 'object' && 'type' in outcome)) throw outcome;
    return outcome;
  };
  const actor = createActor(
    collectionActionMachine.provide({
      actors: {
        collect: fromPromise<CollectAnswer, CollectInput>(async ({ input }) => (calls.collect.push(input), next(outcomes.collect) as CollectAnswer)),
        upload: fromPromise<UploadRecord[], UploadInput>(async ({ input }) => (calls.upload.push(input), next(outcomes.upload) as UploadRecord[])),
      },
    }),
  ).start();
  return { actor, calls };
}

describe('collection actions', () => {
  it('collects a link, and after a refusal shows the reason and retries the same link', async () => {
    const answer = { created: true, path: '/collection/collection-list?id=1', item: { id: 1 } } as unknown as CollectAnswer;
    const { actor, calls } = start({ collect: [refusal('不是Ozon或1688的商品链接'), answer] });
    actor.send({ type: 'collect.start', url: '   ' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'collect.start', url: ' https://detail.1688.com/offer/1.html ' });
    await waitFor(actor, (s) => s.value === 'collectFailed');
    expect(selectCollectFailure(actor.getSnapshot())).toBe('不是Ozon或1688的商品链接');
    actor.send({ type: 'action.retry' });
    await waitFor(actor, (s) => s.value === 'idle');
    expect(selectCollected(actor.getSnapshot())).toBe(answer);
    expect(calls.collect).toEqual([{ url: 'https://detail.1688.com/offer/1.html' }, { url: 'https://detail.1688.com/offer/1.html' }]);
  });

  it('uploads the chosen items to the chosen shops, retries a failed upload as asked, and closes', async () => {
    const records = [{ id: 9 }] as unknown as UploadRecord[];
    const { actor, calls } = start({ upload: [refusal('ozon接口请求超时'), records] });
    actor.send({ type: 'action.start', ids: [] });
    expect(selectUpload(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'action.start', ids: [3, 4] });
    expect(selectUpload(actor.getSnapshot())).toMatchObject({ state: 'confirming', ids: [3, 4] });
    actor.send({ type: 'action.confirm', shopIds: [7], rule: RULE });
    await waitFor(actor, (s) => s.value === 'uploadFailed');
    expect(selectUpload(actor.getSnapshot())).toMatchObject({ state: 'uploadFailed', reason: 'ozon接口请求超时' });
    actor.send({ type: 'action.retry' });
    await waitFor(actor, (s) => s.value === 'uploaded');
    expect(selectUpload(actor.getSnapshot())).toMatchObject({ state: 'uploaded', records });
    expect(calls.upload).toEqual([
      { ids: [3, 4], shopIds: [7], rule: RULE },
      { ids: [3, 4], shopIds: [7], rule: RULE },
    ]);
    actor.send({ type: 'action.close' });
    expect(selectUpload(actor.getSnapshot())).toBeNull();
  });

  it('cancels the choice without sending anything', () => {
    const { actor, calls } = start({});
    actor.send({ type: 'action.start', ids: [1] });
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls.upload).toEqual([]);
  });
});
