import { fromPromise, type AnyActorLogic, type EventObject } from 'xstate';
import { getAdjacencyMap, getShortestPaths, type TraversalOptions } from 'xstate/graph';

type Step<TSnapshot> = { event: EventObject; state: TSnapshot };

/**
 * One path per transition of a machine that invokes actors (createTestModel refuses those; the traversal functions
 * it is built on take them): the shortest path to each state, then each event that state takes. Together they walk
 * every reachable state and every transition out of it. `seen` is the traversal's `serializeState`.
 */
export function transitionPaths<TSnapshot>(logic: AnyActorLogic, traversal: TraversalOptions<never, never, unknown>, seen: (snapshot: TSnapshot) => string) {
  const shortest = getShortestPaths(logic, traversal as never) as unknown as { state: TSnapshot; steps: Step<TSnapshot>[] }[];
  const adjacency = getAdjacencyMap(logic, traversal as never) as unknown as Record<string, { transitions: Record<string, Step<TSnapshot>> }>;
  const paths = shortest.flatMap((path) =>
    Object.values(adjacency[seen(path.state)]?.transitions ?? {}).map(({ event, state }) => ({ steps: [...path.steps, { event, state }], state })),
  );
  return { shortest, adjacency, paths };
}

type Pending<I, O> = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void };

/**
 * A promise actor that answers only when a path's step says so: its calls wait in `calls`, and `answer` settles the
 * latest with a graph event (`xstate.done.actor.<id>` with its output, `xstate.error.actor.<id>` with its error).
 */
export function controlledPromise<I, O>() {
  const calls: Pending<I, O>[] = [];
  const logic = fromPromise<O, I>(({ input }) => new Promise<O>((resolve, reject) => calls.push({ input, resolve, reject })));
  const answer = async (event: EventObject & { output?: unknown; error?: unknown }) => {
    const call = calls.at(-1)!;
    if (event.type.startsWith('xstate.done.actor.')) call.resolve(event.output as O);
    else call.reject(event.error);
    // Let the actor take the answer in before the step's state is compared.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { calls, logic, answer };
}

/** A path's events, for its test's name. */
export const pathName = (path: { steps: readonly { event: EventObject }[] }) =>
  path.steps
    .slice(1)
    .map(({ event }) => event.type.replace('xstate.', ''))
    .join(' → ');
