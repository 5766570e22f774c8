import { screen, waitFor } from '@testing-library/react';
import { fromPromise } from 'xstate';
import type { UserInfo } from '@contract/session';
import type { StoredSession } from '@machines/sessionMachine';
import type { DataClient } from '@workers/client';
import { GuardTab } from '@/features/promotions/GuardTab';
import { SessionContext } from '@/app/session';
import { fakeDataClient, renderWithApp } from '../renderApp';
import { userInfoOf } from '../../support/userInfo';

/** The tab once the session holds the member's grants, as the app's pages mount only after the session's info. */
function AfterInfo() {
  const permissions = SessionContext.useSelector((snapshot) => snapshot.context.user.permissions);
  return permissions ? <GuardTab /> : null;
}

/** The price guard tab for a signed-in person with `permissions` (null: an owner); answers which calls it made. */
function renderGuard(permissions: string[] | null) {
  const info: UserInfo = { ...userInfoOf(7, 'follow'), permissions };
  const stored: StoredSession = { token: 'tok', id: 7, name: 'seller', right: '0', validTime: null, isAp: permissions !== null, relative_id: null, auto: '', info };
  const calls: string[] = [];
  const answer = <T,>(name: string, value: T) => async () => {
    calls.push(name);
    return value;
  };
  const client = {
    ...fakeDataClient(),
    promotions: {
      guards: answer('guards', { guards: [] }),
      guardLog: answer('guardLog', { list: [], total: 0 }),
      costs: answer('costs', { list: [{ offerId: 'OF-1', cost: 12.5, updatedAt: Date.parse('2026-12-01T10:00:00Z') }], total: 1 }),
    },
  } as unknown as DataClient;
  renderWithApp(permissions ? <AfterInfo /> : <GuardTab />, {
    client,
    actors: { restoreSession: fromPromise<StoredSession | null>(async () => stored), loadInfo: fromPromise<UserInfo | null>(async () => info) },
  });
  return { calls };
}

describe("the price guard's cost prices", () => {
  it('are neither shown nor asked for when the role sees promotions but does not change prices', async () => {
    const { calls } = renderGuard(['actions:view']);
    await waitFor(() => expect(calls).toContain('guardLog'), { timeout: 10_000 });
    expect(screen.queryByText('成本价')).toBeNull();
    expect(calls).not.toContain('costs');
  });

  it('are shown to a role that changes prices', async () => {
    const { calls } = renderGuard(['actions:view', 'actions:price']);
    expect(await screen.findByText('成本价', {}, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(calls).toContain('costs'));
  });
});
