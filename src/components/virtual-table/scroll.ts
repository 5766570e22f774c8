/**
 * Chromium caps an element's height near 33.5 million px: at 36 px a row, fewer than a million rows fit. Past a
 * safe maximum the scroll area keeps that maximum height and a scroll position maps linearly onto the full list, so
 * the last row of any result is reachable (a pixel of scrollbar then moves more than a pixel of rows).
 */
export const MAX_SCROLL_PX = 15_000_000;

export type ScrollScale = {
  /** Height of the element that scrolls. */
  scrollHeight: number;
  /** Full list offset per scrolled pixel (1 when no scaling is needed). */
  ratio: number;
};

export function scrollScale(contentHeight: number, viewportHeight: number, max = MAX_SCROLL_PX): ScrollScale {
  if (contentHeight <= max) return { scrollHeight: contentHeight, ratio: 1 };
  const travel = Math.max(1, max - viewportHeight);
  return { scrollHeight: max, ratio: Math.max(1, (contentHeight - viewportHeight) / travel) };
}
