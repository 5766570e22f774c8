import { createBrowserInspector } from '@statelyai/inspect';
import { createActor, type ActorOptions, type AnyActorLogic, type InspectionEvent, type Observer } from 'xstate';

let inspector: ReturnType<typeof createBrowserInspector> | null = null;

/**
 * In development, opening the app with `?inspect` attaches the Stately inspector (it opens in a new window) to every
 * actor created through this module. In production builds the condition is a constant and the inspector stays out.
 */
export function appInspect(): Observer<InspectionEvent> | undefined {
  if (process.env.NODE_ENV !== 'development') return undefined;
  if (typeof window === 'undefined' || !new URLSearchParams(window.location.search).has('inspect')) return undefined;
  inspector ??= createBrowserInspector();
  return inspector.inspect;
}

/** Options for actors that a React provider creates (createActorContext's Provider). */
export function appActorOptions<TLogic extends AnyActorLogic>(options: ActorOptions<TLogic> = {}): ActorOptions<TLogic> {
  const inspect = appInspect();
  return inspect ? { ...options, inspect } : options;
}

/** Every actor the app creates itself goes through here, so the inspector sees them all. */
export function createAppActor<TLogic extends AnyActorLogic>(logic: TLogic, options: ActorOptions<TLogic> = {}) {
  return createActor(logic, appActorOptions(options));
}
