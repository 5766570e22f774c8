import { assertEvent, assign, setup, type SnapshotFrom } from 'xstate';

/**
 * Display settings and the app's frame state (seller-tool §2.3, §3): theme colour, tags view, fixed header, sidebar
 * logo, pinyin menu search (and the anti-inspection switch of §9, off by default); the sidebar's open state and the
 * global size. A change-setting event sets a named setting only if it already exists (§3).
 */

export const SIZES = ['small', 'medium', 'large'] as const;
export type Size = (typeof SIZES)[number];

export type DisplaySettings = {
  theme: string;
  showSettings: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  supportPinyinSearch: boolean;
  antiInspection: boolean;
};

export const DEFAULT_SETTINGS: DisplaySettings = {
  theme: '#1890ff',
  showSettings: true,
  tagsView: true,
  fixedHeader: false,
  // Off: the logo sits in the top bar (spec §2.3); on, it moves to the head of the sidebar.
  sidebarLogo: false,
  supportPinyinSearch: true,
  antiInspection: false,
};

export type SettingsContext = { settings: DisplaySettings; sidebarOpened: boolean; size: Size };
export type SettingsInput = Partial<SettingsContext>;
export type SettingsEvent =
  | { type: 'settings.change'; key: string; value: unknown }
  | { type: 'settings.reset' }
  | { type: 'sidebar.toggle' }
  | { type: 'size.set'; size: Size };

export function isSettingKey(key: string): key is keyof DisplaySettings {
  return Object.hasOwn(DEFAULT_SETTINGS, key);
}

/** Only an existing key, with a value of that key's type, changes anything. */
export function changeSetting(settings: DisplaySettings, key: string, value: unknown): DisplaySettings {
  if (!isSettingKey(key) || typeof value !== typeof DEFAULT_SETTINGS[key]) return settings;
  return { ...settings, [key]: value };
}

export const settingsMachine = setup({
  types: {
    context: {} as SettingsContext,
    events: {} as SettingsEvent,
    input: {} as SettingsInput,
  },
  actions: {
    persistSettings: (_, _settings: DisplaySettings) => {},
    persistSidebar: (_, _opened: boolean) => {},
    persistSize: (_, _size: Size) => {},
  },
}).createMachine({
  id: 'settings',
  context: ({ input }) => ({
    settings: { ...DEFAULT_SETTINGS, ...input.settings },
    sidebarOpened: input.sidebarOpened ?? true,
    size: input.size ?? 'medium',
  }),
  on: {
    'settings.change': {
      actions: [
        assign({
          settings: ({ context, event }) => {
            assertEvent(event, 'settings.change');
            return changeSetting(context.settings, event.key, event.value);
          },
        }),
        { type: 'persistSettings', params: ({ context }) => context.settings },
      ],
    },
    'settings.reset': {
      actions: [assign({ settings: DEFAULT_SETTINGS }), { type: 'persistSettings', params: DEFAULT_SETTINGS }],
    },
    'sidebar.toggle': {
      actions: [
        assign({ sidebarOpened: ({ context }) => !context.sidebarOpened }),
        { type: 'persistSidebar', params: ({ context }) => context.sidebarOpened },
      ],
    },
    'size.set': {
      actions: [
        assign({ size: ({ event }) => event.size }),
        { type: 'persistSize', params: ({ context }) => context.size },
      ],
    },
  },
});

export type SettingsSnapshot = SnapshotFrom<typeof settingsMachine>;
export const selectSettings = (snapshot: Pick<SettingsSnapshot, 'context'>) => snapshot.context.settings;
export const selectTheme = (snapshot: Pick<SettingsSnapshot, 'context'>) => snapshot.context.settings.theme;
export const selectSidebarOpened = (snapshot: Pick<SettingsSnapshot, 'context'>) => snapshot.context.sidebarOpened;
export const selectSize = (snapshot: Pick<SettingsSnapshot, 'context'>) => snapshot.context.size;
