import { screen, waitFor } from '@testing-library/react';
import { fromPromise } from 'xstate';
import type { UserInfo } from '@contract/session';
import type { StoredSession } from '@machines/sessionMachine';
import type { ApiFailure } from '@workers/api';
import type { DataClient } from '@workers/client';
import { KeywordPage } from '@/features/research/KeywordPage';
import { renderWithApp } from '../renderApp';
import { userInfoOf } from '../../support/userInfo';

const DAY = 86_400_000;
const refused: ApiFailure = { type: 'Unauthorized', code: 401, message: '权限已过期或无权限操作，请联系管理员', silent: false };

/** An analyst whose product-search period ended `ago` ms before now (null: never opened), on a server that refuses research. */
function openKeywordPage(lang: 'zh' | 'en', searchWordValidTime: number | null) {
  const base = userInfoOf(9, 'search');
  const info: UserInfo = {
    roles: ['search', 'keyword'],
    rolePermissions: ['common'],
    permissions: null,
    user: { ...base.user, name: 'analyst', searchWordValidTime, keyWordValidTime: Date.now() + 30 * DAY, rightInfo: { activeRoles: ['keyword'], expiredRoles: ['search'], isAdmin: false } },
  };
  const stored: StoredSession = { token: 'tok', id: 9, name: 'analyst', right: '0', validTime: null, isAp: false, relative_id: null, auto: '', info };
  const asked: string[] = [];
  const refuse = (name: string) => async () => {
    asked.push(name);
    throw refused;
  };
  const client = {
    session: {},
    pollers: {},
    subscribe: async () => () => undefined,
    research: { keywords: refuse('keywords'), keywordDetail: refuse('keywordDetail'), ownQueries: refuse('ownQueries'), cancelDetails: async () => undefined },
  } as unknown as DataClient;
  const view = renderWithApp(<KeywordPage />, {
    lang,
    client,
    actors: { restoreSession: fromPromise<StoredSession | null>(async () => stored), loadInfo: fromPromise<UserInfo | null>(async () => info) },
  });
  return { ...view, asked };
}

describe('a research page whose paid period has run out', () => {
  it('shows the locked state with the period that ended, not an error or an empty table (zh)', async () => {
    const ended = Date.parse('2025-06-09T15:59:59Z');
    const { asked } = openKeywordPage('zh', ended);
    const locked = await screen.findByTestId('research-locked');
    expect(asked).toContain('keywords');
    expect(locked).toHaveTextContent('市场调研已锁定');
    await waitFor(() => expect(locked).toHaveTextContent('「选品搜索」有效期已于 2025-06-09 到期，请联系管理员续期后继续使用。'));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('权限已过期或无权限操作，请联系管理员')).toBeNull();
  });

  it('names no date when the period ran out after sign-in (the session still holds a later one)', async () => {
    openKeywordPage('zh', Date.now() + 10 * DAY);
    const locked = await screen.findByTestId('research-locked');
    await waitFor(() => expect(locked).toHaveTextContent('你的「选品搜索」权限已到期或已被收回，请联系管理员续期。'));
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says so in English, and that no period was ever opened when none was', async () => {
    openKeywordPage('en', null);
    const locked = await screen.findByTestId('research-locked');
    expect(locked).toHaveTextContent('Market research is locked');
    expect(locked).toHaveTextContent('Your account has no Product search period yet. Ask your administrator to open one.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
