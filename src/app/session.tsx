import { createActorContext } from '@xstate/react';
import { App as AntApp } from 'antd';
import { proxy } from 'comlink';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from 'wouter/use-browser-location';
import { fromCallback, fromPromise } from 'xstate';
import { message as catalogue } from '@contract/errors';
import type { UserInfo } from '@contract/session';
import type { Unsubscribe } from '@workers/api';
import type { DataClient } from '@workers/client';
import {
  sessionMachine,
  type LoginCheckPollerEvent,
  type LoginCheckPollerInput,
  type SessionMessage,
  type StoredSession,
} from '@machines/sessionMachine';
import { askFirstAnswer } from '@/features/orders/firstAnswer';
import { appActorOptions } from './createAppActor';
import { StepUpDialog } from './StepUpDialog';
import { toLang } from './i18n';
import { appRoutes, filterRoutes, loginHref } from './routes';
import { clearStoredSession, readStoredSession, writeAuto, writeStoredInfo, writeStoredSession, writeToken } from './sessionPersistence';

const ORDER_PAGES = '/order-manager/';

/** Messages are shown for 5 s (spec §8, §9). */
export const MESSAGE_SECONDS = 5;

export const SessionContext = createActorContext(sessionMachine);

/**
 * The stored session handed to the worker, its user's info asked for, and on an order page that page's first answer
 * asked for (the worker starts reading the order cache and answering the page's first query while the session is
 * checked and the shell renders; the rows show only once the session holds).
 */
function restoreStored(client: DataClient): Promise<StoredSession | null> {
  const stored = readStoredSession();
  if (!stored) return Promise.resolve(null);
  // Posted in this order: the worker has the credentials before it opens the cache (whose sync calls the server)
  // and asks for the info. The info's request leaves before the worker reads the cache: its answer is in when the
  // first rows are, instead of after them.
  const handed = client.session.setCredentials({ token: stored.token, userId: stored.id });
  if (location.pathname.startsWith(ORDER_PAGES)) askFirstAnswer(client, stored.id, location.pathname);
  const info = client.session.getInfo();
  info.catch(() => undefined);
  pendingInfo = { client, info };
  // Kept info lets the app show without waiting for the worker to have started (the machine's later calls reach it
  // after the credentials all the same: its messages are handled in order).
  if (stored.info) {
    handed.catch(() => undefined);
    return Promise.resolve(stored);
  }
  return handed.then(() => stored);
}

let early: { client: DataClient; stored: Promise<StoredSession | null> } | null = null;
/** The info asked for with a restored session: the machine's next `loadInfo` takes it. */
let pendingInfo: { client: DataClient; info: Promise<UserInfo> } | null = null;

/**
 * Called by main.tsx before the first render: the worker gets its first messages as soon as it runs rather than
 * once the app has rendered its providers and started the session machine (a reload of the order list asked for
 * its first rows about 100 ms after the worker was ready). The machine's `restoreSession` takes this answer.
 */
export function restoreSessionEarly(client: DataClient): void {
  early = { client, stored: restoreStored(client) };
}

/** The session machine with the worker's calls and the browser's storage as its actors and actions. */
export function createSessionLogic(client: DataClient) {
  return sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(() => {
        const started = early?.client === client ? early.stored : null;
        early = null;
        return started ?? restoreStored(client);
      }),
      login: fromPromise(({ input }) => client.session.login(input)),
      verifyCode: fromPromise(({ input }) => client.session.loginOtp(input)),
      startEnrolment: fromPromise(({ input }) => client.session.loginEnrol(input.ticket)),
      confirmEnrolment: fromPromise(({ input }) => client.session.loginEnrolConfirm(input)),
      changePassword: fromPromise(({ input }) => client.session.changePsw(input)),
      loadInfo: fromPromise<UserInfo | null>(() => {
        const asked = pendingInfo?.client === client ? pendingInfo.info : null;
        pendingInfo = null;
        return asked ?? client.session.getInfo();
      }),
      generateRoutes: fromPromise(async ({ input }) => filterRoutes(appRoutes, input.roles, input.rolePermissions, input.permissions)),
      logout: fromPromise(() => client.session.logout()),
      loginCheckPoller: fromCallback<LoginCheckPollerEvent, LoginCheckPollerInput>(({ input, sendBack, receive }) => {
        let stopped = false;
        let unsubscribe: Unsubscribe | null = null;
        void client
          .subscribe(
            'session.loginChecked',
            proxy(({ valid }) => sendBack({ type: 'session.loginChecked', valid })),
          )
          .then((off) => {
            if (stopped) void off();
            else unsubscribe = off;
          });
        void client.pollers.startLoginCheck(input);
        receive(() => void client.pollers.runNow('loginCheck'));
        return () => {
          stopped = true;
          void unsubscribe?.();
          void client.pollers.stop('loginCheck');
        };
      }),
    },
    actions: {
      persistSession: (_, session) => writeStoredSession(session),
      persistToken: (_, token) => writeToken(token),
      persistAuto: (_, auto) => writeAuto(auto),
      persistInfo: ({ context }, info) => writeStoredInfo(context.user.id, info),
      clearPersistedSession: () => clearStoredSession(),
    },
  });
}

export function SessionProvider({ client, children }: { client: DataClient; children: ReactNode }) {
  return (
    <SessionContext.Provider logic={createSessionLogicOnce(client)} options={appActorOptions()}>
      <SessionBridge client={client} />
      <StepUpDialog client={client} />
      {children}
    </SessionContext.Provider>
  );
}

const logicByClient = new WeakMap<DataClient, ReturnType<typeof createSessionLogic>>();
function createSessionLogicOnce(client: DataClient) {
  let logic = logicByClient.get(client);
  if (!logic) {
    logic = createSessionLogic(client);
    logicByClient.set(client, logic);
  }
  return logic;
}

export function sessionMessageText(message: SessionMessage, language: string): string {
  return 'key' in message ? catalogue(message.key, toLang(language)) : message.text;
}

function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * The one place where the worker's events reach the app: session events go to the session actor, 'http.message'
 * to the message bar; the machine's own announcements become messages and navigations.
 */
export function SessionBridge({ client }: { client: DataClient }) {
  const actor = SessionContext.useActorRef();
  const { message } = AntApp.useApp();
  const { i18n } = useTranslation();

  useEffect(() => {
    const subscriptions = [
      client.subscribe('session.refreshing', proxy(() => actor.send({ type: 'session.refreshing' }))),
      client.subscribe('session.tokenRefreshed', proxy(({ token }) => actor.send({ type: 'session.tokenRefreshed', token }))),
      client.subscribe('session.expired', proxy(({ message: text }) => actor.send({ type: 'session.expired', message: text }))),
      client.subscribe(
        'http.message',
        proxy(({ text, kind }) => void (kind === 'warning' ? message.warning(text, MESSAGE_SECONDS) : message.error(text, MESSAGE_SECONDS))),
      ),
    ];
    return () => {
      for (const subscription of subscriptions) void subscription.then((off) => off());
    };
  }, [actor, client, message]);

  useEffect(() => {
    const offs = [
      actor.on('session.message', ({ message: text }) => void message.error(sessionMessageText(text, i18n.language), MESSAGE_SECONDS)),
      actor.on('session.loggedIn', ({ redirect }) => {
        if (redirect !== null) navigate(redirect, { replace: true });
      }),
      actor.on('session.loggedOut', ({ reason }) => {
        navigate(reason === 'forced' ? loginHref(currentPath()) : '/login', { replace: true });
      }),
    ];
    return () => {
      for (const off of offs) off.unsubscribe();
    };
  }, [actor, message, i18n]);

  useEffect(() => {
    void client.session.setLanguage(toLang(i18n.language));
  }, [client, i18n.language]);

  // A password changed elsewhere should end this page as soon as the user looks at it again, not up to 75 s later.
  // Not while the page is being left: a reload's visibilitychange can still read 'visible', and the check (a
  // transition, a message to the worker that starts a call) ran inside the browser's unload task, the next page's
  // first main-thread task (18 ms of a 45-60 ms one on a warm reload of the order list).
  useEffect(() => {
    let leaving = false;
    const checkNow = () => {
      if (!leaving && document.visibilityState === 'visible') actor.send({ type: 'session.checkNow' });
    };
    const left = () => {
      leaving = true;
    };
    // Back from the back/forward cache: the same page again.
    const back = () => {
      leaving = false;
    };
    window.addEventListener('focus', checkNow);
    document.addEventListener('visibilitychange', checkNow);
    window.addEventListener('pagehide', left);
    window.addEventListener('pageshow', back);
    return () => {
      window.removeEventListener('focus', checkNow);
      document.removeEventListener('visibilitychange', checkNow);
      window.removeEventListener('pagehide', left);
      window.removeEventListener('pageshow', back);
    };
  }, [actor]);

  return null;
}
