/**
 * How many browser test files run at once, each against an app server of its own (global-setup.ts starts one per
 * worker). The files wait on Chromium and the app far more than they compute: two at a time on the 2-core machine
 * take about half as long as one after another. `E2E_WORKERS=1` runs them one by one.
 */
export const E2E_WORKERS = Math.max(1, Math.floor(Number(process.env.E2E_WORKERS ?? 2)) || 1);
