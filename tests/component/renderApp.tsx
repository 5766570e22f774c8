import { NO_POLICY } from '@contract/passwordPolicy';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromCallback, fromPromise } from 'xstate';
import type { DataClient } from '@workers/client';
import type { UserInfo } from '@contract/session';
import {
  sessionMachine,
  type GenerateRoutesInput,
  type RouteNode,
  type SessionEvent,
  type StoredSession,
} from '@machines/sessionMachine';
import { DataClientProvider } from '@/app/dataClient';
import { createI18n } from '@/app/i18n';
import { SessionContext } from '@/app/session';

const captcha = { uuid: 'uuid-1', img: 'data:image/svg+xml;base64,PHN2Zy8+' };

/** A data client whose calls answer like a quiet server; tests override what they look at. */
export function fakeDataClient(overrides: Partial<DataClient['session']> = {}): DataClient {
  const session = {
    captchaImage: async () => captcha,
    ...overrides,
  } as DataClient['session'];
  // The change-password page asks for the user's password rules: none beyond the app's floor unless a test says so.
  const signin = { ownPasswordRules: async () => ({ rules: NO_POLICY, subject: { username: 'seller', email: null, phone: null } }), contact: async () => ({ email: '', phone: '' }) };
  return { session, signin, pollers: {}, subscribe: async () => () => undefined } as unknown as DataClient;
}

type SessionActors = Parameters<typeof sessionMachine.provide>[0]['actors'] & {};

/**
 * Renders a page with everything the app gives it: i18n (zh unless told), antd, a memory location, the data client
 * and a session actor that starts logged out (or as `actors` say) and records the events it receives.
 */
export function renderWithApp(
  ui: ReactNode,
  options: { path?: string; lang?: 'zh' | 'en'; client?: DataClient; actors?: Partial<SessionActors> } = {},
) {
  const sent: SessionEvent[] = [];
  const location = memoryLocation({ path: options.path ?? '/', record: true });
  const logic = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise<StoredSession | null>(async () => null),
      login: fromPromise(async ({ input }) => {
        sent.push({ type: 'session.login', username: input.username, password: input.password, code: input.code ?? '', uuid: input.uuid ?? '' });
        return new Promise<never>(() => {});
      }),
      loadInfo: fromPromise<UserInfo | null>(async () => null),
      generateRoutes: fromPromise<readonly RouteNode[], GenerateRoutesInput>(async () => []),
      logout: fromPromise<void>(async () => undefined),
      loginCheckPoller: fromCallback(() => () => {}),
      ...options.actors,
    },
  });
  const result = render(
    <I18nextProvider i18n={createI18n(options.lang ?? 'zh')}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <AntApp>
          <DataClientProvider client={options.client ?? fakeDataClient()}>
            <SessionContext.Provider logic={logic}>
              <Router hook={location.hook} searchHook={location.searchHook}>
                {ui}
              </Router>
            </SessionContext.Provider>
          </DataClientProvider>
        </AntApp>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return { ...result, sent, location };
}

/** Picks `option` in the antd select labelled `label`: opens it and clicks the option in the dropdown that opened. */
export async function pickOption(label: string, option: string): Promise<void> {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const open = await waitFor(() => {
    const dropdown = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')].at(-1);
    if (!dropdown) throw new Error('no open dropdown');
    return dropdown;
  });
  fireEvent.click(await within(open).findByTitle(option));
}
