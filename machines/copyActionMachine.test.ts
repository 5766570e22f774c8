import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { CopyPreviewAnswer, CopyRecord, CopySource, PriceRule } from '../contract/copy';
import { copyActionMachine, selectProgress, selectStep, type CopyActionEmitted, type CopyChunkInput, type StatusInput } from './copyActionMachine';

const RULE: PriceRule = { currency: 'CNY', markup: '1.5', shipping: '10', fixed: '0', rounding: 'unit' };
const source = (sku: number, state: CopySource['state'] = 'ok'): CopySource => ({
  input: String(sku),
  sku,
  state,
  name: `Card ${sku}`,
  image: null,
  images: [],
  price: '100.00',
  currency: 'CNY',
  categoryName: '耳机',
  targetPrice: '160.00',
  targetOldPrice: null,
});
const PREVIEW: CopyPreviewAnswer = { items: [source(1), source(2), source(3), source(4, 'notFound')], rates: { CNY: '1.000000' }, ratesDate: '2026-11-26' };

const record = (id: number, sku: number, shopId: number, status: CopyRecord['status'], reason?: string): CopyRecord => ({
  id,
  shopId,
  shopName: `Shop ${shopId}`,
  sku,
  name: `Card ${sku}`,
  image: null,
  offerId: `CP${sku}`,
  price: '160',
  currency: 'CNY',
  mode: 'sku',
  status,
  productId: null,
  errors: reason ? [{ code: 'SKU_COPY_FORBIDDEN', message: reason, attributeId: null, attributeName: null }] : [],
  attempts: 1,
  createdAt: 0,
  updatedAt: 0,
});

function setup(options: { copyFails?: boolean } = {}) {
  const clock = new SimulatedClock();
  const sent: CopyChunkInput[] = [];
  const asked: StatusInput[] = [];
  const retried: StatusInput[] = [];
  let nextId = 1;
  const ozon = new Map<number, CopyRecord>();
  const actor = createActor(
    copyActionMachine.provide({
      actors: {
        preview: fromPromise(async () => PREVIEW),
        copyChunk: fromPromise<CopyRecord[], CopyChunkInput>(async ({ input }) => {
          sent.push(input);
          if (options.copyFails) throw { message: '网络问题，请重试或刷新网页' };
          const records = input.shopIds.flatMap((shopId) => input.items.map((item) => record(nextId++, item.sku, shopId, 'importing')));
          // Ozon settles the copies at the first ask: SKU 3 is refused, the others are listed.
          for (const r of records) ozon.set(r.id, r.sku === 3 ? { ...r, status: 'failed', errors: record(0, 3, 0, 'failed', 'forbidden').errors } : { ...r, status: 'listed' });
          return records;
        }),
        status: fromPromise<CopyRecord[], StatusInput>(async ({ input }) => {
          asked.push(input);
          return input.ids.map((id) => ozon.get(id)!);
        }),
        retry: fromPromise<CopyRecord[], StatusInput>(async ({ input }) => {
          retried.push(input);
          return input.ids.map((id) => ({ ...ozon.get(id)!, status: 'importing', attempts: 2 }));
        }),
      },
    }),
    { input: { pollMs: 3_000, chunkSize: 2 }, clock },
  );
  const finished: CopyActionEmitted[] = [];
  actor.on('action.finished', (e) => finished.push(e));
  actor.start();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { actor, clock, sent, asked, retried, finished, settle };
}

describe('copyActionMachine', () => {
  it('previews, sends the chosen cards in chunks, follows Ozon to the end and retries the refused', async () => {
    const { actor, clock, sent, asked, retried, finished, settle } = setup();
    actor.send({ type: 'copy.preview', sources: ['1', '2', '3', '4'], rule: RULE });
    await settle();
    expect(selectStep(actor.getSnapshot())).toBe('reviewing');
    // Nothing chosen or no shop: start does nothing.
    actor.send({ type: 'action.start', shopIds: [] });
    expect(selectStep(actor.getSnapshot())).toBe('reviewing');

    actor.send({ type: 'copy.edit', sku: 2, edit: { price: '199.00', offerId: 'MINE-2' } });
    actor.send({ type: 'copy.exclude', skus: [1], excluded: true });
    actor.send({ type: 'copy.exclude', skus: [1], excluded: false });
    actor.send({ type: 'action.start', shopIds: [11, 12] });
    await settle();
    await settle();
    // Three readable cards in chunks of two; the unknown SKU is never sent.
    expect(sent.map((s) => s.items.map((i) => i.sku))).toEqual([[1, 2], [3]]);
    expect(sent[0]!.items[1]).toEqual({ sku: 2, price: '199.00', offerId: 'MINE-2' });
    expect(sent[0]!.currency).toBe('CNY');
    expect(selectStep(actor.getSnapshot())).toBe('following');
    expect(selectProgress(actor.getSnapshot())).toMatchObject({ records: 6, unsettled: 6 });

    clock.increment(3_000);
    await settle();
    expect(asked[0]!.ids).toHaveLength(6);
    expect(selectStep(actor.getSnapshot())).toBe('outcome');
    expect(selectProgress(actor.getSnapshot())).toMatchObject({ listed: 4, failed: 2, unsettled: 0 });
    expect(finished).toEqual([{ type: 'action.finished', listed: 4, failed: 2 }]);
    expect(actor.getSnapshot().context.records.find((r) => r.status === 'failed')!.errors[0]!.message).toBe('forbidden');

    actor.send({ type: 'action.retry' });
    await settle();
    expect(retried[0]!.ids).toHaveLength(2);
    expect(selectStep(actor.getSnapshot())).toBe('following');
    clock.increment(3_000);
    await settle();
    expect(selectStep(actor.getSnapshot())).toBe('outcome');
    actor.send({ type: 'action.close' });
    expect(selectStep(actor.getSnapshot())).toBe('idle');
  });

  it('stops with the reason when a copy call fails, and sends the unsent cards on retry', async () => {
    const { actor, sent, settle } = setup({ copyFails: true });
    actor.send({ type: 'copy.preview', sources: ['1', '2', '3'], rule: RULE });
    await settle();
    actor.send({ type: 'action.start', shopIds: [11] });
    await settle();
    expect(selectStep(actor.getSnapshot())).toBe('stopped');
    expect(actor.getSnapshot().context.error).toBe('网络问题，请重试或刷新网页');
    actor.send({ type: 'action.retry' });
    await settle();
    expect(sent.map((s) => s.items.map((i) => i.sku))).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });
});
