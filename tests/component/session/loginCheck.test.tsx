import { act, render, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { DataClient } from '@workers/client';
import { createI18n } from '@/app/i18n';
import { SessionProvider } from '@/app/session';
import { clearStoredSession, writeStoredSession } from '@/app/sessionPersistence';
import { userInfoOf } from '../../support/userInfo';

const stored = { token: 'tok', id: 7, name: 'seller', right: '0', validTime: null, isAp: false, relative_id: null, auto: '' };

/** A logged-in worker client that counts the login checks the page asks for at once. */
function countingClient() {
  const checks: string[] = [];
  const client = {
    session: {
      setCredentials: async () => undefined,
      getInfo: async () => userInfoOf(7, 'seller'),
      setLanguage: async () => undefined,
    },
    pollers: {
      startLoginCheck: async () => undefined,
      stop: async () => undefined,
      runNow: async (name: string) => void checks.push(name),
    },
    subscribe: async () => () => undefined,
  };
  return { checks, client: client as unknown as DataClient };
}

afterEach(() => clearStoredSession());

describe('checking the login when the user comes back to the page', () => {
  it('checks at once on focus and when the page turns visible, but not while the page is being left', async () => {
    writeStoredSession(stored);
    const { checks, client } = countingClient();
    const location = memoryLocation({ path: '/index' });
    render(
      <I18nextProvider i18n={createI18n('zh')}>
        <AntApp>
          <Router hook={location.hook}>
            <SessionProvider client={client}>
              <span>page</span>
            </SessionProvider>
          </Router>
        </AntApp>
      </I18nextProvider>,
    );
    // The login check's poller runs once the session is restored: from then on a focus asks for a check at once.
    await waitFor(() => {
      act(() => void window.dispatchEvent(new Event('focus')));
      expect(checks.length).toBeGreaterThan(0);
    });
    const before = checks.length;
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(checks).toHaveLength(before + 1);

    // A reload or a link away: pagehide first, then visibilitychange while the document still reads as visible.
    act(() => void window.dispatchEvent(new Event('pagehide')));
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    act(() => void window.dispatchEvent(new Event('focus')));
    expect(checks).toHaveLength(before + 1);

    // Back from the back/forward cache, the same page checks again.
    act(() => void window.dispatchEvent(new Event('pageshow')));
    act(() => void window.dispatchEvent(new Event('focus')));
    expect(checks).toHaveLength(before + 2);
    expect(new Set(checks)).toEqual(new Set(['loginCheck']));
  });
});
