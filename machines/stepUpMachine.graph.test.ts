import { createActor, type Actor } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import { controlledPromise, pathName, transitionPaths } from '../tests/support/transitionPaths';
import { selectStepUpError, selectStepUpReason, selectStepUpState, stepUpMachine, type StepUpEvent, type StepUpSnapshot } from './stepUpMachine';

const needed = '访问策略「发货要动态口令」要求 10 分钟内验证过动态口令，请输入动态口令后重试';
const again = '访问策略「导出要动态口令」要求 5 分钟内验证过动态口令，请输入动态口令后重试';
const wrongCode = { type: 'InvalidInput', code: 400, message: '动态口令不正确' };

// The graph: a call needing a code (twice, while asking), a code of the right shape or not, cancel, and both answers
// of the server to the code.
type GraphEvent = StepUpEvent | { type: string; output?: unknown; error?: unknown };

function eventsFor(snapshot: StepUpSnapshot): GraphEvent[] {
  switch (selectStepUpState(snapshot)) {
    case 'idle':
      return [{ type: 'stepUp.needed', message: needed }];
    case 'asking':
      return [
        { type: 'stepUp.needed', message: again },
        { type: 'stepUp.submit', code: ' 123456 ' },
        { type: 'stepUp.submit', code: '12' },
        { type: 'stepUp.cancel' },
      ];
    case 'giving':
      return [
        { type: 'xstate.done.actor.giveCode', output: { stepUpAt: 1 } },
        { type: 'xstate.error.actor.giveCode', error: wrongCode },
      ];
  }
}

const seen = (snapshot: StepUpSnapshot) => JSON.stringify({ value: snapshot.value, ...snapshot.context });
const traversal: TraversalOptions<StepUpSnapshot, StepUpEvent, undefined> = {
  events: eventsFor as (snapshot: StepUpSnapshot) => StepUpEvent[],
  serializeState: seen,
};

function startHarness() {
  const giveCode = controlledPromise<{ code: string }, unknown>();
  let cancelled = 0;
  const actor: Actor<typeof stepUpMachine> = createActor(
    stepUpMachine.provide({ actors: { giveCode: giveCode.logic }, actions: { cancelWaiting: () => void (cancelled += 1) } }),
  ).start();
  return { actor, giveCode, cancelled: () => cancelled };
}

describe('step-up machine: every reachable state and transition', () => {
  const { shortest, adjacency, paths } = transitionPaths<StepUpSnapshot>(stepUpMachine, traversal as never, seen);

  it('reaches every state, and a code of the wrong shape asks nothing', () => {
    expect(new Set(shortest.map((path) => selectStepUpState(path.state)))).toEqual(new Set(['idle', 'asking', 'giving']));
    const edges = Object.values(adjacency).reduce((sum, vertex) => sum + Object.keys(vertex.transitions).length, 0);
    expect(paths.length).toBe(edges);
  });

  for (const path of paths) {
    it(`${pathName(path)} ⇒ ${JSON.stringify(path.state.value)}`, async () => {
      const h = startHarness();
      try {
        for (const step of path.steps) {
          const before = { given: h.giveCode.calls.length, cancelled: h.cancelled() };
          const event = step.event as GraphEvent;
          if (event.type === 'xstate.init') continue;
          if (event.type.includes('.actor.giveCode')) await h.giveCode.answer(event);
          else h.actor.send(event as StepUpEvent);
          const snapshot = h.actor.getSnapshot();
          expect(seen(snapshot)).toBe(seen(step.state));
          const state = selectStepUpState(snapshot);
          // Only a code of the right shape goes to the server, once, trimmed; only cancel lets the waiting calls fail.
          expect(h.giveCode.calls.length - before.given).toBe(state === 'giving' && event.type === 'stepUp.submit' ? 1 : 0);
          if (state === 'giving') expect(h.giveCode.calls.at(-1)!.input).toEqual({ code: '123456' });
          expect(h.cancelled() - before.cancelled).toBe(event.type === 'stepUp.cancel' ? 1 : 0);
          // The dialog shows the latest policy's words.
          if (event.type === 'stepUp.needed') expect(selectStepUpReason(snapshot)).toBe((event as { message: string }).message);
          if (event.type === 'xstate.error.actor.giveCode') expect(selectStepUpError(snapshot)).toBe(wrongCode.message);
          if (state === 'idle') expect(selectStepUpReason(snapshot)).toBe('');
        }
      } finally {
        h.actor.stop();
      }
    });
  }
});
