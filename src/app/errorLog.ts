import { useSyncExternalStore } from 'react';

/** One entry of the error log (seller-tool §2.3, §3): what went wrong, where, and on which page. */
export type ErrorLogEntry = { error: string; info: string; url: string; time: number };

/** The environments whose errors are logged: production, where nobody has the console open. */
export const ERROR_LOG_ENVIRONMENTS: readonly string[] = ['production'];
const MAX_ENTRIES = 100;

let entries: ErrorLogEntry[] = [];
const listeners = new Set<() => void>();

export function isErrorLogEnabled(environment: string | undefined = process.env.NODE_ENV): boolean {
  return environment !== undefined && ERROR_LOG_ENVIRONMENTS.includes(environment);
}

export function addErrorLog(entry: Omit<ErrorLogEntry, 'time'>): void {
  entries = [...entries, { ...entry, time: Date.now() }].slice(-MAX_ENTRIES);
  for (const listener of listeners) listener();
}

export function clearErrorLog(): void {
  entries = [];
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useErrorLog(): ErrorLogEntry[] {
  return useSyncExternalStore(subscribe, () => entries);
}

function describe(reason: unknown): string {
  if (reason instanceof Error) return `${reason.name}: ${reason.message}`;
  if (typeof reason === 'object' && reason !== null && 'message' in reason) return String((reason as { message: unknown }).message);
  return String(reason);
}

/** The global handler: uncaught errors and unhandled rejections go into the log when it is enabled. */
export function installErrorLog(target: Window = window, enabled = isErrorLogEnabled()): () => void {
  if (!enabled) return () => {};
  const onError = (event: ErrorEvent) =>
    addErrorLog({ error: describe(event.error ?? event.message), info: `${event.filename}:${event.lineno}:${event.colno}`, url: target.location.href });
  const onRejection = (event: PromiseRejectionEvent) =>
    addErrorLog({ error: describe(event.reason), info: 'unhandledrejection', url: target.location.href });
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
