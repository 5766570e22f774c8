import { routePath } from '@contract/endpoint';
import { WATERMARK_ENDPOINTS } from '@contract/watermark';

/** The app's own public pictures (what a watermark job made), by the path before their token. */
const OWN_PICTURES = routePath(WATERMARK_ENDPOINTS.publicPicture).replace(':token', '');

/**
 * A picture's URL as the browser can show it: the in-process simulator names its own pictures by the address the
 * server reached it at, which the browser reaches as this same origin's /sim path; the app's own made pictures are
 * this origin's too, whatever address the server was reached at when it made them.
 */
export function pictureUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname.startsWith('/sim/') || parsed.pathname.startsWith(OWN_PICTURES) ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return url;
  }
}
