import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { useState } from 'react';
import { readDisplayState, SettingsProvider, SETTINGS_STORAGE_KEY } from '@/app/displaySettings';
import { SettingsDrawer } from '@/app/layout/SettingsDrawer';
import { TopBar } from '@/app/layout/TopBar';
import { findRoute } from '@/app/routes';
import { renderWithApp } from '../renderApp';

function clearCookies() {
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name);
}

/** The navbar and the settings panel, as the shell shows them; mounting it again is a page reload. */
function Shell() {
  const [open, setOpen] = useState(false);
  const route = findRoute('/home/introduction');
  if (!route) throw new Error('the home route is missing');
  return (
    <>
      <TopBar route={route} onOpenSettings={() => setOpen(true)} />
      <SettingsDrawer open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function load() {
  return renderWithApp(
    <SettingsProvider>
      <Shell />
    </SettingsProvider>,
  );
}

function storedSettings(): Record<string, unknown> {
  return JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}') as Record<string, unknown>;
}

beforeEach(() => {
  clearCookies();
  localStorage.clear();
});

describe('the sidebar state in the sidebarStatus cookie (spec §2.3)', () => {
  it.each([
    [undefined, true],
    ['1', true],
    ['0', false],
  ])('cookie %s opens the sidebar: %s', (cookie, opened) => {
    if (cookie !== undefined) Cookies.set('sidebarStatus', cookie);
    load();
    expect(screen.getByRole('button', { name: '折叠或展开侧边栏' })).toHaveAttribute('aria-expanded', String(opened));
  });

  it('collapsing saves 0, expanding saves 1, and a reload restores it', async () => {
    const user = userEvent.setup();
    const first = load();
    await user.click(screen.getByRole('button', { name: '折叠或展开侧边栏' }));
    expect(Cookies.get('sidebarStatus')).toBe('0');
    first.unmount();

    const second = load();
    const toggle = screen.getByRole('button', { name: '折叠或展开侧边栏' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(Cookies.get('sidebarStatus')).toBe('1');
    second.unmount();
    load();
    expect(screen.getByRole('button', { name: '折叠或展开侧边栏' })).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('the global size in the size cookie (spec §2.3)', () => {
  it('defaults to medium, and an unknown cookie value reads as medium', () => {
    expect(readDisplayState().size).toBe('medium');
    Cookies.set('size', 'huge');
    expect(readDisplayState().size).toBe('medium');
  });

  it('choosing a size in the navbar saves it and a reload keeps it', async () => {
    const user = userEvent.setup();
    const first = load();
    await user.click(screen.getByRole('button', { name: '全局尺寸' }));
    await user.click(await screen.findByRole('menuitem', { name: '大' }));
    expect(Cookies.get('size')).toBe('large');
    first.unmount();

    load();
    await user.click(screen.getByRole('button', { name: '全局尺寸' }));
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: '大' })).toHaveClass('ant-dropdown-menu-item-selected'));
  });
});

describe('the settings panel (spec §2.3, §3)', () => {
  it('a switched setting is stored and still on after a reload', async () => {
    const user = userEvent.setup();
    const first = load();
    await user.click(screen.getByRole('button', { name: '系统设置' }));
    const fixedHeader = await screen.findByRole('switch', { name: '固定头部' });
    expect(fixedHeader).not.toBeChecked();
    await user.click(fixedHeader);
    expect(storedSettings()).toMatchObject({ fixedHeader: true });
    first.unmount();

    load();
    await user.click(screen.getByRole('button', { name: '系统设置' }));
    expect(await screen.findByRole('switch', { name: '固定头部' })).toBeChecked();
  });

  it('only keys that exist, with values of their type, come back from storage; a change writes no stranger back', async () => {
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ theme: '#722ed1', bogus: 1, tagsView: 'yes', sidebarLogo: true }));
    const state = readDisplayState();
    expect(state.settings).not.toHaveProperty('bogus');
    expect(state.settings).toMatchObject({ theme: '#722ed1', tagsView: true, sidebarLogo: true });

    const user = userEvent.setup();
    load();
    await user.click(screen.getByRole('button', { name: '系统设置' }));
    await user.click(await screen.findByRole('switch', { name: '菜单拼音搜索' }));
    expect(storedSettings()).not.toHaveProperty('bogus');
    expect(storedSettings()).toMatchObject({ theme: '#722ed1', tagsView: true, supportPinyinSearch: false });
  });

  it('the defaults are the spec\'s: theme #1890ff, tags view on, anti-inspection off; reset returns to them', async () => {
    expect(readDisplayState().settings).toMatchObject({ theme: '#1890ff', tagsView: true, antiInspection: false });
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ tagsView: false }));
    const user = userEvent.setup();
    load();
    await user.click(screen.getByRole('button', { name: '系统设置' }));
    expect(await screen.findByRole('switch', { name: '开启标签页' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: '恢复默认' }));
    await act(async () => {});
    expect(screen.getByRole('switch', { name: '开启标签页' })).toBeChecked();
    expect(storedSettings()).toMatchObject({ tagsView: true, theme: '#1890ff' });
  });
});
