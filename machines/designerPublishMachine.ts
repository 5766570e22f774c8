import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { SkuImageResult } from '../contract/products';
import { reasonOf } from './chatSendMachine';

/**
 * The designer's picture put on products (/edit/edit-image → /updateSkuImage): the seller chooses a shop's products,
 * the picture format and where the picture goes on the card; the canvas is exported and stored once with a public
 * address Ozon fetches, then each product's card gets it through Ozon's pictures import, one product at a time, with
 * Ozon's answer kept per product.
 *
 *   idle → choosing → storing → next ⇄ sending → done
 *             ↑ cancel    ↘ failed (retry → storing, cancel → choosing, close → idle)
 *   done: retry sends the failed products again (the stored picture is reused), start chooses other products.
 */

export const PUBLISH_MAX_PRODUCTS = 50;

export type PublishFormat = 'png' | 'jpeg';
/** `main`: the picture becomes the card's main picture (the old main one goes); `extra`: it is added after the others. */
export type PublishPlacement = 'main' | 'extra';
export type PublishProduct = { id: string; offerId: string; name: string; image: string };
export type PublishRequest = { shopId: number; products: PublishProduct[]; format: PublishFormat; placement: PublishPlacement };

export type StorePictureInput = { format: PublishFormat };
/** The stored picture: its row among the user's images and the public address Ozon fetches it from. */
export type StoredPicture = { imageId: number; url: string };
export type SendPictureInput = { product: PublishProduct; url: string; placement: PublishPlacement };

export type PublishOutcomeState = 'waiting' | 'sent' | 'failed';
export type PublishOutcome = {
  product: PublishProduct;
  state: PublishOutcomeState;
  /** Why the card was not changed (the server's or Ozon's words), or null. */
  reason: string | null;
  /** Ozon's answer per picture of the card after the import. */
  pictures: SkuImageResult['pictures'];
};

export type DesignerPublishContext = {
  request: PublishRequest | null;
  picture: StoredPicture | null;
  outcomes: PublishOutcome[];
  /** Why the picture could not be made or stored. */
  reason: string | null;
};

export type DesignerPublishEvent =
  | { type: 'action.start' }
  | { type: 'action.confirm'; request: PublishRequest }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.close' };

const EMPTY: DesignerPublishContext = { request: null, picture: null, outcomes: [], reason: null };

export const designerPublishMachine = setup({
  types: { context: {} as DesignerPublishContext, events: {} as DesignerPublishEvent },
  actors: {
    storePicture: fromPromise<StoredPicture, StorePictureInput>(async () => {
      throw new Error('storePicture not provided');
    }),
    sendPicture: fromPromise<SkuImageResult, SendPictureInput>(async () => {
      throw new Error('sendPicture not provided');
    }),
  },
  guards: {
    isChoice: ({ event }) => event.type === 'action.confirm' && event.request.products.length > 0 && event.request.products.length <= PUBLISH_MAX_PRODUCTS,
    hasWaiting: ({ context }) => context.outcomes.some((o) => o.state === 'waiting'),
    hasFailed: ({ context }) => context.outcomes.some((o) => o.state === 'failed'),
  },
  actions: {
    reset: assign(EMPTY),
    takeRequest: assign(({ event }) => {
      assertEvent(event, 'action.confirm');
      return {
        request: event.request,
        picture: null,
        reason: null,
        outcomes: event.request.products.map((product): PublishOutcome => ({ product, state: 'waiting', reason: null, pictures: [] })),
      };
    }),
    keepPicture: assign({ picture: (_, picture: StoredPicture) => picture, reason: null }),
    keepReason: assign({ reason: (_, error: unknown) => reasonOf(error) }),
    settle: assign({
      outcomes: ({ context }, outcome: { state: 'sent' | 'failed'; reason: string | null; pictures: SkuImageResult['pictures'] }) => {
        const at = context.outcomes.findIndex((o) => o.state === 'waiting');
        return context.outcomes.map((o, k) => (k === at ? { ...o, ...outcome } : o));
      },
    }),
    resendFailed: assign({
      outcomes: ({ context }) => context.outcomes.map((o) => (o.state === 'failed' ? { ...o, state: 'waiting' as const, reason: null, pictures: [] } : o)),
    }),
  },
}).createMachine({
  id: 'designerPublish',
  context: EMPTY,
  initial: 'idle',
  states: {
    idle: { on: { 'action.start': 'choosing' } },
    choosing: {
      on: {
        'action.confirm': { guard: 'isChoice', target: 'storing', actions: 'takeRequest' },
        'action.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    storing: {
      invoke: {
        id: 'storePicture',
        src: 'storePicture',
        input: ({ context }) => ({ format: context.request!.format }),
        onDone: { target: 'next', actions: { type: 'keepPicture', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'keepReason', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    /** The picture could not be made or stored: nothing reached Ozon. */
    failed: {
      on: {
        'action.retry': { target: 'storing', actions: assign({ reason: null }) },
        'action.cancel': { target: 'choosing', actions: assign({ reason: null }) },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    next: {
      always: [{ guard: 'hasWaiting', target: 'sending' }, { target: 'done' }],
    },
    sending: {
      invoke: {
        id: 'sendPicture',
        src: 'sendPicture',
        input: ({ context }) => ({
          product: context.outcomes.find((o) => o.state === 'waiting')!.product,
          url: context.picture!.url,
          placement: context.request!.placement,
        }),
        onDone: { target: 'next', actions: { type: 'settle', params: ({ event }) => ({ state: 'sent' as const, reason: null, pictures: event.output.pictures }) } },
        onError: { target: 'next', actions: { type: 'settle', params: ({ event }) => ({ state: 'failed' as const, reason: reasonOf(event.error), pictures: [] }) } },
      },
    },
    done: {
      on: {
        'action.retry': { guard: 'hasFailed', target: 'next', actions: 'resendFailed' },
        'action.start': { target: 'choosing', actions: 'reset' },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
  },
});

export type DesignerPublishSnapshot = SnapshotFrom<typeof designerPublishMachine>;
export type PublishStep = 'idle' | 'choosing' | 'storing' | 'sending' | 'done' | 'failed';

export const selectPublishStep = (s: DesignerPublishSnapshot): PublishStep => (s.matches('next') ? 'sending' : (s.value as PublishStep));
export const selectPublishRequest = (s: DesignerPublishSnapshot) => s.context.request;
export const selectPublishPicture = (s: DesignerPublishSnapshot) => s.context.picture;
export const selectPublishOutcomes = (s: DesignerPublishSnapshot) => s.context.outcomes;
export const selectPublishReason = (s: DesignerPublishSnapshot) => s.context.reason;
/** Settled products of all, for the progress bar. */
export const selectPublishProgress = (s: DesignerPublishSnapshot) => {
  const total = s.context.outcomes.length;
  const settled = s.context.outcomes.filter((o) => o.state !== 'waiting').length;
  return { settled, total, failed: s.context.outcomes.filter((o) => o.state === 'failed').length, percent: total ? Math.round((settled / total) * 100) : 0 };
};
/** Ozon's state of the published picture on a product's card ('imported', 'uploading', 'failed'), or null before it was sent. */
export function publishedPictureState(outcome: PublishOutcome, url: string | null): string | null {
  if (outcome.state !== 'sent' || !url) return null;
  return outcome.pictures.find((p) => p.url === url)?.state ?? null;
}
/** The card's main picture after the import as Ozon answered it (the design, when it went on as the main one), else the one it had. */
export function cardMainPicture(outcome: PublishOutcome): string {
  if (outcome.state !== 'sent') return outcome.product.image;
  return outcome.pictures.find((p) => p.primary && p.state !== 'failed')?.url ?? outcome.product.image;
}
