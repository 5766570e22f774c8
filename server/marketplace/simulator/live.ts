import type { FbsStatus } from '../ozon/schemas';
import { DAY_MS, type PostingCore, UNFULFILLED } from './postings';
import { randomFor } from './random';
import type { SimShop } from './shop';

/**
 * The demo's own activity once the clock passes a shop's anchor, so a demo started on any day, and left running for
 * months, has work for the seller every day: a new posting about every three hours (ship-by two days later), a
 * buyer message about every 80 minutes (half of them about a new posting, in a chat of its own), and each week a
 * promotion that starts six days later. Postings nobody packs are cancelled by Ozon two days after their ship-by.
 *
 * Every slot's time and content derive from its number, and a shop makes the slots it slept through at its next
 * request (at most CATCH_UP_MS back), so the activity does not depend on when anyone looked.
 */

const HOUR = 3_600_000;
export const LIVE_POSTING_EVERY_MS = 3 * HOUR;
export const LIVE_MESSAGE_EVERY_MS = 80 * 60_000;
export const LIVE_ACTION_EVERY_MS = 7 * DAY_MS;
/** Slots older than this before the request are skipped: a server that slept for a year does not replay it. */
export const CATCH_UP_MS = 14 * DAY_MS;
/** An unpacked posting's ship-by is two days after it came in; Ozon cancels it two days after that. */
export const UNSHIPPED_CANCEL_MS = 4 * DAY_MS;

type Kind = 'posting' | 'message' | 'action';
const EVERY: Record<Kind, number> = { posting: LIVE_POSTING_EVERY_MS, message: LIVE_MESSAGE_EVERY_MS, action: LIVE_ACTION_EVERY_MS };

/**
 * What a posting the seller left alone has become by `now`: one still unfulfilled four days after it came in was
 * cancelled (not shipped in time), or, handed over already, is on its way.
 */
export function agedCore(core: PostingCore, now: number): PostingCore {
  const changedAt = core.inProcessAt + UNSHIPPED_CANCEL_MS;
  if (!UNFULFILLED.has(core.status) || now < changedAt) return core;
  const status: FbsStatus = core.status === 'awaiting_deliver' ? 'delivering' : 'cancelled';
  return { ...core, status, lastChangedAt: Math.max(core.lastChangedAt, changedAt) };
}

export class LiveActivity {
  private readonly shop: SimShop;
  /** Slots up to this time have been made. */
  private until: number;
  /** Postings made by the activity and not yet asked about by their buyer. */
  private readonly unasked: string[] = [];

  constructor(shop: SimShop) {
    this.shop = shop;
    this.until = shop.anchor;
  }

  /** Slot n of a kind: a fixed time within its period, after the anchor. */
  private slotTime(kind: Kind, n: number): number {
    const every = EVERY[kind];
    const jitter = kind === 'action' ? 0 : Math.floor(randomFor(this.shop.seed, this.shop.clientId, 'live', kind, n).next() * every * 0.8);
    return this.shop.anchor + n * every + jitter;
  }

  catchUp(now: number) {
    if (now <= this.until) return;
    const from = Math.max(this.until, now - CATCH_UP_MS);
    const due: { at: number; kind: Kind; n: number }[] = [];
    for (const kind of Object.keys(EVERY) as Kind[]) {
      const every = EVERY[kind];
      const first = Math.max(0, Math.floor((from - this.shop.anchor) / every));
      for (let n = first; ; n++) {
        const at = this.slotTime(kind, n);
        if (at > now) break;
        if (at > from) due.push({ at, kind, n });
      }
    }
    due.sort((a, b) => a.at - b.at);
    for (const { at, kind, n } of due) this.make(kind, n, at);
    this.until = now;
  }

  private make(kind: Kind, n: number, at: number) {
    const { areas } = this.shop;
    if (kind === 'posting') {
      this.unasked.push(areas.postings.addPosting(at).postingNumber);
      if (this.unasked.length > 20) this.unasked.shift();
    } else if (kind === 'message') {
      const asks = randomFor(this.shop.seed, this.shop.clientId, 'live-asks', n).chance(0.5);
      areas.chat.addLiveMessage(at, n, asks ? this.unasked.pop() : undefined);
    } else {
      areas.promotions.addUpcomingAction(at, n);
    }
  }
}
