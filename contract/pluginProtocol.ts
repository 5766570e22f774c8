/**
 * The plugin's side of contract/plugin.ts without zod: what the extension's small scripts (the bridge, the popup,
 * the product-page button) share with the app and the server, so those scripts stay a few kilobytes.
 */

/** The app's page that offers the plugin and its tokens (the top bar's plugin link). */
export const PLUGIN_PAGE = '/plugin/download';
/** The header the plugin sends its token in (the app's own calls use X-Token and X-User-Id). */
export const PLUGIN_TOKEN_HEADER = 'x-plugin-token';
/** Every plugin token starts with this, so the user (and secret scanners) can tell one from other keys. */
export const PLUGIN_TOKEN_PREFIX = 'sbp_';
/** A token works this long after it was issued, unless revoked before. */
export const PLUGIN_TOKEN_TTL_DAYS = 365;
/** Live tokens one user may hold (one per browser they collect in, with room to spare). */
export const PLUGIN_TOKEN_MAX = 10;

/** The product pages the plugin's collect button appears on (Chromium match patterns), by site. */
export const PLUGIN_PRODUCT_PAGES = {
  ozon: ['https://www.ozon.ru/product/*', 'https://ozon.ru/product/*', 'https://www.ozon.by/product/*', 'https://www.ozon.kz/product/*'],
  '1688': ['https://detail.1688.com/offer/*'],
} as const;

/**
 * The messages the app's /plugin/download page and the plugin's bridge (a content script on the app's own origin
 * only) exchange with window.postMessage, both checking that the message comes from the same window and origin.
 */
export const PLUGIN_BRIDGE = {
  /** `source` of the plugin's messages, and of the app's. */
  pluginSource: 'seller-plugin',
  appSource: 'seller-app',
} as const;
/** Whose token the plugin holds. */
export type PluginUser = { id: number; name: string };

export type PluginBridgeFromApp = { source: typeof PLUGIN_BRIDGE.appSource; type: 'hello' } | { source: typeof PLUGIN_BRIDGE.appSource; type: 'connect'; token: string };
export type PluginBridgeFromPlugin =
  | { source: typeof PLUGIN_BRIDGE.pluginSource; type: 'ready'; version: string; user: PluginUser | null }
  | { source: typeof PLUGIN_BRIDGE.pluginSource; type: 'connected'; user: PluginUser }
  | { source: typeof PLUGIN_BRIDGE.pluginSource; type: 'refused'; message: string };
