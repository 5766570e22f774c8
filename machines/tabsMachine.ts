import { assertEvent, assign, enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';

/**
 * The tags view (seller-tool §2.3): visited pages as tabs, one child actor per tab holding that tab's own state (its
 * full path with query, and how many times it was refreshed, which re-mounts its cached view). The parent keeps the
 * order and the rules: affix tabs never close; after closing the active tab the view moves to the last remaining tab,
 * or home. Navigation is the app's business: the machine emits 'tabs.navigate' and the app follows.
 */

export type TabView = {
  /** The route path: one tab per route. */
  path: string;
  /** Path with query, what the tab goes back to. */
  fullPath: string;
  title: string;
  affix: boolean;
  /** Whether the page stays mounted while its tab is hidden. */
  cached: boolean;
};

export type TabContext = TabView & { generation: number };
export type TabEvent = { type: 'tab.visit'; fullPath: string; title: string } | { type: 'tab.remount' };

export const tabMachine = setup({
  types: {
    context: {} as TabContext,
    input: {} as TabView,
    events: {} as TabEvent,
  },
}).createMachine({
  id: 'tab',
  context: ({ input }) => ({ ...input, generation: 0 }),
  on: {
    'tab.visit': {
      actions: assign(({ event }) => ({ fullPath: event.fullPath, title: event.title })),
    },
    'tab.remount': {
      actions: assign({ generation: ({ context }) => context.generation + 1 }),
    },
  },
});

export type TabActor = ActorRefFrom<typeof tabMachine>;
export type TabEntry = { path: string; affix: boolean; ref: TabActor };

export type TabsInput = { homePath: string; affix?: readonly TabView[] };

export type TabsContext = {
  homePath: string;
  tabs: TabEntry[];
  /** The tab of the page on screen, or null when the page has no tab (a redirect, or tags view off). */
  active: string | null;
};

export type TabsEvent =
  /** The app navigated to a page that keeps a tab. */
  | ({ type: 'tab.open' } & TabView)
  | { type: 'tab.close'; path: string }
  | { type: 'tab.closeOthers'; path: string }
  | { type: 'tab.refresh'; path: string }
  /** Close every tab but the affix ones (the tab bar's "close all"). */
  | { type: 'tabs.closeAll' }
  /** Forget every tab, affix ones included, without navigating (logout: the next user starts afresh). */
  | { type: 'tabs.reset'; affix?: readonly TabView[] };

export type TabsEmitted = { type: 'tabs.navigate'; to: string };

const REDIRECT_PREFIX = '/redirect';

/** Where the tab bar's refresh goes: the redirect page replaces itself with the tab's full path (spec §2.3). */
export function refreshPath(fullPath: string): string {
  return `${REDIRECT_PREFIX}${fullPath.startsWith('/') ? fullPath : `/${fullPath}`}`;
}

function tabId(path: string): string {
  return `tab:${path}`;
}

export const tabsMachine = setup({
  types: {
    context: {} as TabsContext,
    input: {} as TabsInput,
    events: {} as TabsEvent,
    emitted: {} as TabsEmitted,
  },
  actors: { tab: tabMachine },
  actions: {
    openTab: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'tab.open');
      const existing = context.tabs.find((tab) => tab.path === event.path);
      if (existing) {
        enqueue.sendTo(existing.ref, { type: 'tab.visit', fullPath: event.fullPath, title: event.title });
        enqueue.assign({ active: event.path });
        return;
      }
      const { type: _type, ...view } = event;
      enqueue.assign({
        tabs: ({ spawn }) => [
          ...context.tabs,
          { path: view.path, affix: view.affix, ref: spawn('tab', { id: tabId(view.path), input: view }) },
        ],
        active: event.path,
      });
    }),
    closeTab: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'tab.close');
      const closing = context.tabs.find((tab) => tab.path === event.path);
      if (!closing || closing.affix) return;
      const remaining = context.tabs.filter((tab) => tab !== closing);
      enqueue.stopChild(closing.ref);
      enqueue.assign({ tabs: remaining });
      if (context.active === closing.path) {
        const last = remaining.at(-1);
        enqueue.assign({ active: last?.path ?? null });
        enqueue.emit({ type: 'tabs.navigate', to: last ? last.ref.getSnapshot().context.fullPath : context.homePath });
      }
    }),
    closeOthers: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'tab.closeOthers');
      const keep = context.tabs.filter((tab) => tab.affix || tab.path === event.path);
      for (const tab of context.tabs) if (!keep.includes(tab)) enqueue.stopChild(tab.ref);
      enqueue.assign({ tabs: keep });
      const kept = keep.find((tab) => tab.path === event.path);
      if (kept && context.active !== kept.path) {
        enqueue.assign({ active: kept.path });
        enqueue.emit({ type: 'tabs.navigate', to: kept.ref.getSnapshot().context.fullPath });
      }
    }),
    closeAll: enqueueActions(({ context, enqueue }) => {
      const keep = context.tabs.filter((tab) => tab.affix);
      for (const tab of context.tabs) if (!tab.affix) enqueue.stopChild(tab.ref);
      enqueue.assign({ tabs: keep });
      if (!keep.some((tab) => tab.path === context.active)) {
        const last = keep.at(-1);
        enqueue.assign({ active: last?.path ?? null });
        enqueue.emit({ type: 'tabs.navigate', to: last ? last.ref.getSnapshot().context.fullPath : context.homePath });
      }
    }),
    refreshTab: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'tab.refresh');
      const tab = context.tabs.find((entry) => entry.path === event.path);
      if (!tab) return;
      // A new generation drops the cached view, so the page mounts afresh when the redirect lands back on it.
      enqueue.sendTo(tab.ref, { type: 'tab.remount' });
      enqueue.assign({ active: tab.path });
      enqueue.emit({ type: 'tabs.navigate', to: refreshPath(tab.ref.getSnapshot().context.fullPath) });
    }),
    resetTabs: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'tabs.reset');
      for (const tab of context.tabs) enqueue.stopChild(tab.ref);
      enqueue.assign({
        tabs: ({ spawn }) =>
          (event.affix ?? []).map((view) => ({ path: view.path, affix: true, ref: spawn('tab', { id: tabId(view.path), input: { ...view, affix: true } }) })),
        active: null,
      });
    }),
  },
}).createMachine({
  id: 'tabs',
  context: ({ input, spawn }) => ({
    homePath: input.homePath,
    // Affix tabs are there from the start (spec §2.3 "pinned tabs").
    tabs: (input.affix ?? []).map((view) => ({
      path: view.path,
      affix: true,
      ref: spawn('tab', { id: tabId(view.path), input: { ...view, affix: true } }),
    })),
    active: null,
  }),
  on: {
    'tab.open': { actions: 'openTab' },
    'tab.close': { actions: 'closeTab' },
    'tab.closeOthers': { actions: 'closeOthers' },
    'tabs.closeAll': { actions: 'closeAll' },
    'tab.refresh': { actions: 'refreshTab' },
    'tabs.reset': { actions: 'resetTabs' },
  },
});

export type TabsSnapshot = SnapshotFrom<typeof tabsMachine>;
export const selectTabs = (snapshot: Pick<TabsSnapshot, 'context'>) => snapshot.context.tabs;
export const selectActiveTab = (snapshot: Pick<TabsSnapshot, 'context'>) => snapshot.context.active;
/** The close icon shows only while more than one tab is open (spec §2.3). */
export const selectCanCloseByIcon = (snapshot: Pick<TabsSnapshot, 'context'>) => snapshot.context.tabs.length > 1;
export const selectTabView = (snapshot: SnapshotFrom<typeof tabMachine>) => snapshot.context;
