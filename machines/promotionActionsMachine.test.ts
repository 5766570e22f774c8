import { createActor, fromPromise } from 'xstate';
import {
  promotionActionsMachine,
  selectOutcomes,
  selectPhase,
  selectProgress,
  type PromotionSubject,
  type RunPromotionChunkInput,
  type RunPromotionChunkOutput,
} from './promotionActionsMachine';

const subject = (n: number): PromotionSubject => ({ key: `p${n}`, label: `offer-${n}`, data: { productId: n, actionPrice: 100 } });
const SUBJECTS = [subject(1), subject(2), subject(3)];
const target = { storeId: 1, actionId: 7 };

/** A fake server: refuses the keys in `refuse` with a reason, once each when `once`. */
function fakeRun(refuse: Set<string>, once = true) {
  const calls: RunPromotionChunkInput[] = [];
  const actor = fromPromise<RunPromotionChunkOutput, RunPromotionChunkInput>(async ({ input }) => {
    calls.push(input);
    const failures: Record<string, string> = {};
    for (const s of input.subjects) {
      if (refuse.has(s.key)) {
        failures[s.key] = '活动价高于Ozon允许的最高活动价';
        if (once) refuse.delete(s.key);
      }
    }
    return { failures };
  });
  return { calls, actor };
}

async function settled(actor: ReturnType<typeof createActor<typeof promotionActionsMachine>>) {
  await new Promise<void>((resolve) => {
    const check = () => {
      if (selectPhase(actor.getSnapshot()) !== 'running') resolve();
      else setTimeout(check, 1);
    };
    check();
  });
}

describe('promotionActionsMachine', () => {
  it('confirms, sends in chunks, shows each outcome with its reason, and retries only the refused one', async () => {
    const fake = fakeRun(new Set(['p2']));
    const actor = createActor(promotionActionsMachine.provide({ actors: { runChunk: fake.actor } }), { input: { chunkSize: 2 } }).start();
    const finished: { done: number; failed: number }[] = [];
    actor.on('action.finished', (e) => finished.push({ done: e.done, failed: e.failed }));
    actor.send({ type: 'action.start', kind: 'add', target, subjects: SUBJECTS });
    expect(selectPhase(actor.getSnapshot())).toBe('confirming');
    actor.send({ type: 'action.edit', key: 'p3', data: { actionPrice: 90 } });
    actor.send({ type: 'action.confirm' });
    await settled(actor);
    expect(fake.calls.map((c) => c.subjects.map((s) => s.key))).toEqual([['p1', 'p2'], ['p3']]);
    expect(fake.calls[0]!.target).toEqual(target);
    expect(fake.calls[1]!.subjects[0]!.data).toEqual({ productId: 3, actionPrice: 90 });
    expect(selectOutcomes(actor.getSnapshot())).toEqual({ p1: { status: 'done' }, p2: { status: 'failed', reason: '活动价高于Ozon允许的最高活动价' }, p3: { status: 'done' } });
    expect(finished).toEqual([{ done: 2, failed: 1 }]);
    actor.send({ type: 'action.retry' });
    await settled(actor);
    expect(fake.calls.at(-1)!.subjects.map((s) => s.key)).toEqual(['p2']);
    expect(selectProgress(actor.getSnapshot())).toEqual({ total: 3, settled: 3, failed: 0 });
    actor.send({ type: 'action.close' });
    expect(selectPhase(actor.getSnapshot())).toBe('idle');
  });

  it('a failing call fails its chunk with the reason; cancel before confirming sends nothing', async () => {
    const calls: unknown[] = [];
    const failing = fromPromise<RunPromotionChunkOutput, RunPromotionChunkInput>(async ({ input }) => {
      calls.push(input);
      throw { message: 'ozon接口请求超时' };
    });
    const actor = createActor(promotionActionsMachine.provide({ actors: { runChunk: failing } }), { input: {} }).start();
    actor.send({ type: 'action.start', kind: 'remove', target, subjects: SUBJECTS });
    actor.send({ type: 'action.cancel' });
    expect(selectPhase(actor.getSnapshot())).toBe('idle');
    expect(calls).toHaveLength(0);
    actor.send({ type: 'action.start', kind: 'remove', target, subjects: SUBJECTS });
    actor.send({ type: 'action.confirm' });
    await settled(actor);
    expect(Object.values(selectOutcomes(actor.getSnapshot()))).toEqual(SUBJECTS.map(() => ({ status: 'failed', reason: 'ozon接口请求超时' })));
  });

  it('ignores a start with nothing selected', () => {
    const actor = createActor(promotionActionsMachine, { input: {} }).start();
    actor.send({ type: 'action.start', kind: 'add', target, subjects: [] });
    expect(selectPhase(actor.getSnapshot())).toBe('idle');
  });
});
