import { createActor, waitFor } from 'xstate';
import type { DataClient } from '../../../workers/client';
import type { SkuImageOutcome } from '../../../workers/products/area';
import { selectProductFailures, selectProductProgress, selectQuotaShortfalls, selectWithinQuota } from '../../../machines/productActionsMachine';
import { productActionsOn } from '../../../src/features/products/productActions';

const rows = ['1001:1', '1001:2', '1001:3'].map((id, i) => ({ id, offerId: `SKU-${i + 1}`, name: `商品 ${i + 1}`, shopId: 1001, status: 'selling' }));

/** A worker whose picture calls answer per product: imported, one picture failed, or the call refused. */
function fakeClient(calls: { ids: string[]; images: string[]; keep: boolean }[], updatesLeft = 1000) {
  const answer = (id: string, images: string[]): SkuImageOutcome => {
    if (id === '1001:2') return { id, result: { id, pictures: images.map((url, i) => ({ url, state: i === 1 ? 'failed' : 'imported', primary: i === 0 })) } };
    if (id === '1001:3') return { id, failure: '商品不存在' };
    return { id, result: { id, pictures: images.map((url, i) => ({ url, state: 'imported', primary: i === 0 })) } };
  };
  return {
    products: {
      rowsOf: async () => rows,
      limits: async (storeIds: number[]) =>
        storeIds.map((shopId) => ({
          shopId,
          shopName: '义乌小百货',
          dailyCreate: { limit: 1000, usage: 0, resetAt: '2026-11-27T00:00:00Z' },
          dailyUpdate: { limit: 1000, usage: 1000 - updatesLeft, resetAt: '2026-11-27T00:00:00Z' },
          total: { limit: 50_000, usage: 80 },
          error: null,
        })),
      updateSkuImages: async (ids: string[], images: string[], keep: boolean) => {
        calls.push({ ids, images, keep });
        return ids.map((id) => answer(id, images));
      },
    },
  } as unknown as DataClient;
}

const TEXTS = {
  picturesFailed: (urls: string[]) => `无法导入：${urls.join(', ')}`,
  quotaShort: (left: number, need: number, resetAt: string) => `剩余${left}个，需要${need}个，${resetAt}重置`,
  noWarehouse: '店铺没有仓库',
};

describe('the image action', () => {
  it('sends the pictures for each product and names the product whose picture Ozon could not import', async () => {
    const calls: { ids: string[]; images: string[]; keep: boolean }[] = [];
    const actor = createActor(productActionsOn(fakeClient(calls), TEXTS)).start();
    actor.send({ type: 'action.start', kind: 'image', selection: { kind: 'ids', ids: rows.map((r) => r.id) } });
    await waitFor(actor, (s) => s.matches('confirming'));
    const images = ['https://cdn.example.com/main.jpg', 'https://cdn.example.com/broken.jpg'];
    actor.send({ type: 'action.confirm', params: { images, keep: true } });
    const done = await waitFor(actor, (s) => s.matches('outcome'));

    expect(calls).toEqual([{ ids: rows.map((r) => r.id), images, keep: true }]);
    expect(selectProductProgress(done)).toEqual({ total: 3, done: 1, failed: 2 });
    expect(selectProductFailures(done).map(({ subject, reason }) => [subject.label, reason])).toEqual([
      ['SKU-2 · 商品 2', '无法导入：https://cdn.example.com/broken.jpg'],
      ['SKU-3 · 商品 3', '商品不存在'],
    ]);

    // Retrying sends only the two that failed.
    actor.send({ type: 'action.retry' });
    await waitFor(actor, (s) => s.matches('outcome'));
    expect(calls[1]!.ids).toEqual(['1001:2', '1001:3']);
    actor.stop();
  });

  it("reads the shops' daily update quota first and, past it, sends only the products that fit when asked", async () => {
    const calls: { ids: string[]; images: string[]; keep: boolean }[] = [];
    const actor = createActor(productActionsOn(fakeClient(calls, 2), TEXTS)).start();
    actor.send({ type: 'action.start', kind: 'image', selection: { kind: 'ids', ids: rows.map((r) => r.id) } });
    const confirming = await waitFor(actor, (s) => s.matches('confirming'));
    expect(selectQuotaShortfalls(confirming)).toMatchObject([{ shopId: 1001, need: 3, left: 2, reason: '剩余2个，需要3个，2026-11-27T00:00:00Z重置' }]);
    expect(selectWithinQuota(confirming)).toBe(2);

    // As it is, the batch is refused: nothing goes.
    const images = ['https://cdn.example.com/main.jpg'];
    actor.send({ type: 'action.confirm', params: { images, keep: true } });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(calls).toEqual([]);

    // Sending what fits: the first two go, the third is refused with the quota's reason, unsent.
    actor.send({ type: 'action.confirm', params: { images, keep: true }, fit: true });
    const done = await waitFor(actor, (s) => s.matches('outcome'));
    expect(calls.map((c) => c.ids)).toEqual([['1001:1', '1001:2']]);
    expect(selectProductProgress(done)).toEqual({ total: 3, done: 2, failed: 1 });
    expect(selectProductFailures(done).map(({ subject, reason }) => [subject.id, reason])).toEqual([
      ['1001:3', '剩余2个，需要3个，2026-11-27T00:00:00Z重置'],
    ]);
    actor.stop();
  });

  it('confirms nothing when no product of the selection fits today', async () => {
    const calls: { ids: string[]; images: string[]; keep: boolean }[] = [];
    const actor = createActor(productActionsOn(fakeClient(calls, 0), TEXTS)).start();
    actor.send({ type: 'action.start', kind: 'image', selection: { kind: 'ids', ids: rows.map((r) => r.id) } });
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'action.confirm', params: { images: ['https://cdn.example.com/main.jpg'], keep: true }, fit: true });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    expect(selectWithinQuota(actor.getSnapshot())).toBe(0);
    expect(calls).toEqual([]);
    actor.stop();
  });
});
