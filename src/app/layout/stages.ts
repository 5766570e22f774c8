import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * Parts of a screen that mount after its first commit, one part per frame: each waits for the browser to paint what
 * came before it, then renders in a transition of its own. Transitions started in the same task would be rendered
 * and committed together, one commit as long as all of them (a long task).
 */
const queue: (() => void)[] = [];
let waiting = false;
/** Pages holding the queue until their first content is painted (holdStages). */
let holds = 0;

function pump(): void {
  if (waiting || holds > 0 || queue.length === 0) return;
  waiting = true;
  requestAnimationFrame(() =>
    setTimeout(() => {
      waiting = false;
      if (holds > 0) return;
      queue.shift()?.();
      pump();
    }, 0),
  );
}

/** The longest the shell's later parts wait for a list's first rows. */
const FIRST_ROWS_HOLD_MS = 800;

/**
 * A page whose first content comes from elsewhere (a list's first rows, from the worker) holds the parts still
 * queued, the shell's bars and menu among them, until that content is painted or `graceMs` passed: rendered while
 * the rows came, they took the frames the rows needed (a median of 50 ms from the later of the rows' answer and the
 * grid's mount to the rows' paint, against 31 ms with the hold; 18 warm reloads each). The function it answers
 * releases the hold; calling it again does nothing.
 */
export function holdStages(graceMs: number): () => void {
  holds += 1;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearTimeout(timer);
    holds -= 1;
    pump();
  };
  const timer = setTimeout(release, graceMs);
  return release;
}

export function afterNextPaint(work: () => void): void {
  queue.push(work);
  pump();
}

/** 0 on the first commit, then one more per painted frame up to `last`, each step rendered as a transition. */
export function useStages(last: number): number {
  const [stage, setStage] = useState(0);
  useEffect(() => {
    if (stage >= last) return undefined;
    let cancelled = false;
    afterNextPaint(() => {
      if (!cancelled) startTransition(() => setStage(stage + 1));
    });
    return () => {
      cancelled = true;
    };
  }, [stage, last]);
  return stage;
}

/**
 * A list page's hold on the shell's later parts and its own staged controls (holdStages) until its first rows are
 * painted: call the answer then. A list that answers with no rows, or fails, lets them go at once.
 */
export function useFirstRowsHold({ loading, failed, total }: { loading: boolean; failed: boolean; total: number }): () => void {
  const release = useRef<(() => void) | null>(null);
  useLayoutEffect(() => {
    const hold = holdStages(FIRST_ROWS_HOLD_MS);
    release.current = hold;
    return hold;
  }, []);
  useEffect(() => {
    if (!loading && (failed || total === 0)) release.current?.();
  }, [loading, failed, total]);
  return useCallback(() => release.current?.(), []);
}
