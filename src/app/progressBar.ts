/**
 * The navigation progress indicator (seller-tool §2.1): a thin bar along the top of the window that grows while a
 * page loads and fills and fades when it is in.
 *
 * Animated with the Web Animations API on transform and opacity only, so the compositor draws it and the main thread
 * never reads layout for it. (NProgress, used before, read `offsetWidth` on every step to restart its CSS
 * transition: a forced layout of the whole page inside the commit that mounts a page, ~35 ms at a cold start.)
 */
const GROW_MS = 10_000;
/** How far the bar grows on its own; the rest is drawn when the page is in. */
const GROWN = 0.9;
const FINISH_MS = 500;

let bar: HTMLDivElement | null = null;
let growing: Animation | null = null;
/** The last fill-and-fade, cancelled by a new start (asking the element for its animations updated the page's styles). */
let finishing: Animation | null = null;

function element(): HTMLDivElement {
  if (bar) return bar;
  bar = document.createElement('div');
  bar.className = 'app-progress';
  bar.setAttribute('aria-hidden', 'true');
  document.body.appendChild(bar);
  return bar;
}

/** Starts the bar from nothing; a start while it grows keeps it growing. */
export function startProgress(): void {
  if (growing || typeof document === 'undefined') return;
  const el = element();
  if (typeof el.animate !== 'function') return;
  finishing?.cancel();
  finishing = null;
  growing = el.animate([{ transform: 'scaleX(0)', opacity: 1 }, { transform: `scaleX(${GROWN})`, opacity: 1 }], {
    duration: GROW_MS,
    easing: 'cubic-bezier(0.1, 0.7, 0.2, 1)',
    fill: 'forwards',
  });
}

/** Fills the bar from where it is and fades it out; nothing when it is not growing. */
export function doneProgress(): void {
  if (!growing || !bar) return;
  // The computed progress is the eased one: where the bar is drawn now, without asking the page's layout.
  const progress = growing.effect?.getComputedTiming().progress ?? 0;
  growing.cancel();
  growing = null;
  finishing = bar.animate(
    [
      { transform: `scaleX(${GROWN * progress})`, opacity: 1 },
      { transform: 'scaleX(1)', opacity: 1, offset: 0.5 },
      { transform: 'scaleX(1)', opacity: 0 },
    ],
    { duration: FINISH_MS, easing: 'ease-out', fill: 'forwards' },
  );
}
