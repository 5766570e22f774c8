import { createActor, waitFor } from 'xstate';
import type { UserInfo } from '@contract/session';
import type { DataClient } from '@workers/client';
import { createSessionLogic, restoreSessionEarly } from '@/app/session';
import { clearStoredSession, readStoredSession, STORAGE_KEYS, writeStoredInfo, writeStoredSession } from '@/app/sessionPersistence';
import { peekFirstAnswer, takenFirstAnswer } from '@/features/orders/firstAnswer';
import { initialOrderQuery } from '@/features/orders/query';
import { userInfoOf } from '../../support/userInfo';

const info: UserInfo = userInfoOf(7, 'seller');

/** A worker client that records the calls the session makes, in order; getInfo answers `answer` (info by default). */
function recordingClient(answer: () => Promise<UserInfo> = async () => info) {
  const calls: string[] = [];
  const client = {
    session: {
      setCredentials: async (credentials: { userId: number }) => void calls.push(`setCredentials ${credentials.userId}`),
      getInfo: () => (calls.push('getInfo'), answer()),
      logout: async () => void calls.push('logout'),
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

  it('a reload with the info the last load kept shows the app before getInfo answers, then keeps the new answer', async () => {
    writeStoredSession(stored);
    writeStoredInfo(7, info);
    let answer!: (value: UserInfo) => void;
    const { calls, client } = recordingClient(() => new Promise((resolve) => (answer = resolve)));
    restoreSessionEarly(client);
    const actor = createActor(createSessionLogic(client)).start();
    await waitFor(actor, (snapshot) => snapshot.matches({ loggedIn: 'verifying' }));
    expect(actor.getSnapshot().context.user.roles).toEqual(['seller']);
    expect(calls).toEqual(['setCredentials 7', 'getInfo']);

    answer({ ...info, roles: ['seller', 'follow'], rolePermissions: ['seller', 'follow'] });
    await waitFor(actor, (snapshot) => snapshot.matches({ loggedIn: 'idle' }));
    expect(actor.getSnapshot().context.user.roles).toEqual(['seller', 'follow']);
    expect(readStoredSession()?.info?.roles).toEqual(['seller', 'follow']);
    actor.stop();
  });

  it('kept info of another user, or that does not read as user info, is not used: the app waits for getInfo', async () => {
    writeStoredSession(stored);
    writeStoredInfo(8, userInfoOf(8, 'admin'));
    expect(readStoredSession()?.info).toBeNull();
    localStorage.setItem(STORAGE_KEYS.info, '{"id":7,"info":{"roles":"admin"}}');
    expect(readStoredSession()?.info).toBeNull();
    localStorage.setItem(STORAGE_KEYS.info, '{not json');
    expect(readStoredSession()?.info).toBeNull();

    let answer!: (value: UserInfo) => void;
    const { client } = recordingClient(() => new Promise((resolve) => (answer = resolve)));
    const actor = createActor(createSessionLogic(client)).start();
    await waitFor(actor, (snapshot) => snapshot.matches('loadingInfo'));
    answer(info);
    await waitFor(actor, (snapshot) => snapshot.matches('loggedIn'));
    actor.stop();
  });

  it('a new login and a logout drop the kept info', () => {
    writeStoredSession(stored);
    writeStoredInfo(7, info);
    expect(readStoredSession()?.info).toEqual(info);
    writeStoredSession({ ...stored, token: 'tok-2' });
    expect(readStoredSession()?.info).toBeNull();
    writeStoredInfo(7, info);
    clearStoredSession();
    expect(localStorage.getItem(STORAGE_KEYS.info)).toBeNull();
  });

  it('the order page\'s first answer stays for a render React throws away, and goes once the page is mounted', () => {
    writeStoredSession(stored);
    window.history.replaceState(null, '', '/order-manager/order-list');
    const { client } = recordingClient();
    restoreSessionEarly(client);
    const query = initialOrderQuery('orders');
    const read = peekFirstAnswer(7, 'orderList', query);
    expect(read).not.toBeNull();
    // The render after an interrupted one reads it again.
    expect(peekFirstAnswer(7, 'orderList', query)).toBe(read);
    // Another user, or another list, never gets it.
    expect(peekFirstAnswer(8, 'orderList', query)).toBeNull();
    expect(peekFirstAnswer(7, 'recordList', query)).toBeNull();
    takenFirstAnswer(read!);
    expect(peekFirstAnswer(7, 'orderList', query)).toBeNull();
  });
});
