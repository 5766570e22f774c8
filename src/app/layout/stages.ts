import { startTransition, useEffect, useState } from 'react';

/**
 * Parts of a screen that mount after its first commit, one part per frame: each waits for the browser to paint what
 * came before it, then renders in a transition of its own. Transitions started in the same task would be rendered
 * and committed together, one commit as long as all of them (a long task).
 */
const queue: (() => void)[] = [];
let waiting = false;

function pump(): void {
  if (waiting || queue.length === 0) return;
  waiting = true;
  requestAnimationFrame(() =>
    setTimeout(() => {
      waiting = false;
      queue.shift()?.();
      pump();
    }, 0),
  );
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
