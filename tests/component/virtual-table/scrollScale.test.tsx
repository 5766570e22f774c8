import { MAX_SCROLL_PX, scrollScale } from '@/components/virtual-table/scroll';

/** Chromium's limit on an element's size (2^25 px, "about 33.5 million"). */
const CHROMIUM_CAP = 33_554_432;

/**
 * What VirtualTable does with a scale: the element scrolls over `scrollHeight` plus the sticky header row, the list
 * offset is `scrollTop * ratio`, and a row is drawn at `start - offset + header` below the top of the viewport.
 */
function lastRowPlacement(total: number, rowHeight: number, viewport: number) {
  const scale = scrollScale(total * rowHeight, viewport);
  const maxScrollTop = scale.scrollHeight + rowHeight - viewport;
  const offset = maxScrollTop * scale.ratio;
  const top = (total - 1) * rowHeight - offset + rowHeight;
  return { scale, top, bottom: top + rowHeight };
}

describe('scroll scaling', () => {
  it('leaves lists that fit alone', () => {
    expect(scrollScale(100_000 * 36, 600)).toEqual({ scrollHeight: 3_600_000, ratio: 1 });
  });

  it('keeps a million rows under the browser cap and the last row fully on screen at the end of the scroll', () => {
    for (const [rowHeight, viewport] of [[36, 400], [36, 900], [48, 700], [28, 1200]] as const) {
      const { scale, top, bottom } = lastRowPlacement(1_000_000, rowHeight, viewport);
      expect(scale.scrollHeight + rowHeight).toBeLessThan(CHROMIUM_CAP);
      expect(scale.ratio).toBeGreaterThan(1);
      // Below the sticky header, inside the viewport.
      expect(top).toBeGreaterThanOrEqual(rowHeight);
      expect(bottom).toBeLessThanOrEqual(viewport);
    }
  });

  it('maps the first and the last scroll position onto the first and the last rows', () => {
    const viewport = 500;
    const total = 5_000_000 * 36;
    const scale = scrollScale(total, viewport);
    expect(scale.scrollHeight).toBe(MAX_SCROLL_PX);
    expect(0 * scale.ratio).toBe(0);
    // The top row at the end of the travel is the one that leaves exactly a viewport of rows below it.
    expect((scale.scrollHeight - viewport) * scale.ratio).toBeCloseTo(total - viewport, 3);
  });
});
