import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import type { UserInfo } from '@contract/session';
import type { GenerateRoutesInput, RouteNode, StoredSession } from '@machines/sessionMachine';
import { appRoutes, filterRoutes } from '@/app/routes';
import { RouterView } from '@/app/RouterView';
import { IntroductionPage } from '@/features/home/IntroductionPage';
import { renderWithApp } from '../renderApp';
import { userInfoOf } from '../../support/userInfo';

const stored: StoredSession = { token: 'tok', id: 7, name: 'seller', right: '0', validTime: null, isAp: false, relative_id: null, auto: '' };
const ENDED = Date.parse('2026-11-01T12:00:00Z');

/** A follow seller whose paid period ended: the role is assigned, route filtering treats them as common. */
function expiredFollower(): UserInfo {
  const info = userInfoOf(7, 'follow');
  return {
    ...info,
    rolePermissions: ['common'],
    user: { ...info.user, followValidTime: ENDED, rightInfo: { activeRoles: [], expiredRoles: ['follow'], isAdmin: false } },
  };
}

function signedIn(ui: React.ReactNode, path: string, info: UserInfo, lang: 'zh' | 'en' = 'zh') {
  return renderWithApp(ui, {
    path,
    lang,
    actors: {
      restoreSession: fromPromise<StoredSession | null>(async () => stored),
      loadInfo: fromPromise<UserInfo | null>(async () => info),
      generateRoutes: fromPromise<readonly RouteNode[], GenerateRoutesInput>(async ({ input }) =>
        filterRoutes(appRoutes, input.roles, input.rolePermissions, input.permissions),
      ),
    },
  });
}

describe('a page the user may not open says what opens it and how to get it', () => {
  it('a new user: the roles, the paid period they need, and to ask the administrator', async () => {
    signedIn(<RouterView />, '/store/store-list', userInfoOf(7, 'common'));
    await screen.findByText('无权限访问');
    expect(screen.getByText('权限已过期或无权限操作，请联系管理员')).toBeInTheDocument();
    expect(screen.getByText('此页面需要以下角色：管理员或跟卖用户')).toBeInTheDocument();
    expect(screen.getByText('跟卖用户需在「跟卖功能」有效期内使用')).toBeInTheDocument();
    expect(screen.getByText(/^开通方式：请联系管理员/)).toBeInTheDocument();
    expect(screen.queryByText('404')).toBeNull();
  });

  it('a seller whose period ended: when it ended and how to renew, in English too', async () => {
    signedIn(<RouterView />, '/order-manager/order-list', expiredFollower(), 'en');
    await screen.findByText('No permission');
    expect(screen.getByText('Your “Follow selling” period ended on 1 Nov 2026')).toBeInTheDocument();
    expect(screen.getByText(/^How to renew: ask the administrator/)).toBeInTheDocument();
  });

  it('an administrator-only page says only the administrator can use it', async () => {
    signedIn(<RouterView />, '/ops-console/user-manager', userInfoOf(7, 'search'));
    await screen.findByText('此页面需要以下角色：管理员');
    expect(screen.getByText('此功能仅管理员可用。')).toBeInTheDocument();
  });
});

describe('home page module cards', () => {
  it('a module the user cannot open reads as not opened, with what opens it, never as available', async () => {
    signedIn(<IntroductionPage />, '/home/introduction', userInfoOf(7, 'common'));
    const tag = await screen.findByTestId('intro-area-status-store');
    expect(tag).toHaveTextContent('未开通');
    const card = tag.closest('.intro-area') as HTMLElement;
    expect(within(card).queryByText('可使用')).toBeNull();
    expect(within(card).getByText('跟卖用户需在「跟卖功能」有效期内使用')).toBeInTheDocument();
    expect(screen.getByTestId('intro-area-status-tools')).toHaveTextContent('可使用');
  });

  it('a module whose period ended says expired and when', async () => {
    signedIn(<IntroductionPage />, '/home/introduction', expiredFollower());
    const tag = await screen.findByTestId('intro-area-status-orders');
    expect(tag).toHaveTextContent('已到期');
    expect(within(tag.closest('.intro-area') as HTMLElement).getByText('您的「跟卖功能」已于 2026-11-01 到期')).toBeInTheDocument();
  });
});
