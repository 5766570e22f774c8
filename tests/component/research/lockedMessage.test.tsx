import { screen } from '@testing-library/react';
import { fromPromise } from 'xstate';
import type { UserInfo } from '@contract/session';
import type { StoredSession } from '@machines/sessionMachine';
import type { DataClient } from '@workers/client';
import { createEventBus } from '@workers/events';
import { HttpClient } from '@workers/http/client';
import { createResearchApi } from '@workers/research';
import { createFakeServer, fail, type Handler } from '@workers/testing/fakeServer';
import { SessionBridge } from '@/app/session';
import { KeywordPage } from '@/features/research/KeywordPage';
import { renderWithApp } from '../renderApp';
import { userInfoOf } from '../../support/userInfo';

const REFUSED = '权限已过期或无权限操作，请联系管理员';

/**
 * The keyword page over the worker's real research calls and HTTP client (a fake server answering them), with the
 * app's bridge that turns the client's messages into the message bar: what a user sees when a call fails.
 */
function openKeywordPage(keywords: Handler) {
  const server = createFakeServer({ '/getQueryResult': keywords, '/search/ownQueries': () => fail(401, REFUSED) });
  const events = createEventBus();
  const messages: string[] = [];
  events.on('http.message', ({ text }) => void messages.push(text));
  const http = new HttpClient({ events, fetch: server.fetch });
  const client = {
    session: { setLanguage: async () => undefined },
    pollers: {},
    subscribe: events.subscribe,
    research: createResearchApi(http, events),
  } as unknown as DataClient;
  const base = userInfoOf(9, 'search');
  const info: UserInfo = { ...base, roles: ['search', 'keyword'], user: { ...base.user, name: 'analyst', searchWordValidTime: null } };
  const stored: StoredSession = { token: 'tok', id: 9, name: 'analyst', right: '0', validTime: null, isAp: false, relative_id: null, auto: '', info };
  renderWithApp(
    <>
      <SessionBridge client={client} />
      <KeywordPage />
    </>,
    { client, actors: { restoreSession: fromPromise<StoredSession | null>(async () => stored), loadInfo: fromPromise<UserInfo | null>(async () => info) } },
  );
  return { server, messages };
}

describe('a research call refused for a lapsed paid period', () => {
  it('shows the locked state alone, with no error message above it', async () => {
    const { server, messages } = openKeywordPage(() => fail(401, REFUSED));
    const locked = await screen.findByTestId('research-locked');
    expect(locked).toHaveTextContent('市场调研已锁定');
    expect(server.to('/getQueryResult')).toHaveLength(1);
    // The client announces a failure before the call's promise rejects, so by the time the page is locked any
    // message for it has been sent.
    expect(messages).toEqual([]);
    expect(screen.queryByText(REFUSED)).toBeNull();
  });

  it('still shows the message bar for any other failure of the same call', async () => {
    const { messages } = openKeywordPage(() => fail(400, '参数错误'));
    expect(await screen.findByText('参数错误', { selector: '.ant-message *' })).toBeInTheDocument();
    expect(messages).toEqual(['参数错误']);
    expect(screen.queryByTestId('research-locked')).toBeNull();
  });
});
