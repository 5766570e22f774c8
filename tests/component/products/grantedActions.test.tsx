import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import type { UserInfo } from '@contract/session';
import type { StoredSession } from '@machines/sessionMachine';
import { ProductActionBar } from '@/features/products/productListParts';
import { renderWithApp } from '../renderApp';
import { userInfoOf } from '../../support/userInfo';

const ALL = ['改价', '改库存', '改图片', '归档', '取消归档', '删除归档商品'];

/** The product list's action bar for a signed-in person with `permissions` (null: an owner, who holds everything). */
function renderBar(permissions: string[] | null) {
  const info: UserInfo = { ...userInfoOf(7, 'follow'), permissions };
  const stored: StoredSession = { token: 'tok', id: 7, name: 'seller', right: '0', validTime: null, isAp: permissions !== null, relative_id: null, auto: '', info };
  const chosen: string[] = [];
  renderWithApp(<ProductActionBar count={3} onAction={(kind) => chosen.push(kind)} />, {
    actors: { restoreSession: fromPromise<StoredSession | null>(async () => stored), loadInfo: fromPromise<UserInfo | null>(async () => info) },
  });
  return { chosen };
}

const shownActions = () => screen.queryAllByRole('button').map((button) => button.textContent?.replace(/（.*$/, ''));

describe("the product list's batch actions", () => {
  it("shows a member only the actions their role grants, and they still act", async () => {
    const { chosen } = renderBar(['products:view', 'products:price']);
    await waitFor(() => expect(shownActions()).toEqual(['改价', '改库存']));
    await userEvent.click(screen.getByRole('button', { name: '改库存（3）' }));
    expect(chosen).toEqual(['stock']);
  });

  it('shows an owner every action', async () => {
    renderBar(null);
    await waitFor(() => expect(shownActions()).toEqual(ALL));
  });
});
