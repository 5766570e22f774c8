/**
 * How a product page of a source site becomes a collected product. Shared by the server's link collector (which
 * parses the fetched HTML with parse5) and the browser plugin's content script (which reads the live page): both
 * gather the same PAGE FACTS without running any of the page's scripts (the JSON the page embeds is read as text),
 * and this module turns them into one product. Pure: no DOM, no fetch.
 */

export const COLLECT_SITES = ['ozon', '1688'] as const;
export type CollectSite = (typeof COLLECT_SITES)[number];

/** What a page shows, read without running it. */
export type PageFacts = {
  /** The page's address (relative links resolve against it). */
  url: string;
  /** The document's `<title>`. */
  title: string;
  /** `<meta property|name=… content=…>`, the first of each name. */
  metas: Record<string, string>;
  /** Texts of `<script type="application/ld+json">`. */
  jsonLd: string[];
  /** Texts of inline scripts without a type (or a JavaScript type): their JSON assignments are read, never run. */
  scripts: string[];
  /** Ozon's widget states: `<div id="state-…" data-state="{…}">`. */
  states: { id: string; state: string }[];
};

export type ExtractedVariant = { key: string; name: string; props: Record<string, string>; price: string; image: string | null; stock: number | null };
export type ExtractedProduct = {
  site: CollectSite;
  sourceId: string;
  url: string;
  title: string;
  description: string;
  images: string[];
  price: string;
  currency: string;
  variants: ExtractedVariant[];
  attributes: { name: string; value: string }[];
};

/** Why a page could not be read as a product. */
export class NotAProductPage extends Error {
  override name = 'NotAProductPage';
}

/** The site a link belongs to, and the product's id in it; null for anything else. */
export function productLinkOf(text: string): { site: CollectSite; id: string; path: string } | null {
  let url: URL;
  try {
    const trimmed = text.trim();
    url = new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  if (/(^|\.)ozon\.(ru|by|kz|com)$/.test(host)) {
    const match = /\/product\/(?:[^/]*-)?(\d{1,19})\/?$/.exec(url.pathname);
    return match ? { site: 'ozon', id: match[1]!, path: `/product/${url.pathname.split('/')[2]}/` } : null;
  }
  if (/(^|\.)1688\.com$/.test(host)) {
    const match = /^\/offer\/(\d{1,19})\.html$/.exec(url.pathname);
    return match ? { site: '1688', id: match[1]!, path: `/offer/${match[1]}.html` } : null;
  }
  return null;
}

/** The sites' domains whose product pictures (and their subdomains') the app shows through its server. */
const PICTURE_DOMAINS: Record<CollectSite, RegExp> = { '1688': /(^|\.)(alicdn|1688)\.com$/, ozon: /(^|\.)ozone?\.ru$/ };

/** The source site a picture link is on (1688 and its CDN alicdn, Ozon and its CDN ozone.ru), or null for any other host. */
export function pictureSiteOf(link: string | URL): CollectSite | null {
  let host: string;
  try {
    host = new URL(link).hostname.toLowerCase();
  } catch {
    return null;
  }
  return COLLECT_SITES.find((site) => PICTURE_DOMAINS[site].test(host)) ?? null;
}

/**
 * An image link as it should be stored: absolute https, without the sites' resize suffixes (1688's
 * `.jpg_220x220.jpg` and `.jpg_.webp`, Ozon's `/wc250/` segment), so Ozon downloads the full picture. Links that are
 * not http(s) (data:, javascript:) answer null.
 */
export function normalizeImageUrl(link: string, base?: string): string | null {
  const trimmed = link.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed.startsWith('//') ? `https:${trimmed}` : trimmed, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  if (/(^|\.)(alicdn\.com|ozone\.ru|ozon\.ru)$/.test(host)) url.protocol = 'https:';
  url.pathname = url.pathname
    .replace(/(\.(?:jpe?g|png|webp|gif))_(?:\d+x\d+(?:q\d+)?(?:\.(?:jpe?g|png|webp))?|\.webp)$/i, '$1')
    .replace(/\/(?:wc|w|c)\d{2,4}\//, '/');
  if (/(^|\.)(alicdn\.com|ozone\.ru)$/.test(host)) url.search = '';
  url.hash = '';
  return url.toString();
}

const normalizeAll = (links: readonly string[], base: string) => [...new Set(links.flatMap((l) => normalizeImageUrl(l, base) ?? []))];

/** "1 299 ₽", "1299,50", "¥12.5" → "1299.00", "1299.50", "12.50"; null when no amount is there. */
export function moneyOf(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value.toFixed(2) : null;
  if (typeof value !== 'string') return null;
  const digits = value.replace(/[\s\u00a0\u2009]/g, '').replace(/[^\d.,]/g, '');
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?/.exec(digits);
  if (!match) return null;
  return `${match[1]}.${(match[2] ?? '').padEnd(2, '0')}`;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');
const record = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const decodeEntities = (value: string) => value.replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

function parseJson(textValue: string): unknown {
  try {
    return JSON.parse(textValue);
  } catch {
    return undefined;
  }
}

/** The JSON object assigned to `name` in a script (`window.__INIT_DATA = {…};`), read by matching braces, not by running it. */
export function assignedJson(scripts: readonly string[], name: string): unknown {
  for (const script of scripts) {
    const at = script.indexOf(name);
    if (at < 0) continue;
    const start = script.indexOf('{', at);
    if (start < 0) continue;
    let depth = 0;
    let inString: string | null = null;
    for (let i = start; i < script.length; i++) {
      const c = script[i]!;
      if (inString) {
        if (c === '\\') i++;
        else if (c === inString) inString = null;
      } else if (c === '"' || c === "'") inString = c;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return parseJson(script.slice(start, i + 1));
    }
  }
  return undefined;
}

function productLd(facts: PageFacts): Record<string, unknown> {
  for (const block of facts.jsonLd) {
    const parsed = parseJson(block);
    for (const node of Array.isArray(parsed) ? parsed : [parsed, ...list(record(parsed)['@graph'])]) {
      if (record(node)['@type'] === 'Product') return record(node);
    }
  }
  return {};
}

function stateOf(facts: PageFacts, prefix: string): Record<string, unknown> {
  const found = facts.states.find((s) => s.id.startsWith(prefix));
  return found ? record(parseJson(found.state)) : {};
}

function extractOzon(facts: PageFacts): ExtractedProduct {
  const ld = productLd(facts);
  const offers = record(Array.isArray(ld.offers) ? ld.offers[0] : ld.offers);
  const link = productLinkOf(facts.url);
  const sourceId = text(ld.sku) || link?.id || '';
  const title = text(ld.name) || text(facts.metas['og:title']);
  const priceState = stateOf(facts, 'state-webPrice');
  const price = moneyOf(offers.price) ?? moneyOf(priceState.price) ?? moneyOf(priceState.cardPrice);
  if (!sourceId || !title || !price) throw new NotAProductPage('no Ozon product on this page');
  const gallery = list(stateOf(facts, 'state-webGallery').images).map((i) => text(record(i).src));
  const ldImages = Array.isArray(ld.image) ? ld.image.map(text) : [text(ld.image)];
  const images = normalizeAll([...ldImages, ...gallery, text(facts.metas['og:image'])], facts.url);
  const attributes: ExtractedProduct['attributes'] = [];
  for (const group of list(stateOf(facts, 'state-webCharacteristics').characteristics)) {
    for (const row of [...list(record(group).short), ...list(record(group).long)]) {
      const name = text(record(row).name);
      const value = list(record(row).values).map((v) => text(record(v).text)).filter(Boolean).join(', ');
      if (name && value && !attributes.some((a) => a.name === name)) attributes.push({ name, value });
    }
  }
  const brand = text(record(ld.brand).name) || text(ld.brand);
  if (brand && !attributes.some((a) => /бренд|brand|品牌/i.test(a.name))) attributes.unshift({ name: 'Бренд', value: brand });
  const variants: ExtractedVariant[] = [];
  const [aspect] = list(stateOf(facts, 'state-webAspects').aspects).map(record);
  if (aspect) {
    const aspectName = text(aspect.title) || text(aspect.aspectKey);
    for (const v of list(aspect.variants).map(record)) {
      const data = record(v.data);
      const name = text(data.title) || text(data.searchableText);
      const key = text(v.sku);
      if (!key || !name) continue;
      variants.push({
        key,
        name,
        props: { [aspectName]: name },
        price: moneyOf(data.price) ?? price,
        image: normalizeImageUrl(text(data.coverImage), facts.url),
        stock: null,
      });
    }
  }
  return {
    site: 'ozon',
    sourceId,
    url: facts.url,
    title,
    description: text(ld.description) || text(facts.metas.description) || text(facts.metas['og:description']),
    images,
    price,
    currency: text(offers.priceCurrency) || 'RUB',
    variants,
    attributes,
  };
}

function extract1688(facts: PageFacts): ExtractedProduct {
  const data = record(assignedJson(facts.scripts, 'window.__INIT_DATA'));
  const global = record(data.globalData);
  const temp = record(global.tempModel);
  const link = productLinkOf(facts.url);
  const sourceId = text(temp.offerId) || link?.id || '';
  const title = text(temp.offerTitle) || text(facts.metas['og:title']);
  const skuModel = record(global.skuModel);
  const ranges = list(record(record(record(global.orderParamModel).orderParam).skuParam).skuRangePrices).map(record);
  const infos = Object.entries(record(skuModel.skuInfoMap)).map(([key, info]) => ({ key: decodeEntities(key), info: record(info) }));
  const skuPrices = infos.flatMap(({ info }) => moneyOf(info.discountPrice) ?? moneyOf(info.price) ?? []).map(Number);
  const price = moneyOf(ranges[0]?.price) ?? (skuPrices.length ? Math.min(...skuPrices).toFixed(2) : null) ?? moneyOf(facts.metas['og:product:price']);
  if (!sourceId || !title || !price) throw new NotAProductPage('no 1688 offer on this page');
  const images = normalizeAll([...list(global.images).map((i) => text(record(i).fullPathImageURI)), text(facts.metas['og:image'])], facts.url);
  const props = list(skuModel.skuProps).map(record);
  const imageOf = new Map<string, string>();
  for (const prop of props) {
    for (const value of list(prop.value).map(record)) {
      const image = normalizeImageUrl(text(value.imageUrl), facts.url);
      if (image) imageOf.set(text(value.name), image);
    }
  }
  const variants = infos.map(({ key, info }): ExtractedVariant => {
    const parts = key.split('>');
    const named: Record<string, string> = {};
    props.forEach((prop, i) => {
      if (parts[i]) named[text(prop.prop)] = parts[i]!;
    });
    return {
      key: text(info.skuId) || key,
      name: parts.join(' / '),
      props: named,
      price: moneyOf(info.discountPrice) ?? moneyOf(info.price) ?? price,
      image: parts.map((p) => imageOf.get(p)).find(Boolean) ?? null,
      stock: typeof info.canBookCount === 'number' ? info.canBookCount : null,
    };
  });
  const attributes = list(global.featureAttributes)
    .map(record)
    .flatMap((a) => {
      const name = text(a.name);
      const value = list(a.values).map(text).filter(Boolean).join(', ') || text(a.value);
      return name && value ? [{ name, value }] : [];
    });
  return {
    site: '1688',
    sourceId,
    url: facts.url,
    title,
    description: text(record(global.offerDetail).description) || text(facts.metas.description),
    images,
    price,
    currency: 'CNY',
    variants,
    attributes,
  };
}

/** The product a page of `site` shows; throws NotAProductPage when the page holds none (a search page, a captcha). */
export function extractProduct(site: CollectSite, facts: PageFacts): ExtractedProduct {
  const product = site === 'ozon' ? extractOzon(facts) : extract1688(facts);
  return {
    ...product,
    title: product.title.slice(0, 500),
    description: product.description.slice(0, 20_000),
    images: product.images.slice(0, 30),
    variants: product.variants.slice(0, 200),
    attributes: product.attributes.slice(0, 200).map((a) => ({ name: a.name.slice(0, 100), value: a.value.slice(0, 1000) })),
  };
}
