import { createActor, type Actor } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import type { ForgotResetBody, ForgotSendBody, ForgotSent } from '../contract/passwordReset';
import { controlledPromise, pathName, transitionPaths } from '../tests/support/transitionPaths';
import { passwordResetMachine, selectResetError, selectResetSent, selectResetState, type PasswordResetEvent, type PasswordResetSnapshot } from './passwordResetMachine';

const send: ForgotSendBody = { username: ' seller ', channel: 'email', code: 'T3ST', uuid: 'u-1' };
const sent: ForgotSent = { channel: 'email', sentTo: 's***r@example.cn', ttl: 600, resendAfter: 60 };
const noContact = { type: 'BadRequest', code: 400, message: '没有该账号，或该账号未绑定邮箱' };
const wrongCode = { type: 'BadRequest', code: 400, message: '验证码错误' };

// The graph: the page's events (send with and without a captcha answer, a code of six digits or not, back, restart)
// and both answers of the server to each call.
type GraphEvent = PasswordResetEvent | { type: string; output?: unknown; error?: unknown };

function eventsFor(snapshot: PasswordResetSnapshot): GraphEvent[] {
  switch (selectResetState(snapshot)) {
    case 'asking':
      return [
        { type: 'reset.send', body: send },
        { type: 'reset.send', body: { ...send, code: ' ' } },
      ];
    case 'sending':
      return [
        { type: 'xstate.done.actor.sendCode', output: sent },
        { type: 'xstate.error.actor.sendCode', error: noContact },
      ];
    case 'entering':
      return [
        { type: 'reset.submit', code: '123456', password: 'Harbour-Lamp-2026x' },
        { type: 'reset.submit', code: '12345', password: 'Harbour-Lamp-2026x' },
        { type: 'reset.back' },
      ];
    case 'resetting':
      return [
        { type: 'xstate.done.actor.resetPassword', output: null },
        { type: 'xstate.error.actor.resetPassword', error: wrongCode },
      ];
    case 'done':
      return [{ type: 'reset.restart' }];
  }
}

const seen = (snapshot: PasswordResetSnapshot) => JSON.stringify({ value: snapshot.value, ...snapshot.context });
const traversal: TraversalOptions<PasswordResetSnapshot, PasswordResetEvent, undefined> = {
  events: eventsFor as (snapshot: PasswordResetSnapshot) => PasswordResetEvent[],
  serializeState: seen,
};

function startHarness() {
  const sendCode = controlledPromise<ForgotSendBody, ForgotSent>();
  const resetPassword = controlledPromise<ForgotResetBody, null>();
  const actor: Actor<typeof passwordResetMachine> = createActor(passwordResetMachine.provide({ actors: { sendCode: sendCode.logic, resetPassword: resetPassword.logic } })).start();
  return { actor, sendCode, resetPassword };
}

describe('password reset machine: every reachable state and transition', () => {
  const { shortest, adjacency, paths } = transitionPaths<PasswordResetSnapshot>(passwordResetMachine, traversal as never, seen);

  it('reaches every state, and an incomplete form or a short code asks nothing', () => {
    expect(new Set(shortest.map((path) => selectResetState(path.state)))).toEqual(new Set(['asking', 'sending', 'entering', 'resetting', 'done']));
    const edges = Object.values(adjacency).reduce((sum, vertex) => sum + Object.keys(vertex.transitions).length, 0);
    expect(paths.length).toBe(edges);
  });

  for (const path of paths) {
    it(`${pathName(path)} ⇒ ${JSON.stringify(path.state.value)}`, async () => {
      const h = startHarness();
      try {
        for (const step of path.steps) {
          const before = { send: h.sendCode.calls.length, reset: h.resetPassword.calls.length };
          const event = step.event as GraphEvent;
          if (event.type === 'xstate.init') continue;
          if (event.type.includes('.actor.sendCode')) await h.sendCode.answer(event);
          else if (event.type.includes('.actor.resetPassword')) await h.resetPassword.answer(event);
          else h.actor.send(event as PasswordResetEvent);
          const snapshot = h.actor.getSnapshot();
          expect(seen(snapshot)).toBe(seen(step.state));
          const state = selectResetState(snapshot);
          // Only entering a call's state asks the server, once, with what the page gave.
          expect(h.sendCode.calls.length - before.send).toBe(state === 'sending' && event.type === 'reset.send' ? 1 : 0);
          expect(h.resetPassword.calls.length - before.reset).toBe(state === 'resetting' && event.type === 'reset.submit' ? 1 : 0);
          if (state === 'sending') expect(h.sendCode.calls.at(-1)!.input).toEqual({ ...send, username: 'seller' });
          if (state === 'resetting') expect(h.resetPassword.calls.at(-1)!.input).toEqual({ username: 'seller', code: '123456', password: 'Harbour-Lamp-2026x' });
          if (state === 'entering') expect(selectResetSent(snapshot)).toEqual(sent);
          if (state === 'asking' && event.type === 'xstate.error.actor.sendCode') expect(selectResetError(snapshot)).toBe(noContact.message);
          if (state === 'entering' && event.type === 'xstate.error.actor.resetPassword') expect(selectResetError(snapshot)).toBe(wrongCode.message);
        }
      } finally {
        h.actor.stop();
      }
    });
  }
});
