import { createActor, fromPromise, waitFor, type Actor } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import type { SkuImageResult } from '../contract/products';
import { controlledPromise, pathName, transitionPaths } from '../tests/support/transitionPaths';
import {
  cardMainPicture,
  designerPublishMachine,
  PUBLISH_MAX_PRODUCTS,
  publishedPictureState,
  selectPublishOutcomes,
  selectPublishProgress,
  selectPublishReason,
  selectPublishStep,
  type DesignerPublishEvent,
  type DesignerPublishSnapshot,
  type PublishProduct,
  type PublishRequest,
  type SendPictureInput,
  type StorePictureInput,
  type StoredPicture,
} from './designerPublishMachine';

const URL_ = 'https://app.example/api/edit/picture/AbCdEfGhIjKlMnOpQrSt.jpg';
const PICTURE: StoredPicture = { imageId: 7, url: URL_ };
const product = (n: number): PublishProduct => ({ id: `1:${n}`, offerId: `SKU-${n}`, name: `商品 ${n}`, image: `https://cdn.example/${n}.jpg` });
const request = (products: PublishProduct[]): PublishRequest => ({ shopId: 1, products, format: 'jpeg', placement: 'main' });
const imported = (input: SendPictureInput): SkuImageResult => ({
  id: input.product.id,
  pictures: [
    { url: input.url, state: 'imported', primary: true },
    { url: 'https://cdn.example/other.jpg', state: 'imported', primary: false },
  ],
});
const refused = { type: 'BadRequest', code: 400, message: 'Ozon拒绝了该商品的图片' };
const storeFailed = { type: 'BadRequest', code: 400, message: '图片边长不能小于200像素（Ozon要求）' };

describe('designer publish machine with fakes', () => {
  function start(refuse: (input: SendPictureInput) => boolean) {
    const stored: StorePictureInput[] = [];
    const sent: SendPictureInput[] = [];
    const actor = createActor(
      designerPublishMachine.provide({
        actors: {
          storePicture: fromPromise<StoredPicture, StorePictureInput>(async ({ input }) => (stored.push(input), PICTURE)),
          sendPicture: fromPromise<SkuImageResult, SendPictureInput>(async ({ input }) => {
            sent.push(input);
            if (refuse(input)) throw refused;
            return imported(input);
          }),
        },
      }),
    ).start();
    return { actor, stored, sent };
  }

  it('stores the picture once, sends it to each product in turn and keeps Ozon\'s answer; retry resends only the refused', async () => {
    let refuseSecond = true;
    const { actor, stored, sent } = start((input) => refuseSecond && input.product.id === '1:2');
    actor.send({ type: 'action.start' });
    actor.send({ type: 'action.confirm', request: request([product(1), product(2), product(3)]) });
    await waitFor(actor, (s) => selectPublishStep(s) === 'done');
    expect(stored).toEqual([{ format: 'jpeg' }]);
    expect(sent.map((s) => [s.product.id, s.url, s.placement])).toEqual([
      ['1:1', URL_, 'main'],
      ['1:2', URL_, 'main'],
      ['1:3', URL_, 'main'],
    ]);
    const outcomes = selectPublishOutcomes(actor.getSnapshot());
    expect(outcomes.map((o) => [o.product.id, o.state, o.reason])).toEqual([
      ['1:1', 'sent', null],
      ['1:2', 'failed', refused.message],
      ['1:3', 'sent', null],
    ]);
    expect(publishedPictureState(outcomes[0]!, URL_)).toBe('imported');
    expect(publishedPictureState(outcomes[1]!, URL_)).toBeNull();
    // The row's picture: the design where it went on as the card's main one, the card's own where the send failed.
    expect(outcomes.map(cardMainPicture)).toEqual([URL_, 'https://cdn.example/2.jpg', URL_]);
    expect(cardMainPicture({ ...outcomes[0]!, pictures: [{ url: URL_, state: 'failed', primary: true }] })).toBe('https://cdn.example/1.jpg');
    expect(selectPublishProgress(actor.getSnapshot())).toEqual({ settled: 3, total: 3, failed: 1, percent: 100 });

    refuseSecond = false;
    actor.send({ type: 'action.retry' });
    await waitFor(actor, (s) => selectPublishStep(s) === 'done');
    expect(stored).toHaveLength(1);
    expect(sent.slice(3).map((s) => s.product.id)).toEqual(['1:2']);
    expect(selectPublishOutcomes(actor.getSnapshot()).map((o) => o.state)).toEqual(['sent', 'sent', 'sent']);
    actor.stop();
  });

  it('refuses a choice of no products or more than it sends at once', () => {
    const { actor, stored } = start(() => false);
    actor.send({ type: 'action.start' });
    actor.send({ type: 'action.confirm', request: request([]) });
    actor.send({ type: 'action.confirm', request: request(Array.from({ length: PUBLISH_MAX_PRODUCTS + 1 }, (_, k) => product(k))) });
    expect(selectPublishStep(actor.getSnapshot())).toBe('choosing');
    expect(stored).toEqual([]);
    actor.stop();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Every reachable state and transition: the dialog's events, and both answers of the store and of each send.

type GraphEvent = DesignerPublishEvent | { type: string; output?: unknown; error?: unknown };
const TWO = request([product(1), product(2)]);

function eventsFor(snapshot: DesignerPublishSnapshot): GraphEvent[] {
  const waiting = snapshot.context.outcomes.find((o) => o.state === 'waiting');
  switch (selectPublishStep(snapshot)) {
    case 'idle':
      return [{ type: 'action.start' }];
    case 'choosing':
      return [{ type: 'action.confirm', request: TWO }, { type: 'action.confirm', request: request([]) }, { type: 'action.cancel' }];
    case 'storing':
      return [
        { type: 'xstate.done.actor.storePicture', output: PICTURE },
        { type: 'xstate.error.actor.storePicture', error: storeFailed },
      ];
    case 'failed':
      return [{ type: 'action.retry' }, { type: 'action.cancel' }, { type: 'action.close' }];
    case 'sending':
      return [
        { type: 'xstate.done.actor.sendPicture', output: imported({ product: waiting!.product, url: URL_, placement: 'main' }) },
        { type: 'xstate.error.actor.sendPicture', error: refused },
      ];
    case 'done':
      return [{ type: 'action.retry' }, { type: 'action.start' }, { type: 'action.close' }];
  }
}

const seen = (snapshot: DesignerPublishSnapshot) => JSON.stringify({ value: snapshot.value, ...snapshot.context });
const traversal: TraversalOptions<DesignerPublishSnapshot, DesignerPublishEvent, undefined> = {
  events: eventsFor as (snapshot: DesignerPublishSnapshot) => DesignerPublishEvent[],
  serializeState: seen,
};

function startHarness() {
  const store = controlledPromise<StorePictureInput, StoredPicture>();
  const send = controlledPromise<SendPictureInput, SkuImageResult>();
  const actor: Actor<typeof designerPublishMachine> = createActor(designerPublishMachine.provide({ actors: { storePicture: store.logic, sendPicture: send.logic } })).start();
  return { actor, store, send };
}

describe('designer publish machine: every reachable state and transition', () => {
  const { shortest, adjacency, paths } = transitionPaths<DesignerPublishSnapshot>(designerPublishMachine, traversal as never, seen);

  it('reaches every state', () => {
    expect(new Set(shortest.map((path) => selectPublishStep(path.state)))).toEqual(new Set(['idle', 'choosing', 'storing', 'failed', 'sending', 'done']));
    const edges = Object.values(adjacency).reduce((sum, vertex) => sum + Object.keys(vertex.transitions).length, 0);
    expect(paths.length).toBe(edges);
  });

  for (const path of paths) {
    it(`${pathName(path)} ⇒ ${JSON.stringify(path.state.value)}`, async () => {
      const h = startHarness();
      try {
        for (const step of path.steps) {
          const before = { store: h.store.calls.length, send: h.send.calls.length };
          const event = step.event as GraphEvent;
          if (event.type === 'xstate.init') continue;
          if (event.type.startsWith('xstate.done.actor.storePicture') || event.type.startsWith('xstate.error.actor.storePicture')) await h.store.answer(event);
          else if (event.type.startsWith('xstate.')) await h.send.answer(event);
          else h.actor.send(event as DesignerPublishEvent);
          await new Promise((resolve) => setTimeout(resolve, 0));
          const snapshot = h.actor.getSnapshot();
          expect(seen(snapshot)).toBe(seen(step.state));
          const step_ = selectPublishStep(snapshot);
          // Entering storing asks for the picture once; sending asks Ozon for the first waiting product, once.
          expect(h.store.calls.length - before.store).toBe(step_ === 'storing' && !event.type.startsWith('xstate.') ? 1 : 0);
          if (step_ === 'sending') {
            expect(h.send.calls.length - before.send).toBe(1);
            expect(h.send.calls.at(-1)!.input).toEqual({ product: snapshot.context.outcomes.find((o) => o.state === 'waiting')!.product, url: URL_, placement: 'main' });
          }
          if (step_ === 'failed') expect(selectPublishReason(snapshot)).toBe(storeFailed.message);
          if (step_ === 'done') expect(snapshot.context.outcomes.every((o) => o.state !== 'waiting')).toBe(true);
        }
      } finally {
        h.actor.stop();
      }
    });
  }
});
