import type { AnyActorLogic, EventObject } from 'xstate';
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
