import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';

/**
 * The one proxy for pictures another site holds (issues 27 and 32). The app's pages run under `img-src 'self'`, and
 * loading another site's picture in the seller's browser would tell that site the seller's address, so the server
 * fetches it (no cookie, no referrer, public addresses only, a raster picture of at most 5 MB, contract/chatUpload.ts's
 * EXTERNAL_IMAGE_MAX_BYTES) and the page shows the bytes through the worker (an <img> cannot send the session).
 *
 * Who may ask for what:
 * - with `conversation`: any picture named in a chat message of a conversation the user can see (chat roles);
 * - without: only product pictures of the source sites (1688 and alicdn, Ozon and ozone.ru; `pictureSiteOf` in
 *   contract/collectSources.ts), for the listing roles: collected, copied and uploaded products' pictures.
 */
export const externalImageQuerySchema = lazySchema(() =>
  z.object({
    url: z.string().trim().min(1).max(2048),
    /** The conversation the message is in, as uploads name it: `friend:<id>`, `group:<id>` or `buyer:<storeId>:<chatId>`. */
    conversation: z.string().max(260).optional(),
  }),
);
export type ExternalImageQuery = z.input<typeof externalImageQuerySchema>;

export const EXTERNAL_IMAGE_ENDPOINTS = {
  externalImage: defineEndpoint({
    method: 'GET',
    path: '/image/external',
    summary:
      "Another site's picture fetched by the server (image/* only, at most 5 MB): one named in a conversation the user can see, or a 1688 or Ozon product picture",
    access: 'open',
    input: externalImageQuerySchema,
    raw: { contentType: 'image/*', description: "The picture's bytes, with the type its bytes show (JPEG, PNG, GIF, WebP, BMP or AVIF)." },
    settings: { responseType: 'blob', silent: true, timeout: 30_000, retries: 0 },
  }),
} as const;
