import { AnalyticsArea } from './areas/analytics';
import { ChatArea } from './areas/chat';
import { PostingsArea } from './areas/postings';
import { PricesStocksArea } from './areas/pricesStocks';
import { ProductsArea } from './areas/products';
import { PromotionsArea } from './areas/promotions';
import { ReturnsArea } from './areas/returns';
import { DAY_MS, HISTORY_DAYS } from './postings';
import { generateProduct, matchesVisibility, type SimProduct } from './products';
import { LiveActivity } from './live';
import { asNumbers, iso } from './wire';

/** What Ozon's product lists filter by (the v3, v4 and v5 filters have these or fewer). */
type ProductFilter = { offer_id?: string[]; product_id?: (number | string)[]; sku?: (number | string)[]; visibility?: string };

export { SIM_BOUNDS } from './wire';

/** What the simulator's switches hand a shop: the clock and the delays of Ozon's asynchronous steps. */
export type ShopEnv = {
  now: () => number;
  /** Whether the shop keeps making activity as the clock passes its anchor (./live.ts). */
  live: boolean;
  /** Ozon wants 45–60 s between ship and label; 0 turns the rule off (tests). */
  labelReadyDelayMs: () => number;
  /** How long an import or a label task stays pending. */
  taskDelayMs: () => number;
  /** Whether product import tasks stay pending whatever their age (the control's hold). */
  holdImportTasks: () => boolean;
  /** A card of any simulated shop by its SKU (copying by SKU reaches other sellers' cards). */
  findSku: (sku: number) => SimProduct | undefined;
};

export type SimShopConfig = {
  clientId: string;
  apiKey: string;
  name?: string;
  /** FBS postings over the last 90 days (default 3,000). 1,000,000 works: postings are generated on demand. */
  orders?: number;
  products?: number;
  /** Role names the key holds (default all: 'Admin'). */
  roles?: string[];
  keyState?: 'active' | 'deactivated' | 'ipRestricted';
  /** ISO time the key expires (default `keyDays` after the anchor). */
  expiresAt?: string;
  /** Days the key runs after the anchor when no `expiresAt` is given (default 90). */
  keyDays?: number;
};

const WAREHOUSE_NAMES = ['义乌仓 Yiwu FBS', '深圳仓 Shenzhen FBS', '广州仓 Guangzhou rFBS'];

/**
 * One simulated shop: the core every Ozon area shares (its key, clock, warehouses and product catalogue, generated
 * from the seed), and one object per area (./areas/) holding that area's own state and answering its calls.
 */
export class SimShop {
  readonly config: SimShopConfig;
  readonly clientId: string;
  readonly seed: string;
  readonly env: ShopEnv;
  readonly anchor: number;
  /** The first generated posting's time and the time between two (postings are spread evenly over the history). */
  readonly start: number;
  readonly step: number;
  readonly orderCount: number;

  readonly warehouses: { id: number; name: string; isRfbs: boolean }[];
  readonly products: SimProduct[] = [];
  readonly productById = new Map<number, SimProduct>();
  readonly productByOffer = new Map<string, SimProduct>();
  /** The cards postings draw their lines from (fixed at creation, so generated postings never change). */
  readonly sellable: SimProduct[];
  private taskSeq: number;
  private readonly live: LiveActivity | null;

  readonly areas: {
    postings: PostingsArea;
    products: ProductsArea;
    pricesStocks: PricesStocksArea;
    promotions: PromotionsArea;
    returns: ReturnsArea;
    chat: ChatArea;
    analytics: AnalyticsArea;
  };

  constructor(config: SimShopConfig, seed: string, anchor: number, env: ShopEnv) {
    this.config = config;
    this.clientId = config.clientId;
    this.seed = seed;
    this.env = env;
    this.anchor = anchor;
    this.orderCount = config.orders ?? 3_000;
    this.start = anchor - HISTORY_DAYS * DAY_MS;
    this.step = (HISTORY_DAYS * DAY_MS) / Math.max(1, this.orderCount);
    const base = Number(config.clientId);
    this.warehouses = WAREHOUSE_NAMES.slice(0, 2 + (base % 2)).map((name, i) => ({ id: 20_000_000_000 + base * 10 + i + 1, name, isRfbs: i === 2 }));
    const productCount = config.products ?? 2_000;
    for (let k = 0; k < productCount; k++) this.addProduct(generateProduct(seed, config.clientId, k, this.warehouses.map((w) => w.id), anchor));
    this.sellable = this.products.filter((p) => p.sku > 0);
    this.taskSeq = base * 1_000_000;
    this.areas = {
      postings: new PostingsArea(this),
      products: new ProductsArea(this),
      pricesStocks: new PricesStocksArea(this),
      promotions: new PromotionsArea(this),
      returns: new ReturnsArea(this),
      chat: new ChatArea(this),
      analytics: new AnalyticsArea(this),
    };
    this.live = env.live ? new LiveActivity(this) : null;
  }

  /** Makes the activity due by now (live shops only; every request to the shop calls it first). */
  catchUp() {
    this.live?.catchUp(this.env.now());
  }

  addProduct(p: SimProduct) {
    this.products.push(p);
    this.productById.set(p.id, p);
    this.productByOffer.set(p.offerId, p);
  }

  /** Cards under moderation become sellable once their time comes. */
  settle(p: SimProduct): SimProduct {
    if (p.state === 'moderating' && p.readyAt <= this.env.now()) {
      p.state = 'onSale';
      if (p.sku === 0) p.sku = 1_000_000_000 + p.id;
      p.updatedAt = p.readyAt;
    }
    return p;
  }
  productBySku(sku: number): SimProduct | undefined {
    const p = this.productById.get(sku - 1_000_000_000);
    return p && p.sku === sku ? p : undefined;
  }

  /** The products a list filter (offer_id, product_id, sku, visibility) selects, settled. */
  filterProducts(filter: ProductFilter = {}): SimProduct[] {
    const offers = new Set(filter.offer_id ?? []);
    const ids = new Set(asNumbers(filter.product_id));
    const skus = new Set(asNumbers(filter.sku));
    const visibility = filter.visibility ?? 'ALL';
    return this.products
      .map((p) => this.settle(p))
      .filter((p) => (offers.size === 0 || offers.has(p.offerId)) && (ids.size === 0 || ids.has(p.id)) && (skus.size === 0 || skus.has(p.sku)) && matchesVisibility(p, visibility));
  }

  /** A picture's public URL: generated pictures are served by the simulator itself. */
  url(image: string, baseUrl: string) {
    return image.startsWith('local:') ? `${baseUrl}/assets/img/${image.slice(6)}.png` : image;
  }

  /**
   * A picture link an import sends, as the card keeps it: one of the simulator's own pictures goes back to its name,
   * whatever address the sender reached the simulator at (the server's in-process `http://localhost`, a browser's
   * 127.0.0.1:<port>), so every caller is answered with its own address again, as Ozon answers its CDN links to all.
   */
  stored(link: string, baseUrl: string) {
    try {
      const own = new URL(baseUrl).pathname.replace(/\/$/, '');
      const m = /^(.*)\/assets\/img\/([\w-]{1,64})\.png$/.exec(new URL(link).pathname);
      return m && m[1] === own ? `local:${m[2]}` : link;
    } catch {
      return link;
    }
  }

  /** Today's quota window (Ozon's daily limits reset at 03:00 MSK, which is 00:00 UTC). */
  quotaDay() {
    const dayStart = Math.floor(this.env.now() / DAY_MS) * DAY_MS;
    return { dayStart, resetAt: iso(dayStart + DAY_MS) };
  }

  /** Import and label task ids share one sequence per shop. */
  nextTaskId() {
    return ++this.taskSeq;
  }

  // ---- keys and roles
  expiresAt(): string {
    return this.config.expiresAt ?? iso(this.anchor + (this.config.keyDays ?? 90) * DAY_MS);
  }

  // ---- the simulator's switches
  /** The "new posting now" switch. */
  addPosting() {
    return this.areas.postings.addPosting();
  }
  /** The "new buyer message now" switch. */
  addBuyerMessage(chatId?: string, text?: string, imageUrl?: string) {
    return this.areas.chat.addBuyerMessage(chatId, text, imageUrl);
  }
}
