import { createActor, waitFor } from 'xstate';
import type { UserInfo } from '@contract/session';
import type { DataClient } from '@workers/client';
import { createSessionLogic, restoreSessionEarly } from '@/app/session';
import { clearStoredSession, writeStoredSession } from '@/app/sessionPersistence';
import { userInfoOf } from '../../support/userInfo';

const info: UserInfo = userInfoOf(7, 'seller');

/** A worker client that records the calls the session makes, in order. */
function recordingClient() {
  const calls: string[] = [];
  const client = {
    session: {
      setCredentials: async (credentials: { userId: number }) => void calls.push(`setCredentials ${credentials.userId}`),
      getInfo: async () => (calls.push('getInfo'), info),
    },
    orders: {
      first: (userId: number, _query: unknown, view: string) => {
        calls.push(`orders.first ${userId} ${view}`);
        return new Promise(() => {});
      },
      open: (userId: number) => (calls.push(`orders.open ${userId}`), new Promise(() => {})),
    },
    pollers: { startLoginCheck: async () => undefined, stop: async () => undefined, runNow: async () => undefined },
    subscribe: async () => () => undefined,
  };
  return { calls, client: client as unknown as DataClient };
}

const stored = { token: 'tok', id: 7, name: 'seller', right: '0', validTime: null, isAp: false, relative_id: null, auto: '' };

afterEach(() => {
  clearStoredSession();
  window.history.replaceState(null, '', '/');
});

describe('restoring a stored session', () => {
  it('started before the first render: the worker gets the credentials, the order page\'s first answer and the info asked for at once, and the machine asks for nothing twice', async () => {
    writeStoredSession(stored);
    window.history.replaceState(null, '', '/order-manager/order-list');
    const { calls, client } = recordingClient();

    restoreSessionEarly(client);
    // Before any React render or machine: what a reload's worker finds waiting when it starts.
    expect(calls).toEqual(['setCredentials 7', 'orders.first 7 orderList', 'getInfo']);

    const actor = createActor(createSessionLogic(client)).start();
    await waitFor(actor, (snapshot) => snapshot.matches('loggedIn'));
    expect(actor.getSnapshot().context.user.roles).toEqual(['seller']);
    expect(calls).toEqual(['setCredentials 7', 'orders.first 7 orderList', 'getInfo']);
    actor.stop();
  });

  it('without the early start, the machine restores the session itself; with nothing stored it asks for nothing', async () => {
    writeStoredSession(stored);
    window.history.replaceState(null, '', '/store/list');
    const { calls, client } = recordingClient();
    const actor = createActor(createSessionLogic(client)).start();
    await waitFor(actor, (snapshot) => snapshot.matches('loggedIn'));
    expect(calls).toEqual(['setCredentials 7', 'getInfo']);
    actor.stop();

    clearStoredSession();
    const empty = recordingClient();
    restoreSessionEarly(empty.client);
    const loggedOut = createActor(createSessionLogic(empty.client)).start();
    await waitFor(loggedOut, (snapshot) => snapshot.matches('loggedOut'));
    expect(empty.calls).toEqual([]);
    loggedOut.stop();
  });
});
