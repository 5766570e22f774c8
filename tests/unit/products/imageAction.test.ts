import { createActor, waitFor } from 'xstate';
import type { DataClient } from '../../../workers/client';
import type { SkuImageOutcome } from '../../../workers/products/area';
import { selectProductFailures, selectProductProgress } from '../../../machines/productActionsMachine';
import { productActionsOn } from '../../../src/features/products/productActions';

const rows = ['1001:1', '1001:2', '1001:3'].map((id, i) => ({ id, offerId: `SKU-${i + 1}`, name: `商品 ${i + 1}`, shopId: 1001, status: 'selling' }));

/** A worker whose picture calls answer per product: imported, one picture failed, or the call refused. */
function fakeClient(calls: { ids: string[]; images: string[]; keep: boolean }[]) {
  const answer = (id: string, images: string[]): SkuImageOutcome => {
    if (id === '1001:2') return { id, result: { id, pictures: images.map((url, i) => ({ url, state: i === 1 ? 'failed' : 'imported', primary: i === 0 })) } };
    if (id === '1001:3') return { id, failure: '商品不存在' };
    return { id, result: { id, pictures: images.map((url, i) => ({ url, state: 'imported', primary: i === 0 })) } };
  };
  return {
    products: {
      rowsOf: async () => rows,
      updateSkuImages: async (ids: string[], images: string[], keep: boolean) => {
        calls.push({ ids, images, keep });
        return ids.map((id) => answer(id, images));
      },
    },
  } as unknown as DataClient;
}

describe('the image action', () => {
  it('sends the pictures for each product and names the product whose picture Ozon could not import', async () => {
    const calls: { ids: string[]; images: string[]; keep: boolean }[] = [];
    const actor = createActor(productActionsOn(fakeClient(calls), { picturesFailed: (urls) => `无法导入：${urls.join(', ')}` })).start();
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
});
