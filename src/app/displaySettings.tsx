import { createActorContext } from '@xstate/react';
import { readCookie, writeCookie } from './cookieJar';
import type { ReactNode } from 'react';
import {
  changeSetting,
  DEFAULT_SETTINGS,
  settingsMachine,
  SIZES,
  type DisplaySettings,
  type SettingsInput,
  type Size,
} from '@machines/settingsMachine';
import { appActorOptions } from './createAppActor';

/** Where the display state survives a reload (spec §2.3): the sidebar and size in cookies, settings in local storage. */
export const SIDEBAR_COOKIE = 'sidebarStatus';
export const SIZE_COOKIE = 'size';
export const SETTINGS_STORAGE_KEY = 'displaySettings';

export function readDisplayState(): SettingsInput {
  const sidebar = readCookie(SIDEBAR_COOKIE);
  const size = readCookie(SIZE_COOKIE);
  let settings: DisplaySettings = DEFAULT_SETTINGS;
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}');
    // Only known keys with the right type come back: a stale or edited entry cannot add settings.
    if (saved && typeof saved === 'object') {
      for (const [key, value] of Object.entries(saved)) settings = changeSetting(settings, key, value);
    }
  } catch {
    // A broken entry: the defaults.
  }
  return {
    settings,
    sidebarOpened: sidebar === undefined ? true : sidebar === '1',
    size: (SIZES as readonly string[]).includes(size ?? '') ? (size as Size) : 'medium',
  };
}

export function writeSettings(settings: DisplaySettings): void {
  localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
}
export function writeSidebar(opened: boolean): void {
  writeCookie(SIDEBAR_COOKIE, opened ? '1' : '0', { expires: 365 });
}
export function writeSize(size: Size): void {
  writeCookie(SIZE_COOKIE, size, { expires: 365 });
}

export const SettingsContext = createActorContext(settingsMachine);

const persistedSettings = settingsMachine.provide({
  actions: {
    persistSettings: (_, settings) => writeSettings(settings),
    persistSidebar: (_, opened) => writeSidebar(opened),
    persistSize: (_, size) => writeSize(size),
  },
});

export function SettingsProvider({ children, input }: { children: ReactNode; input?: SettingsInput }) {
  return (
    <SettingsContext.Provider logic={persistedSettings} options={appActorOptions({ input: input ?? readDisplayState() })}>
      {children}
    </SettingsContext.Provider>
  );
}
