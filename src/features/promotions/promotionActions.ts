import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { appActorOptions } from '@/app/createAppActor';
import type { DataClient } from '@workers/client';
import {
  promotionActionsMachine,
  type PromotionActionKind,
  type RunPromotionChunkInput,
  type RunPromotionChunkOutput,
} from '@machines/promotionActionsMachine';

/**
 * The promotions page's batch actions (machines/promotionActionsMachine.ts) on the data worker: one chunk of
 * subjects sent to the matching call, each failure with the server's reason.
 */
async function runChunk(client: DataClient, { kind, target, subjects }: RunPromotionChunkInput): Promise<RunPromotionChunkOutput> {
  const failures: Record<string, string> = {};
  const storeId = Number(target.storeId);
  const actionId = Number(target.actionId);
  if (kind === 'add' || kind === 'remove') {
    const answer =
      kind === 'add'
        ? await client.promotions.add({ storeId, actionId, products: subjects.map((s) => ({ productId: Number(s.data.productId), actionPrice: Number(s.data.price) })) })
        : await client.promotions.remove({ storeId, actionId, productIds: subjects.map((s) => Number(s.data.productId)) });
    for (const outcome of answer.outcomes) if (!outcome.ok) failures[String(outcome.productId)] = outcome.reason ?? '';
    return { failures };
  }
  const items = subjects.map((s) => ({ storeId: Number(s.data.storeId), taskId: Number(s.data.taskId), price: Number(s.data.price), quantityMin: Number(s.data.quantityMin ?? 1), quantityMax: Number(s.data.quantityMax ?? 1) }));
  const answer =
    kind === 'approve'
      ? await client.promotions.approve({ items })
      : await client.promotions.decline({ items: items.map(({ storeId: s, taskId }) => ({ storeId: s, taskId })) });
  for (const outcome of answer.outcomes) if (!outcome.ok) failures[`${outcome.storeId}:${outcome.taskId}`] = outcome.reason ?? '';
  return { failures };
}

/** One actions actor for a part of the page; `onFinished` runs when a pass ends (the lists read again). */
export function usePromotionActions(client: DataClient, onFinished: (kind: PromotionActionKind) => void) {
  const machine = useMemo(
    () => promotionActionsMachine.provide({ actors: { runChunk: fromPromise(({ input }) => runChunk(client, input)) } }),
    [client],
  );
  const actor = useActorRef(machine, { ...appActorOptions(), input: {} });
  useEffect(() => {
    const subscription = actor.on('action.finished', (event) => onFinished(event.kind));
    return () => subscription.unsubscribe();
  }, [actor, onFinished]);
  return actor;
}
export type PromotionActionsActor = ReturnType<typeof usePromotionActions>;
export { useSelector };
