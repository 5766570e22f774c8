import { SearchOutlined } from '@ant-design/icons';
import { AutoComplete, Input, Layout, Menu, type MenuProps } from 'antd';
import { createElement, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { selectPermittedRoutes } from '@machines/sessionMachine';
import { selectSettings, selectSidebarOpened } from '@machines/settingsMachine';
import { SettingsContext } from '../displaySettings';
import { zh } from '../locales/zh';
import { en } from '../locales/en';
import { Logo } from '../Logo';
import { HOME_PATH, isExternal, type AppRoute } from '../routes';
import { SessionContext } from '../session';
import { buildMenu, isPinyinLoaded, loadPinyin, matchesMenu, menuPages, permittedAppRoutes, type MenuEntry, type MenuPage } from './menu';

type MenuItems = NonNullable<MenuProps['items']>;

/** A route's title in Chinese and in English, whatever the UI's language: the menu search finds a page by either. */
function searchTitles(route: AppRoute): string[] {
  const key = route.titleKey?.slice('route.'.length) as keyof typeof zh.route | undefined;
  return key ? [zh.route[key], en.route[key]] : [];
}

export const SIDEBAR_WIDTH = 220;
export const SIDEBAR_COLLAPSED_WIDTH = 64;

export function Sidebar() {
  const { t } = useTranslation();
  const [path, navigate] = useLocation();
  const permitted = SessionContext.useSelector(selectPermittedRoutes);
  const opened = SettingsContext.useSelector(selectSidebarOpened);
  const { sidebarLogo, supportPinyinSearch } = SettingsContext.useSelector(selectSettings);
  const routes = useMemo(() => permittedAppRoutes(permitted), [permitted]);
  const menu = useMemo(() => buildMenu(routes), [routes]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => menu.filter((entry) => entry.children?.some((child) => path.startsWith(child.route.path))).map((entry) => entry.route.path));

  // The menu scrolls on its own: keep the current page's entry in sight (the admin pages sit below the fold).
  useEffect(() => {
    // After the submenu's opening motion, and by hand, not scrollIntoView: that would also shift the frame.
    const timer = window.setTimeout(() => {
      const selected = document.querySelector<HTMLElement>('.shell-sider .ant-menu-item-selected');
      const scroller = selected?.closest<HTMLElement>('.ant-layout-sider-children');
      if (!selected || !scroller) return;
      const item = selected.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      if (item.bottom > view.bottom) scroller.scrollTop += item.bottom - view.bottom + 8;
      else if (item.top < view.top) scroller.scrollTop -= view.top - item.top + 8;
    }, 400);
    return () => window.clearTimeout(timer);
  }, [path, opened]);

  const toItem = (entry: MenuEntry): MenuItems[number] => {
    const { route } = entry;
    const icon = route.icon ? createElement(route.icon) : undefined;
    const title = route.titleKey ? t(route.titleKey) : route.path;
    if (entry.children) return { key: route.path, icon, label: title, children: entry.children.map(toItem) };
    const label = isExternal(route.path) ? (
      <a href={route.path} target="_blank" rel="noopener noreferrer">
        {title}
      </a>
    ) : (
      <Link href={route.path}>{title}</Link>
    );
    return { key: route.path, icon, label };
  };

  return (
    <Layout.Sider className="shell-sider" collapsible collapsed={!opened} trigger={null} width={SIDEBAR_WIDTH} collapsedWidth={SIDEBAR_COLLAPSED_WIDTH} theme="dark">
      {sidebarLogo && (
        <Link href={HOME_PATH} className="shell-sider__logo" aria-label={t('site.title')}>
          <Logo size={28} />
          {opened && <span>{t('site.short')}</span>}
        </Link>
      )}
      {opened && <MenuSearch pages={menuPages(routes)} supportPinyin={supportPinyinSearch} onPick={(to) => navigate(to)} />}
      <nav aria-label={t('navbar.menuSearch')}>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[path]}
          openKeys={opened ? openKeys : undefined}
          onOpenChange={setOpenKeys}
          items={menu.map(toItem)}
        />
      </nav>
    </Layout.Sider>
  );
}

function MenuSearch({ pages, supportPinyin, onPick }: { pages: MenuPage[]; supportPinyin: boolean; onPick: (path: string) => void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  // Options are recomputed once the pinyin dictionary arrives, so a query typed meanwhile finds its pages.
  const [, setPinyinLoaded] = useState(isPinyinLoaded);
  const wantPinyin = () => {
    if (supportPinyin && !isPinyinLoaded()) loadPinyin().then(() => setPinyinLoaded(true), () => undefined);
  };
  const titleOf = (route: AppRoute) => (route.titleKey ? t(route.titleKey) : '');
  // A page matches by its own title or by a group it sits in ("ddgl", 订单管理, offers every order page), in the
  // language shown and in Chinese; it reads as "group / page", never as its path.
  const options = pages
    .filter(({ route, groups }) => !isExternal(route.path) && route.titleKey && [route, ...groups].some((part) => matchesMenu(query, [titleOf(part), ...searchTitles(part)], supportPinyin)))
    .map(({ route, groups }) => {
      const label = [...groups, route].map(titleOf).join(' / ');
      return { value: label, label, path: route.path };
    });
  return (
    <div className="shell-sider__search">
      <AutoComplete
        value={query}
        options={options}
        onSearch={(value) => {
          wantPinyin();
          setQuery(value);
        }}
        onFocus={wantPinyin}
        onSelect={(_: string, option: { path: string }) => {
          setQuery('');
          onPick(option.path);
        }}
        notFoundContent={query ? t('navbar.menuSearchEmpty') : null}
        style={{ width: '100%' }}
      >
        <Input prefix={<SearchOutlined />} placeholder={t('navbar.menuSearch')} aria-label={t('navbar.menuSearch')} allowClear />
      </AutoComplete>
    </div>
  );
}
