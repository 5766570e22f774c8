import { Layout } from 'antd';
import { proxy } from 'comlink';
import { memo, useCallback, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { selectSettings, selectSidebarOpened } from '@machines/settingsMachine';
import { useDataClient } from '../dataClient';
import { DisplayCurrencyProvider } from '../displayCurrency';
import { SettingsContext } from '../displaySettings';
import { type AppRoute } from '../routes';
import { TabsContext } from '../tabs';
import { SessionContext } from '../session';
import { useAfterStartup } from './afterStartup';
import { useStages } from './stages';
import { useAntiInspection } from './antiInspection';
import { CachedViews } from './CachedViews';
import { FeatureUpdateDialog, NoticeBanner, NoticeProvider, VersionNotifier } from './notices';
import { SettingsDrawer } from './SettingsDrawer';
import { Sidebar, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from './Sidebar';
import { TagsView } from './TagsView';
import { TopBar } from './TopBar';
import './layout.css';

type BasicLayoutProps = { route: AppRoute };

// The shell re-renders at each of its stages and when the start-up is over: the menu (~460 components), the top bar
// and the tabs then stay as they are unless their own props change (the menu re-rendered whole ~2 s into a warm
// open of the order list, while the worker was still loading the cache).
const ShellSidebar = memo(Sidebar);
const ShellTopBar = memo(TopBar);
const ShellTagsView = memo(TagsView);
/** One element for every render: the memoised top bar compares its props by identity. */
const NOTICE = <NoticeBanner />;

/** The logged-in shell (spec §2.3): top bar with the notice banner, sidebar, tabs, and the cached page views. */
export function BasicLayout({ route }: BasicLayoutProps) {
  const settings = SettingsContext.useSelector(selectSettings);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const tabs = TabsContext.useActorRef();
  const started = useAfterStartup();
  // The shell mounts in stages (stages.ts): an empty frame of its sizes and colours (the login's state change renders
  // it synchronously, so it must be cheap), then the opened page, then the top bar's tools and the tabs, then the
  // menu. Shell and page in one go made one commit too big for a frame (a long task on every start), and what the
  // user opened the app for comes before the chrome around it.
  const stage = useStages(3);
  const pageShown = stage >= 1;
  const barsShown = stage >= 2;
  const menuShown = stage >= 3;
  const opened = SettingsContext.useSelector(selectSidebarOpened);
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  useOpenTab(route);
  useAntiInspection(settings.antiInspection);
  useScopeChangeRefresh();
  useEffect(() => {
    document.documentElement.style.setProperty('--app-primary', settings.theme);
  }, [settings.theme]);

  return (
    <NoticeProvider started={started}>
      <DisplayCurrencyProvider>
        <Layout className={`shell${settings.fixedHeader ? ' shell--fixed-header' : ''}`}>
          <div className="shell-top">
            {barsShown ? <ShellTopBar route={route} onOpenSettings={openSettings} notice={NOTICE} /> : <div className="shell-header" />}
          </div>
          <Layout className="shell-body" hasSider>
            {menuShown ? <ShellSidebar /> : <div className="shell-sider shell-sider--placeholder" style={{ width: opened ? SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH }} />}
            <Layout className="shell-main">
              {settings.tagsView && (barsShown ? <ShellTagsView /> : <div className="tags-view" />)}
              <Layout.Content className="shell-content">
                {pageShown && <CachedViews route={route} />}
              </Layout.Content>
            </Layout>
          </Layout>
          <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
          {started && <VersionNotifier />}
          {started && (
            <FeatureUpdateDialog
              onRefresh={() => {
                const active = tabs.getSnapshot().context.active;
                if (active) tabs.send({ type: 'tab.refresh', path: active });
              }}
            />
          )}
        </Layout>
      </DisplayCurrencyProvider>
    </NoticeProvider>
  );
}

/**
 * A member's role or shops changed (the worker dropped the big lists' rows): the menus are made again from the info
 * read anew, and the open tab is mounted again, so its list opens and syncs only what the member may still see,
 * without reloading the app.
 */
function useScopeChangeRefresh() {
  const client = useDataClient();
  const tabs = TabsContext.useActorRef();
  const session = SessionContext.useActorRef();
  useEffect(() => {
    const off = client.subscribe(
      'session.scopeChanged',
      proxy(() => {
        // The menus and buttons follow the role's grants as they are now.
        session.send({ type: 'session.grantsChanged' });
        const active = tabs.getSnapshot().context.active;
        if (active) tabs.send({ type: 'tab.refresh', path: active });
      }),
    );
    return () => void off.then((unsubscribe) => unsubscribe());
  }, [client, tabs, session]);
}

/** Every page with a title gets a tab; the redirect helper does not. */
export function useOpenTab(route: AppRoute) {
  const [path] = useLocation();
  const search = useSearch();
  const tabs = TabsContext.useActorRef();
  useEffect(() => {
    if (!route.titleKey || route.path === '/redirect/*') return;
    tabs.send({
      type: 'tab.open',
      path: route.path,
      fullPath: search ? `${path}?${search}` : path,
      title: route.titleKey,
      affix: route.affix ?? false,
      cached: !route.noCache,
    });
  }, [tabs, route, path, search]);
}
