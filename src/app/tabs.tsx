import { createActorContext } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { tabsMachine, type TabView } from '@machines/tabsMachine';
import { appActorOptions } from './createAppActor';
import { appRoutes, flattenRoutes, HOME_PATH } from './routes';
import { SessionContext } from './session';

export const TabsContext = createActorContext(tabsMachine);

/** The tabs that are there from the start and never close (spec §2.3): the routes flagged affix. */
export function affixTabs(): TabView[] {
  return flattenRoutes(appRoutes)
    .filter((route) => route.affix && route.titleKey)
    .map((route) => ({ path: route.path, fullPath: route.path, title: route.titleKey ?? '', affix: true, cached: !route.noCache }));
}

export function TabsProvider({ children }: { children: ReactNode }) {
  return (
    <TabsContext.Provider logic={tabsMachine} options={appActorOptions({ input: { homePath: HOME_PATH, affix: affixTabs() } })}>
      <TabsBridge />
      {children}
    </TabsContext.Provider>
  );
}

/** The machine decides where to go after a close; the session's logout forgets every tab. */
function TabsBridge() {
  const tabs = TabsContext.useActorRef();
  const session = SessionContext.useActorRef();
  useEffect(() => {
    const offs = [
      tabs.on('tabs.navigate', ({ to }) => navigate(to)),
      session.on('tabs.closeAll', () => tabs.send({ type: 'tabs.reset', affix: affixTabs() })),
    ];
    return () => {
      for (const off of offs) off.unsubscribe();
    };
  }, [tabs, session]);
  return null;
}
