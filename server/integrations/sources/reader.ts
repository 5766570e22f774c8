import { extractProduct, NotAProductPage, productLinkOf, type CollectSite, type ExtractedProduct } from '../../../contract/collectSources';
import { pageFactsOf } from './page';

/** Why a link could not be collected: each is a message of the error catalogue. */
export type SourceFailure = 'collectLinkInvalid' | 'collectSiteOff' | 'collectPageNotFound' | 'collectPageUnreadable' | 'collectSiteUnreachable';

export class SourceError extends Error {
  override name = 'SourceError';
  constructor(readonly reason: SourceFailure) {
    super(reason);
  }
}

/** One site as the reader reaches it: the base its product paths hang under, and the fetch to use. */
export type SiteAccess = { base: string; fetch: typeof fetch; /** Only the embedded simulator: links on its pages point at this server. */ simulated: boolean };

export type SourceReader = {
  /** Which sites can be read by link here. */
  sites: Record<CollectSite, boolean>;
  /** Reads a product link's page; `publicOrigin` is this server's address as the browser sees it (simulated pages only). */
  read(link: string, publicOrigin: string): Promise<ExtractedProduct>;
};

/** Pages larger than this are not product pages worth reading (real ones are under 2 MB). */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 20_000;

/**
 * The link collector's source adapter: a pasted Ozon or 1688 product link is read at the configured site address (or
 * the simulator's saved pages), without redirects to elsewhere and without running the page; the product is what
 * contract/collectSources.ts finds on it.
 */
export function createSourceReader(access: Record<CollectSite, SiteAccess | null>): SourceReader {
  return {
    sites: { ozon: access.ozon !== null, '1688': access['1688'] !== null },
    async read(link, publicOrigin) {
      const parsed = productLinkOf(link);
      if (!parsed) throw new SourceError('collectLinkInvalid');
      const site = access[parsed.site];
      if (!site) throw new SourceError('collectSiteOff');
      const pageUrl = `${site.base.replace(/\/$/, '')}${parsed.path}`;
      let response: Response;
      try {
        response = await site.fetch(pageUrl, {
          redirect: 'manual',
          signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
          headers: { accept: 'text/html', 'accept-language': 'zh-CN,zh;q=0.9,ru;q=0.8' },
        });
      } catch {
        throw new SourceError('collectSiteUnreachable');
      }
      if (response.status === 404 || response.status === 410) throw new SourceError('collectPageNotFound');
      // A redirect is the sites' way to a login or captcha page: not a product.
      if (response.status >= 300 && response.status < 400) throw new SourceError('collectPageUnreadable');
      if (!response.ok) throw new SourceError('collectSiteUnreachable');
      const body = await response.arrayBuffer();
      if (body.byteLength > MAX_PAGE_BYTES) throw new SourceError('collectPageUnreadable');
      const html = new TextDecoder('utf-8').decode(body);
      // Relative links resolve against the page's public address: the real site's, or this server's simulator path.
      const publicUrl = site.simulated ? new URL(new URL(pageUrl).pathname, publicOrigin).toString() : pageUrl;
      try {
        return { ...extractProduct(parsed.site, pageFactsOf(html, publicUrl)), url: canonicalLink(parsed.site, parsed.path) };
      } catch (error) {
        if (error instanceof NotAProductPage) throw new SourceError('collectPageUnreadable');
        throw error;
      }
    },
  };
}

/** The product's address on the real site, whichever address it was read from. */
export function canonicalLink(site: CollectSite, path: string): string {
  return site === 'ozon' ? `https://www.ozon.ru${path}` : `https://detail.1688.com${path}`;
}
