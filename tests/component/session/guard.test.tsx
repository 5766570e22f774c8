import { screen, waitFor } from '@testing-library/react';
import { fromPromise } from 'xstate';
import type { UserInfo } from '@contract/session';
import type { GenerateRoutesInput, RouteNode, StoredSession } from '@machines/sessionMachine';
import { appRoutes, filterRoutes } from '@/app/routes';
import { RouterView } from '@/app/RouterView';
import { renderWithApp } from '../renderApp';
import { userInfoOf } from '../../support/userInfo';

/** A reload of `path` whose last load kept the info of a user without the store area; getInfo answers when told. */
function reloadWithKeptInfo(path: string) {
  const kept = userInfoOf(7, 'common');
  const stored: StoredSession = { token: 'tok', id: 7, name: 'seller', right: '0', validTime: null, isAp: false, relative_id: null, auto: '', info: kept };
  let answer!: { resolve: (info: UserInfo) => void; reject: (error: unknown) => void };
  const view = renderWithApp(<RouterView />, {
    path,
    actors: {
      restoreSession: fromPromise<StoredSession | null>(async () => stored),
      loadInfo: fromPromise<UserInfo | null>(() => new Promise((resolve, reject) => (answer = { resolve, reject }))),
      generateRoutes: fromPromise<readonly RouteNode[], GenerateRoutesInput>(async ({ input }) =>
        filterRoutes(appRoutes, input.roles, input.rolePermissions),
      ),
    },
  });
  return { ...view, kept, answer: () => answer };
}

describe('the guard on a reload shown with the kept user info', () => {
  it('waits for the session check before refusing a page the kept roles leave out; a refused session logs in back to that page', async () => {
    const { location, answer } = reloadWithKeptInfo('/store/store-list');
    await waitFor(() => expect(answer()).toBeDefined());
    expect(screen.getByRole('status')).toHaveTextContent('加载中');
    expect(location.history?.at(-1)).toBe('/store/store-list');

    answer().reject(Object.assign(new Error('该用户密码已被修改，请重新登录！'), { code: 401 }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/login?redirect=%2Fstore%2Fstore-list'));
    expect(location.history).not.toContain('/404');
  });

  it('says which role opens it once the server confirms the same roles, at the same address', async () => {
    const { location, answer, kept } = reloadWithKeptInfo('/store/store-list');
    await waitFor(() => expect(answer()).toBeDefined());
    answer().resolve(kept);
    await screen.findByText('此页面需要以下角色：管理员或跟卖用户');
    expect(screen.getByText('权限已过期或无权限操作，请联系管理员')).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/store/store-list');
    expect(location.history).not.toContain('/404');
  });
});
