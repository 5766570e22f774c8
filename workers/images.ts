import { EXTERNAL_IMAGE_ENDPOINTS } from '../contract/externalImage';
import type { HttpClient } from './http/client';

/** A picture's bytes and type, for the page to show as an object URL. */
export type PictureBytes = { bytes: ArrayBuffer; contentType: string };

/** Another site's pictures through the server's image proxy (contract/externalImage.ts). */
export type ImagesApi = {
  /** A 1688 or Ozon product picture, or (with `conversation`) one named in a chat message of that conversation. */
  external(url: string, conversation?: string): Promise<PictureBytes>;
};

export function createImagesApi(client: HttpClient): ImagesApi {
  return {
    external: async (url, conversation) => {
      const blob = await client.call(EXTERNAL_IMAGE_ENDPOINTS.externalImage, conversation === undefined ? { url } : { url, conversation });
      return { bytes: await blob.arrayBuffer(), contentType: blob.type };
    },
  };
}
