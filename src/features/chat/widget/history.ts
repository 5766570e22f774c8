/**
 * Keeping the reader's place when older messages are prepended: the message that was first on screen must stay where
 * it was. With a virtual list the new scroll offset is the old one plus the height of everything inserted above.
 */
export function offsetAfterPrepend(previousOffset: number, insertedHeights: readonly number[]): number {
  return previousOffset + insertedHeights.reduce((sum, h) => sum + h, 0);
}

/** The index the list should show at the top after `count` messages were prepended above the old first one. */
export function anchorIndexAfterPrepend(previousTopIndex: number, count: number): number {
  return previousTopIndex + count;
}

/** Within this many pixels of the end counts as "at the bottom". */
export const BOTTOM_SLACK_PX = 24;

export function isAtBottom(scrollTop: number, clientHeight: number, scrollHeight: number): boolean {
  return scrollHeight - (scrollTop + clientHeight) <= BOTTOM_SLACK_PX;
}

/** Spec §9: the list scrolls to the top or bottom in a 200 ms animation. */
export const HISTORY_SCROLL_ANIMATION_MS = 200;
/** Spec §9: after a history request the link rests for 1000 ms, so a double click does not load two pages. */
export const HISTORY_LOCK_MS = 1000;

export function isHistoryLocked(lastRequestAt: number | null, now: number): boolean {
  return lastRequestAt !== null && now - lastRequestAt < HISTORY_LOCK_MS;
}

/** Ease-out scroll of `el` to `target` over `ms`; resolves when done (at once when motion is reduced). */
export function animateScrollTop(el: HTMLElement, target: () => number, ms: number = HISTORY_SCROLL_ANIMATION_MS): Promise<void> {
  const reduced = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (reduced || typeof requestAnimationFrame === 'undefined') {
    el.scrollTop = target();
    return Promise.resolve();
  }
  const from = el.scrollTop;
  const start = performance.now();
  return new Promise((done) => {
    const step = (now: number) => {
      const progress = Math.min(1, (now - start) / ms);
      const eased = 1 - (1 - progress) ** 3;
      // The target is read each frame: a virtual list's height changes as rows are measured on the way.
      el.scrollTop = from + (target() - from) * eased;
      if (progress < 1) requestAnimationFrame(step);
      else done();
    };
    requestAnimationFrame(step);
  });
}
