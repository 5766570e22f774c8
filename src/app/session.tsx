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
} from '@machines/sessionMachine';
import { askFirstAnswer } from '@/features/orders/firstAnswer';
import { appActorOptions } from './createAppActor';
import { toLang } from './i18n';
import { appRoutes, filterRoutes, loginHref } from './routes';
import { clearStoredSession, readStoredSession, writeAuto, writeStoredSession, writeToken } from './sessionPersistence';

const ORDER_PAGES = '/order-manager/';

/** Messages are shown for 5 s (spec §8, §9). */
export const MESSAGE_SECONDS = 5;

export const SessionContext = createActorContext(sessionMachine);

/** The session machine with the worker's calls and the browser's storage as its actors and actions. */
export function createSessionLogic(client: DataClient) {
  return sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(async () => {
        const stored = readStoredSession();
        if (stored) {
          await client.session.setCredentials({ token: stored.token, userId: stored.id });
          // An order page is on its way: the worker starts reading the order cache and answering the page's first
          // query now, while the session is checked and the shell renders. Shown only once the session holds.
          if (location.pathname.startsWith(ORDER_PAGES)) askFirstAnswer(client, stored.id, location.pathname);
        }
        return stored;
      }),
      login: fromPromise(({ input }) => client.session.login(input)),
      loadInfo: fromPromise<UserInfo | null>(() => client.session.getInfo()),
      generateRoutes: fromPromise(async ({ input }) => filterRoutes(appRoutes, input.roles, input.rolePermissions)),
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
      clearPersistedSession: () => clearStoredSession(),
    },
  });
}

export function SessionProvider({ client, children }: { client: DataClient; children: ReactNode }) {
  return (
    <SessionContext.Provider logic={createSessionLogicOnce(client)} options={appActorOptions()}>
      <SessionBridge client={client} />
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
function SessionBridge({ client }: { client: DataClient }) {
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
  useEffect(() => {
    const checkNow = () => {
      if (document.visibilityState === 'visible') actor.send({ type: 'session.checkNow' });
    };
    window.addEventListener('focus', checkNow);
    document.addEventListener('visibilitychange', checkNow);
    return () => {
      window.removeEventListener('focus', checkNow);
      document.removeEventListener('visibilitychange', checkNow);
    };
  }, [actor]);

  return null;
}
