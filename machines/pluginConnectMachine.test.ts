import { createActor, fromPromise, waitFor } from 'xstate';
import type { IssuedToken } from '../contract/plugin';
import type { PluginUser } from '../contract/pluginProtocol';
import { pluginConnectMachine, selectConnectFailure, selectConnectedUser, selectShownToken, type HandOverInput, type IssueInput } from './pluginConnectMachine';

const ISSUED = { token: 'sbp_secret', info: { id: 7, label: 'Chrome', hint: 'sbp_secret', createdAt: 1, expiresAt: 2, lastUsedAt: null } } satisfies IssuedToken;
const SELLER = { id: 2, name: 'seller' } satisfies PluginUser;
const failure = (message: string) => ({ type: 'Http', code: 400, message });

function start(outcomes: { issue: unknown[]; handOver?: unknown[] }) {
  const calls = { issue: [] as IssueInput[], handOver: [] as HandOverInput[] };
  const next = (list: unknown[] | undefined) => {
    const outcome = list?.shift();
    if (outcome && typeof outcome === 'object' && 'type' in outcome) throw outcome;
    return outcome;
  };
  const actor = createActor(
    pluginConnectMachine.provide({
      actors: {
        issueToken: fromPromise<IssuedToken, IssueInput>(async ({ input }) => (calls.issue.push(input), next(outcomes.issue) as IssuedToken)),
        handOver: fromPromise<PluginUser, HandOverInput>(async ({ input }) => (calls.handOver.push(input), next(outcomes.handOver) as PluginUser)),
      },
    }),
  ).start();
  return { actor, calls };
}

describe('connecting the plugin', () => {
  it('hands the issued token to an installed plugin and ends connected as its user, the token forgotten', async () => {
    const { actor, calls } = start({ issue: [ISSUED], handOver: [SELLER] });
    actor.send({ type: 'connect.start', label: ' ', pluginInstalled: true });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'connect.start', label: ' Chrome ', pluginInstalled: true });
    await waitFor(actor, (s) => s.value === 'connected');
    expect(selectConnectedUser(actor.getSnapshot())).toEqual(SELLER);
    expect(calls).toEqual({ issue: [{ label: 'Chrome' }], handOver: [{ token: 'sbp_secret' }] });
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('sbp_secret');
  });

  it('shows the token once when no plugin is installed, and forgets it on close', async () => {
    const { actor, calls } = start({ issue: [ISSUED] });
    actor.send({ type: 'connect.start', label: 'Edge', pluginInstalled: false });
    await waitFor(actor, (s) => s.value === 'showingToken');
    expect(selectShownToken(actor.getSnapshot())).toEqual({ token: 'sbp_secret', reason: null });
    expect(calls.handOver).toEqual([]);
    actor.send({ type: 'action.close' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('sbp_secret');
  });

  it('shows the token with the reason when the plugin does not take it', async () => {
    const { actor } = start({ issue: [ISSUED], handOver: [failure('no answer from the plugin')] });
    actor.send({ type: 'connect.start', label: 'Chrome', pluginInstalled: true });
    await waitFor(actor, (s) => s.value === 'showingToken');
    expect(selectShownToken(actor.getSnapshot())).toEqual({ token: 'sbp_secret', reason: 'no answer from the plugin' });
  });

  it('shows the server’s refusal and retries as asked', async () => {
    const { actor, calls } = start({ issue: [failure('最多可同时有10个插件令牌'), ISSUED], handOver: [SELLER] });
    actor.send({ type: 'connect.start', label: 'Chrome', pluginInstalled: true });
    await waitFor(actor, (s) => s.value === 'failed');
    expect(selectConnectFailure(actor.getSnapshot())).toBe('最多可同时有10个插件令牌');
    actor.send({ type: 'action.retry' });
    await waitFor(actor, (s) => s.value === 'connected');
    expect(calls.issue).toEqual([{ label: 'Chrome' }, { label: 'Chrome' }]);
  });
});
