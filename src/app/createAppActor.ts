import type { createBrowserInspector } from '@statelyai/inspect';
import { createActor, type ActorOptions, type AnyActorLogic, type InspectionEvent, type Observer } from 'xstate';
import { flowsInspect } from './flows/channel';

let inspector: ReturnType<typeof createBrowserInspector> | null = null;

function wantsInspector(): boolean {
  return typeof window !== 'undefined' && new URLSearchParams(window.location.search).has('inspect');
}

/**
 * In development, opening the app with `?inspect` attaches the Stately inspector (it opens in a new window) to every
 * actor created through this module. main.tsx awaits this before the first render. The import sits behind a
 * build-time constant so production bundles leave the inspector (about 70 kB) out altogether.
 */
export async function loadInspector(): Promise<void> {
  if (process.env.NODE_ENV !== 'development' || !wantsInspector() || inspector) return;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  inspector = createBrowserInspector();
}

/** The observers of the app's actors: the flows page's channel (src/app/flows) and, with `?inspect`, Stately's inspector. */
export function appInspect(): Observer<InspectionEvent> | undefined {
  const stately = process.env.NODE_ENV === 'development' ? inspector?.inspect : undefined;
  const flows = flowsInspect();
  if (!stately) return flows;
  if (!flows) return stately;
  return {
    next(event) {
      flows.next?.(event);
      stately.next?.(event);
    },
  };
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
