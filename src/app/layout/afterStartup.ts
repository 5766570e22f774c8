import { startTransition, useEffect, useState } from 'react';

/** How long the shell leaves the page alone before the extras start, and the latest they wait for an idle moment. */
export const STARTUP_GRACE_MS = 1500;
export const STARTUP_IDLE_TIMEOUT_MS = 3000;

/**
 * False until the page has had its start: after a grace period, at the browser's next idle moment. The shell's
 * extras (notice banner, version check, feature-update announcement) wait for it, so their worker calls and renders
 * do not compete with the opened page's first rows.
 */
export function useAfterStartup(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    let idle: number | null = null;
    const done = () => startTransition(() => setReady(true));
    const timer = window.setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(done, { timeout: STARTUP_IDLE_TIMEOUT_MS });
      else done();
    }, STARTUP_GRACE_MS);
    return () => {
      window.clearTimeout(timer);
      if (idle !== null) window.cancelIdleCallback(idle);
    };
  }, [ready]);
  return ready;
}
