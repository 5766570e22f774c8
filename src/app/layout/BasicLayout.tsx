import { Layout } from 'antd';
import { startTransition, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { selectSettings } from '@machines/settingsMachine';
import { SettingsContext } from '../displaySettings';
import { type AppRoute } from '../routes';
import { TabsContext } from '../tabs';
import { useAfterStartup } from './afterStartup';
import { useAntiInspection } from './antiInspection';
import { CachedViews } from './CachedViews';
import { FeatureUpdateDialog, NoticeBanner, NoticeProvider, VersionNotifier } from './notices';
import { SettingsDrawer } from './SettingsDrawer';
import { Sidebar } from './Sidebar';
import { TagsView } from './TagsView';
import { TopBar } from './TopBar';
import './layout.css';

type BasicLayoutProps = { route: AppRoute };

/** The logged-in shell (spec §2.3): top bar with the notice banner, sidebar, tabs, and the cached page views. */
export function BasicLayout({ route }: BasicLayoutProps) {
  const settings = SettingsContext.useSelector(selectSettings);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const tabs = TabsContext.useActorRef();
  const started = useAfterStartup();
  const pagesShown = useAfterFirstCommit();
  useOpenTab(route);
  useAntiInspection(settings.antiInspection);
  useEffect(() => {
    document.documentElement.style.setProperty('--app-primary', settings.theme);
  }, [settings.theme]);

  return (
    <NoticeProvider started={started}>
      <Layout className={`shell${settings.fixedHeader ? ' shell--fixed-header' : ''}`}>
        <div className="shell-top">
          <TopBar route={route} onOpenSettings={() => setSettingsOpen(true)} />
          <NoticeBanner />
        </div>
        <Layout className="shell-body">
          <Sidebar />
          <Layout className="shell-main">
            {settings.tagsView && <TagsView />}
            <Layout.Content className="shell-content">
              {pagesShown && <CachedViews route={route} />}
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
    </NoticeProvider>
  );
}

/**
 * False for the shell's first commit only. Shell and page mounted in one go made one commit too big for a frame
 * (a long task on every start); the page now follows in its own render and commit right after. The opened page's
 * chunk is already loading (main.tsx), so nothing waits on it.
 */
function useAfterFirstCommit(): boolean {
  const [committed, setCommitted] = useState(false);
  useEffect(() => startTransition(() => setCommitted(true)), []);
  return committed;
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
