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

export function formatTimestamp(ts: number): string {
  const d = new Date(ts);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
