import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { CardDraft, CategoryAttribute, CreateTask } from '../contract/create';
import { emptyCard } from '../contract/ozonCard';
import { createProductMachine, selectCreateProgress, selectCreateStep, type CreateInput, type CreateProductEmitted, type CreateStatusInput } from './createProductMachine';

const BRAND: CategoryAttribute = { id: 85, name: '品牌', description: '', type: 'String', isRequired: true, isCollection: false, isAspect: false, dictionaryId: 1, groupName: '', maxValueCount: 1 };
const card = (withBrand: boolean): CardDraft => ({
  ...emptyCard(),
  categoryId: 1,
  typeId: 2,
  name: 'Наушники',
  attributes: withBrand ? [{ id: 85, values: [{ dictionaryValueId: 7, value: 'Baseus' }] }] : [],
  images: ['https://cdn.example.com/a.jpg'],
  depth: 10,
  width: 10,
  height: 10,
  weight: 100,
  variants: [{ offerId: 'A-1', price: '100', oldPrice: '', barcode: '', attributes: [] }],
});

function setup(options: { failFirst?: boolean; refuse?: boolean } = {}) {
  const clock = new SimulatedClock();
  const sent: CreateInput[] = [];
  const asked: CreateStatusInput[] = [];
  let calls = 0;
  const actor = createActor(
    createProductMachine.provide({
      actors: {
        create: fromPromise<CreateTask, CreateInput>(async ({ input }) => {
          sent.push(input);
          if (options.failFirst && calls++ === 0) throw { message: '网络问题，请重试或刷新网页' };
          return { shopId: input.shopId, taskId: 9, items: [{ offerId: 'A-1', status: 'importing', productId: null, errors: [] }] };
        }),
        status: fromPromise<CreateTask, CreateStatusInput>(async ({ input }) => {
          asked.push(input);
          const refused = { code: 'error_attribute_value_out_of_range', message: '「Бренд」不在字典中', field: 'attr.85', attributeId: 85 };
          return { shopId: input.shopId, taskId: input.taskId, items: [{ offerId: 'A-1', status: options.refuse ? 'failed' : 'listed', productId: 5, errors: options.refuse ? [refused] : [] }] };
        }),
      },
    }),
    { input: { pollMs: 2_000 }, clock },
  );
  const finished: CreateProductEmitted[] = [];
  actor.on('action.finished', (e) => finished.push(e));
  actor.start();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { actor, clock, sent, asked, finished, settle };
}

describe('createProductMachine', () => {
  it('sends nothing while the card breaks Ozon’s rules, and names each problem’s field', async () => {
    const { actor, sent } = setup();
    actor.send({ type: 'action.start', shopId: 3, card: card(false), attributes: [BRAND] });
    expect(selectCreateStep(actor.getSnapshot())).toBe('invalid');
    expect(actor.getSnapshot().context.problems).toEqual([{ field: 'attr.85', key: 'cardAttributeRequired', params: { name: '品牌' } }]);
    // Attributes not loaded yet: the card cannot be checked, so it is not sent either.
    actor.send({ type: 'action.start', shopId: 3, card: card(true), attributes: null });
    expect(selectCreateStep(actor.getSnapshot())).toBe('invalid');
    expect(sent).toEqual([]);
  });

  it('sends a valid card, follows Ozon until listed, and reports the outcome', async () => {
    const { actor, clock, sent, asked, finished, settle } = setup();
    actor.send({ type: 'action.start', shopId: 3, card: card(true), attributes: [BRAND] });
    expect(selectCreateStep(actor.getSnapshot())).toBe('sending');
    await settle();
    expect(sent).toHaveLength(1);
    expect(selectCreateStep(actor.getSnapshot())).toBe('following');
    clock.increment(2_000);
    await settle();
    expect(asked).toEqual([{ shopId: 3, taskId: 9, offerIds: ['A-1'] }]);
    expect(selectCreateStep(actor.getSnapshot())).toBe('outcome');
    expect(selectCreateProgress(actor.getSnapshot())).toMatchObject({ total: 1, listed: 1, failed: 0 });
    expect(finished).toEqual([{ type: 'action.finished', listed: 1, failed: 0 }]);
  });

  it('keeps Ozon’s refusal with its field, and sends the fixed card again on retry', async () => {
    const { actor, clock, sent, settle } = setup({ refuse: true });
    actor.send({ type: 'action.start', shopId: 3, card: card(true), attributes: [BRAND] });
    await settle();
    clock.increment(2_000);
    await settle();
    expect(actor.getSnapshot().context.task?.items[0]?.errors[0]).toMatchObject({ field: 'attr.85' });
    actor.send({ type: 'action.retry', card: card(true), attributes: [BRAND] });
    expect(selectCreateStep(actor.getSnapshot())).toBe('sending');
    await settle();
    expect(sent).toHaveLength(2);
  });

  it('fails with the reason when the call fails as a whole, and retries', async () => {
    const { actor, settle, sent } = setup({ failFirst: true });
    actor.send({ type: 'action.start', shopId: 3, card: card(true), attributes: [BRAND] });
    await settle();
    expect(selectCreateStep(actor.getSnapshot())).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('网络问题，请重试或刷新网页');
    actor.send({ type: 'action.retry', card: card(true), attributes: [BRAND] });
    await settle();
    expect(sent).toHaveLength(2);
    expect(selectCreateStep(actor.getSnapshot())).toBe('following');
    actor.send({ type: 'action.close' });
    expect(selectCreateStep(actor.getSnapshot())).toBe('idle');
  });
});
