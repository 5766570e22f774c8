import { createActor, type Actor } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import type { ReturnDetail, RfbsActionBody } from '../contract/returns';
import { controlledPromise, pathName, transitionPaths } from '../tests/support/transitionPaths';
import {
  returnActionMachine,
  selectReturnActionError,
  selectReturnActionResult,
  selectReturnActionState,
  selectReturnActionSubject,
  type ReturnActionEvent,
  type ReturnActionSnapshot,
  type RunReturnActionInput,
} from './returnActionMachine';

const verify = { id: '7:rfbs:1', action: 'verify' as const, label: '同意退货' };
const receive = { id: '7:rfbs:2', action: 'receive' as const, label: '确认收到退货' };
const detail = { row: { id: '7:rfbs:1', status: 'Approved' } } as unknown as ReturnDetail;
/** A confirmation's body: the two decisions the walk takes need nothing but the request. */
const body = (id: string, action: 'verify' | 'receive'): RfbsActionBody => (action === 'verify' ? { id, action } : { id, action });
const refused = { type: 'BadRequest', code: 400, message: '该退货申请当前状态不允许此操作，请刷新后重试' };

// ---------------------------------------------------------------------------------------------------------------
// The graph: the real machine walked with the dialog's events (start a decision, confirm it, confirm with another
// request's or decision's body, cancel, retry, close, start the next decision) and both answers of Ozon (the request
// as it now is, or a refusal).

type GraphEvent = ReturnActionEvent | { type: string; output?: unknown; error?: unknown };

function eventsFor(snapshot: ReturnActionSnapshot): GraphEvent[] {
  const subject = snapshot.context.subject as typeof verify | typeof receive | null;
  switch (selectReturnActionState(snapshot)) {
    case 'idle':
      return [{ type: 'action.start', subject: verify }];
    case 'confirming':
      return [
        { type: 'action.confirm', body: body(subject!.id, subject!.action) },
        { type: 'action.confirm', body: body('another', subject!.action) },
        { type: 'action.confirm', body: body(subject!.id, subject!.action === 'verify' ? 'receive' : 'verify') },
        { type: 'action.cancel' },
      ];
    case 'running':
      return [
        { type: 'xstate.done.actor.runReturnAction', output: detail },
        { type: 'xstate.error.actor.runReturnAction', error: refused },
      ];
    case 'done':
      return [{ type: 'action.close' }, { type: 'action.start', subject: receive }];
    case 'failed':
      return [{ type: 'action.retry' }, { type: 'action.close' }, { type: 'action.cancel' }];
  }
}

const seen = (snapshot: ReturnActionSnapshot) => JSON.stringify({ value: snapshot.value, ...snapshot.context, result: snapshot.context.result !== null });

const traversal: TraversalOptions<ReturnActionSnapshot, ReturnActionEvent, undefined> = {
  events: eventsFor as (snapshot: ReturnActionSnapshot) => ReturnActionEvent[],
  serializeState: seen,
};

// ---------------------------------------------------------------------------------------------------------------

function startHarness() {
  const ozon = controlledPromise<RunReturnActionInput, ReturnDetail>();
  const actor: Actor<typeof returnActionMachine> = createActor(returnActionMachine.provide({ actors: { runReturnAction: ozon.logic } })).start();
  return { actor, calls: ozon.calls, answer: ozon.answer };
}

let h: ReturnType<typeof startHarness>;

/** A step: Ozon's answer settles the latest call; the dialog's event goes to the actor as it is. */
const exec = async (event: GraphEvent) => {
  if (event.type === 'xstate.init') return;
  if (event.type.startsWith('xstate.')) await h.answer(event);
  else h.actor.send(event as ReturnActionEvent);
};

/** What the dialog shows in each state of the live actor. */
const stateChecks: Record<string, (snapshot: ReturnActionSnapshot) => void> = {
  running: (snapshot) => {
    // Ozon is asked exactly the confirmed decision for the request the dialog is about, once per confirm or retry.
    const subject = selectReturnActionSubject(snapshot)!;
    expect(h.calls.at(-1)!.input.body).toMatchObject({ id: subject.id, action: subject.action });
    expect(selectReturnActionError(snapshot)).toBeNull();
  },
  done: (snapshot) => expect(selectReturnActionResult(snapshot)).toBe(detail),
  failed: (snapshot) => expect(selectReturnActionError(snapshot)).toBe(refused.message),
  idle: (snapshot) => expect(snapshot.context).toEqual({ subject: null, body: null, result: null, error: null }),
  confirming: (snapshot) => expect(snapshot.context.body).toBeNull(),
};

describe('return action machine: every reachable state and transition', () => {
  const { shortest, adjacency, paths } = transitionPaths<ReturnActionSnapshot>(returnActionMachine, traversal as never, seen);

  it('reaches every state, and a confirmation for another request or decision changes nothing', () => {
    expect(new Set(shortest.map((path) => selectReturnActionState(path.state)))).toEqual(new Set(['idle', 'confirming', 'running', 'done', 'failed']));
    const edges = Object.values(adjacency).reduce((sum, vertex) => sum + Object.keys(vertex.transitions).length, 0);
    expect(paths.length).toBe(edges);
    const mismatched = paths.filter((path) => {
      const last = path.steps.at(-1)!.event as GraphEvent;
      return last.type === 'action.confirm' && 'body' in last && path.steps.at(-2)!.state.context.subject?.id !== last.body.id;
    });
    expect(mismatched.length).toBeGreaterThan(0);
    for (const path of mismatched) expect(selectReturnActionState(path.state)).toBe('confirming');
  });

  for (const path of paths) {
    it(`${pathName(path)} ⇒ ${JSON.stringify(path.state.value)}`, async () => {
      h = startHarness();
      try {
        for (const step of path.steps) {
          const calls = h.calls.length;
          await exec(step.event);
          const snapshot = h.actor.getSnapshot();
          expect(seen(snapshot)).toBe(seen(step.state));
          const state = selectReturnActionState(snapshot);
          stateChecks[state]?.(snapshot);
          // Only entering `running` asks Ozon.
          expect(h.calls.length - calls).toBe(state === 'running' && step.event.type.startsWith('action.') ? 1 : 0);
        }
      } finally {
        h.actor.stop();
      }
    });
  }
});
