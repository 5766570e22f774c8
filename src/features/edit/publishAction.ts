import { fromPromise } from 'xstate';
import { OZON_IMAGE_RULES } from '@contract/edit';
import type { SkuImageResult } from '@contract/products';
import type { DataClient } from '@workers/client';
import { designerPublishMachine, type PublishFormat, type SendPictureInput, type StorePictureInput, type StoredPicture } from '@machines/designerPublishMachine';

/** Ozon keeps at most this many pictures on a card. */
export const CARD_PICTURES_MAX = 30;

export type PublishTexts = { refusedSize: string; refusedBytes: string; tooManyPictures: string; untitled: string };
/** The design as it is on the canvas now, its size and its name. */
export type DesignPicture = { render: (format: PublishFormat) => Promise<Blob>; size: () => { width: number; height: number }; name: () => string };

/** A refusal the page makes before anything is sent, in the shape the machine reads a reason from. */
const refusal = (message: string) => ({ type: 'Refused', code: 400, message });

/** The card's pictures with ours: first instead of the main one, or added after the others. */
export function cardPictures(current: readonly string[], url: string, placement: SendPictureInput['placement']): string[] | null {
  const others = current.filter((u) => u !== url);
  if (placement === 'main') return [url, ...others.slice(current[0] === url ? 0 : 1)].slice(0, CARD_PICTURES_MAX);
  return others.length >= CARD_PICTURES_MAX ? null : [...others, url];
}

/**
 * The publish machine's actors on the data worker: the canvas exported in the chosen format, checked against Ozon's
 * picture rules here, stored among the user's images and given its public address; then, per product, the card's
 * pictures read and sent back with ours through /updateSkuImage.
 */
export function publishOn(client: DataClient, design: DesignPicture, texts: () => PublishTexts) {
  return designerPublishMachine.provide({
    actors: {
      storePicture: fromPromise<StoredPicture, StorePictureInput>(async ({ input }) => {
        const { width, height } = design.size();
        if (Math.min(width, height) < OZON_IMAGE_RULES.minSide || Math.max(width, height) > OZON_IMAGE_RULES.maxSide) throw refusal(texts().refusedSize);
        const blob = await design.render(input.format);
        if (blob.size > OZON_IMAGE_RULES.maxBytes) throw refusal(texts().refusedBytes);
        const stored = await client.edit.upload(blob, `${design.name() || texts().untitled}.${input.format === 'png' ? 'png' : 'jpg'}`);
        const published = await client.edit.publishImage(stored.id);
        return { imageId: stored.id, url: published.url };
      }),
      sendPicture: fromPromise<SkuImageResult, SendPictureInput>(async ({ input }) => {
        const info = await client.products.info(input.product.id);
        const images = cardPictures(info.images.length ? info.images : info.row.image ? [info.row.image] : [], input.url, input.placement);
        if (!images) throw refusal(texts().tooManyPictures);
        return client.products.updateSkuImage({ id: input.product.id, images });
      }),
    },
  });
}
