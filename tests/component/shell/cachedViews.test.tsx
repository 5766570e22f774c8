import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'wouter';
import { DEFAULT_SETTINGS } from '@machines/settingsMachine';
import { SettingsProvider } from '@/app/displaySettings';
import { useOpenTab } from '@/app/layout/BasicLayout';
import { CachedViews } from '@/app/layout/CachedViews';
import { TagsView } from '@/app/layout/TagsView';
import { findRoute } from '@/app/routes';
import { TabsProvider } from '@/app/tabs';
import { renderWithApp } from '../renderApp';

/** The shell's page area: the tags view over the cached page views, following the location as BasicLayout does. */
function PageArea() {
  const [path] = useLocation();
  const route = findRoute(path);
  if (!route) throw new Error(`no route for ${path}`);
  useOpenTab(route);
  return (
    <>
      <TagsView />
      <CachedViews route={route} />
    </>
  );
}

function renderShell(path: string) {
  return renderWithApp(
    <SettingsProvider input={{}}>
      <TabsProvider>
        <PageArea />
      </TabsProvider>
    </SettingsProvider>,
    { path },
  );
}

// The first render loads the lazy pages, which is slow in jsdom on a busy machine.
describe('cached views (spec §2.3: page views cached per tab)', { timeout: 30_000 }, () => {
  it('a page keeps what was typed while its tab is hidden, and the tab refresh mounts it afresh', async () => {
    const user = userEvent.setup();
    const { location } = renderShell('/profile/modify-psw');
    fireEvent.change(await screen.findByLabelText('原密码'), { target: { value: 'typed-before' } });

    act(() => location.navigate('/docs'));
    expect(await screen.findByRole('heading', { name: '使用文档' })).toBeVisible();
    // Hidden, not gone.
    expect(screen.getByLabelText('原密码')).not.toBeVisible();
    expect(await screen.findByRole('tab', { name: '使用文档' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: '修改密码' }));
    expect(screen.getByLabelText('原密码')).toBeVisible();
    expect(screen.getByLabelText('原密码')).toHaveValue('typed-before');
    expect(screen.getByRole('heading', { name: '使用文档', hidden: true })).not.toBeVisible();

    fireEvent.contextMenu(screen.getByRole('tab', { name: '修改密码' }));
    await user.click(screen.getByRole('menuitem', { name: '刷新' }));
    expect(await screen.findByLabelText('原密码')).toHaveValue('');
  });

  it('the start page, a tab from the start, mounts only when its tab is first shown, then stays cached', async () => {
    const user = userEvent.setup();
    renderShell('/docs');
    expect(await screen.findByRole('heading', { name: '使用文档' })).toBeVisible();
    // Its tab is there; its page, which nobody has looked at since the app started, is not rendered hidden.
    expect(await screen.findByRole('tab', { name: '系统介绍' })).toBeInTheDocument();
    // (Time for a hidden page's lazy load and idle render, had it been mounted.)
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(screen.queryByRole('heading', { name: '系统介绍', hidden: true })).toBeNull();

    await user.click(screen.getByRole('tab', { name: '系统介绍' }));
    expect(await screen.findByRole('heading', { name: '系统介绍' }, { timeout: 10_000 })).toBeVisible();
    await user.click(screen.getByRole('tab', { name: '使用文档' }));
    expect(screen.getByRole('heading', { name: '使用文档' })).toBeVisible();
    // Shown once, it stays mounted (hidden) like any visited tab.
    expect(screen.getByRole('heading', { name: '系统介绍', hidden: true })).not.toBeVisible();
  });

  it('a closed tab takes its page, and its state, with it', async () => {
    const user = userEvent.setup();
    const { location } = renderShell('/profile/modify-psw');
    fireEvent.change(await screen.findByLabelText('原密码'), { target: { value: 'typed-before' } });
    act(() => location.navigate('/docs'));
    await screen.findByRole('heading', { name: '使用文档' });

    await user.click(screen.getByRole('button', { name: '关闭标签 修改密码' }));
    expect(screen.queryByRole('tab', { name: '修改密码' })).toBeNull();
    expect(screen.queryByLabelText('原密码')).toBeNull();

    act(() => location.navigate('/profile/modify-psw'));
    expect(await screen.findByLabelText('原密码')).toHaveValue('');
  });

  it('with the tags view switched off, only the current page is mounted', async () => {
    const { location } = renderWithApp(
      <SettingsProvider input={{ settings: { ...DEFAULT_SETTINGS, tagsView: false } }}>
        <TabsProvider>
          <PageArea />
        </TabsProvider>
      </SettingsProvider>,
      { path: '/profile/modify-psw' },
    );
    fireEvent.change(await screen.findByLabelText('原密码'), { target: { value: 'typed-before' } });
    act(() => location.navigate('/docs'));
    await screen.findByRole('heading', { name: '使用文档' });
    expect(screen.queryByLabelText('原密码')).toBeNull();
  });
});
