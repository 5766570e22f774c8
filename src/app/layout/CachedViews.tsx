import { Activity, memo, useState, useSyncExternalStore } from 'react';
import { selectSettings } from '@machines/settingsMachine';
import { selectTabs, type TabActor } from '@machines/tabsMachine';
import { SettingsContext } from '../displaySettings';
import { findRoute, type AppRoute } from '../routes';
import { RoutePage } from '../RoutePage';
import { TabsContext } from '../tabs';

/**
 * The page area: with tags view on, every open tab's page stays mounted and hidden tabs keep their state through
 * React's <Activity> (spec §2.3 "page views cached per tab"); a refreshed tab gets a new key and mounts afresh.
 */
export function CachedViews({ route }: { route: AppRoute }) {
  const { tagsView } = SettingsContext.useSelector(selectSettings);
  const tabs = TabsContext.useSelector(selectTabs);
  if (!tagsView || !route.titleKey) return <RoutePage route={route} />;
  // A tab's refresh passes through the redirect page: the other tabs' pages stay mounted (hidden) meanwhile, or
  // refreshing one tab would throw away what every other tab holds.
  const redirecting = route.path === '/redirect/*';
  // Until the tab machine has taken a new page in, it is shown from the route alone, at the same key, so it
  // does not mount twice.
  const views: { path: string; ref: TabActor | null }[] = tabs.map((tab) => ({ path: tab.path, ref: tab.ref }));
  if (!redirecting && !tabs.some((tab) => tab.path === route.path)) views.push({ path: route.path, ref: null });
  return (
    <>
      {views.map((view) => (
        <TabView key={view.path} tabRef={view.ref} path={view.path} active={view.path === route.path} />
      ))}
      {redirecting && <RoutePage key="/redirect/*" route={route} />}
    </>
  );
}

const noSubscription = () => () => {};

/**
 * One tab's page; `tabRef` is null for the moment between a navigation and the machine taking the tab in. Memoised:
 * the shell's renders (its stages, the end of start-up) leave hidden pages alone. A page mounts when its tab is first
 * shown: a tab there from the start (the start page) has no state to keep until then, and mounting it hidden
 * rendered a page nobody had asked for while the opened one loaded (three times during a reload of the order list).
 */
const TabView = memo(function TabView({ tabRef, path, active }: { tabRef: TabActor | null; path: string; active: boolean }) {
  const [shown, setShown] = useState(active);
  if (active && !shown) setShown(true);
  const generation = useSyncExternalStore(
    tabRef ? (onChange) => {
      const subscription = tabRef.subscribe(onChange);
      return () => subscription.unsubscribe();
    } : noSubscription,
    () => tabRef?.getSnapshot().context.generation ?? 0,
  );
  const cached = tabRef?.getSnapshot().context.cached ?? true;
  const route = findRoute(path);
  if (!route || (!active && !cached) || !(active || shown)) return null;
  return (
    <Activity key={generation} mode={active ? 'visible' : 'hidden'}>
      <RoutePage route={route} />
    </Activity>
  );
});
