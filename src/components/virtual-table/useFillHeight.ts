import { useCallback, useState } from 'react';

/**
 * The height that takes a big list from where it starts to the bottom of the window, whatever the filters, bars
 * and toolbars above it measure today: filters that wrap on a narrow window, or a page that adds a row, no longer
 * leave the table short of the window or push it below the fold. Measured once the browser has laid the page out
 * (a ResizeObserver's first report), not in the commit that mounts it: a read there forced the layout of the whole
 * new page inside that commit's task. The first frame has the usual height, the next one the measured one. A hidden
 * tab (zero-sized) keeps its last height until it is shown again.
 */
export function useFillHeight(min: number, bottomGap = 16): { fillRef: (element: HTMLElement | null) => (() => void) | undefined; height: number } {
  const [height, setHeight] = useState(() => Math.max(min, window.innerHeight - FALLBACK_TOP));
  const fillRef = useCallback(
    (element: HTMLElement | null) => {
      if (!element) return undefined;
      const measure = () => {
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) return;
        setHeight(Math.max(min, Math.floor(window.innerHeight - rect.top - bottomGap)));
      };
      window.addEventListener('resize', measure);
      // What sits above the table (and the page around it) changing size moves the table's top; the observer's
      // first report is the first measure.
      const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
      if (!observer) measure();
      else {
        if (element.parentElement) observer.observe(element.parentElement);
        for (let above = element.previousElementSibling; above; above = above.previousElementSibling) observer.observe(above);
      }
      return () => {
        window.removeEventListener('resize', measure);
        observer?.disconnect();
      };
    },
    [min, bottomGap],
  );
  return { fillRef, height };
}

/** Where a list page's table usually starts, for the moment before it is measured. */
const FALLBACK_TOP = 300;
