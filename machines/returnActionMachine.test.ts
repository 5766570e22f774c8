import { createActor, fromPromise, waitFor } from 'xstate';
import type { ReturnDetail } from '../contract/returns';
import { returnActionMachine, selectReturnActionError, selectReturnActionResult, selectReturnActionState, type RunReturnActionInput } from './returnActionMachine';

const detail = { row: { id: '7:rfbs:1', status: 'Approved' } } as unknown as ReturnDetail;
const refused = { type: 'BadRequest', code: 400, message: '该退货申请当前状态不允许此操作，请刷新后重试' };

function start(answers: ('ok' | 'refuse')[]) {
  const calls: RunReturnActionInput[] = [];
  const actor = createActor(
    returnActionMachine.provide({
      actors: {
        runReturnAction: fromPromise<ReturnDetail, RunReturnActionInput>(async ({ input }) => {
          calls.push(input);
          if (answers.shift() === 'refuse') throw refused;
          return detail;
        }),
      },
    }),
  ).start();
  return { actor, calls };
}

const subject = { id: '7:rfbs:1', action: 'verify' as const, label: '同意退货' };

describe('return action machine', () => {
  it('confirms, runs once and shows the request as Ozon now has it', async () => {
    const { actor, calls } = start(['ok']);
    actor.send({ type: 'action.start', subject });
    expect(selectReturnActionState(actor.getSnapshot())).toBe('confirming');
    actor.send({ type: 'action.confirm', body: { id: subject.id, action: 'verify', returnMethod: 'Почта России' } });
    await waitFor(actor, (s) => s.matches('done'));
    expect(calls).toEqual([{ body: { id: subject.id, action: 'verify', returnMethod: 'Почта России' } }]);
    expect(selectReturnActionResult(actor.getSnapshot())).toBe(detail);
    actor.send({ type: 'action.close' });
    expect(actor.getSnapshot().context).toEqual({ subject: null, body: null, result: null, error: null });
  });

  it('shows the refusal and sends the same decision again on retry', async () => {
    const { actor, calls } = start(['refuse', 'ok']);
    actor.send({ type: 'action.start', subject });
    actor.send({ type: 'action.confirm', body: { id: subject.id, action: 'verify' } });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectReturnActionError(actor.getSnapshot())).toBe(refused.message);
    actor.send({ type: 'action.retry' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(calls[0]);
    expect(selectReturnActionError(actor.getSnapshot())).toBeNull();
  });

  it('sends nothing when cancelled, or when the confirmation is for another request or decision', () => {
    const { actor, calls } = start(['ok']);
    actor.send({ type: 'action.start', subject });
    actor.send({ type: 'action.confirm', body: { id: 'other', action: 'verify' } });
    actor.send({ type: 'action.confirm', body: { id: subject.id, action: 'receive' } });
    expect(selectReturnActionState(actor.getSnapshot())).toBe('confirming');
    actor.send({ type: 'action.cancel' });
    expect(selectReturnActionState(actor.getSnapshot())).toBe('idle');
    expect(calls).toEqual([]);
  });
});
