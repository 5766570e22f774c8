import type { ZhEnText } from '../../../contract/errors';
import { findLeaf } from '../../marketplace/simulator/catalog';
import type { OzonSimulator } from '../../marketplace/simulator/plugin';

/** A card on Ozon as a copy reads it: what the preview shows and what an import of a changed card sends. */
export type SourceCard = {
  sku: number;
  name: string;
  /** Public picture links. */
  images: string[];
  price: string;
  currency: string;
  categoryId: number;
  typeId: number;
  categoryName: ZhEnText;
  vat: string;
  attributes: { id: number; complex_id: number; values: { dictionary_value_id?: number; value: string }[] }[];
  dimensions: { depth: number; width: number; height: number; weight: number };
};

/**
 * Where copies read other sellers' cards. Ozon's Seller API shows a seller only their own cards, so the source is the
 * storefront. With the embedded simulator it is the simulator's whole catalogue (every simulated shop's cards);
 * without it there is no storefront reader yet and reading answers null (see `available`).
 */
export type SourceCatalog = {
  available: boolean;
  cardBySku(sku: number): SourceCard | null;
};

export function simulatorCatalog(simulator: OzonSimulator | null, assetBase: string): SourceCatalog {
  if (!simulator) return { available: false, cardBySku: () => null };
  return {
    available: true,
    cardBySku(sku) {
      for (const shop of simulator.shops.values()) {
        const found = shop.productBySku(sku);
        if (!found || found.archived) continue;
        const p = shop.settle(found);
        const leaf = findLeaf(p.categoryId, p.typeId);
        return {
          sku,
          name: p.name,
          images: p.images.map((image) => shop.url(image, assetBase)),
          price: p.price.toFixed(2),
          currency: p.currency,
          categoryId: p.categoryId,
          typeId: p.typeId,
          categoryName: { zh: leaf?.names.zh ?? '', en: leaf?.names.en ?? '' },
          vat: p.vat,
          attributes: p.attributes.map((a) => ({ ...a, values: a.values.map((v) => ({ ...v })) })),
          dimensions: { depth: p.depth, width: p.width, height: p.height, weight: p.weight },
        };
      }
      return null;
    },
  };
}

/**
 * The SKU in a pasted line: the digits alone, or the number that ends an Ozon product link's slug
 * (https://www.ozon.ru/product/besprovodnye-naushniki-1234567890/?at=…). Anything else is null.
 */
export function skuOf(text: string): number | null {
  const trimmed = text.trim();
  if (/^\d{1,19}$/.test(trimmed)) return toSku(trimmed);
  let url: URL;
  try {
    url = new URL(trimmed.startsWith('http') ? trimmed : `https://${trimmed}`);
  } catch {
    return null;
  }
  if (!/(^|\.)ozon\.(ru|by|kz|com)$/.test(url.hostname)) return null;
  const match = /\/product\/(?:[^/]*-)?(\d{1,19})\/?$/.exec(url.pathname);
  return match ? toSku(match[1]!) : null;
}

function toSku(digits: string): number | null {
  const n = Number(digits);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
