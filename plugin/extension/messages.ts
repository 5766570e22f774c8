/// <reference types="chrome" />
import type { CollectedProduct } from '../../contract/collection';
import type { PluginUser } from '../../contract/pluginProtocol';
import type { PluginLang } from './locales';

/** What the content scripts and the popup ask the plugin's service worker (chrome.runtime.sendMessage). */
export type WorkerRequest =
  | { type: 'status' }
  | { type: 'collect'; product: CollectedProduct; lang: PluginLang }
  | { type: 'connect'; token: string; lang: PluginLang }
  | { type: 'disconnect' };

/** Where the plugin stands: the app it belongs to (from app.json) and whose token it holds. */
export type PluginStatus = { origin: string; version: string; user: PluginUser | null };

export type CollectOutcome =
  | { ok: true; created: boolean; title: string; link: string }
  /** `reason`: 'notConnected' (no token: `link` is the app's plugin page), 'unreachable', or the server's message. */
  | { ok: false; reason: 'notConnected' | 'unreachable' | 'refused'; message: string; link: string | null };

/** What collecting a page came to: sent (or refused by the app), or the page holds no product to collect. */
export type PanelOutcome = CollectOutcome | { ok: false; reason: 'notProduct'; message: string; link: null };

/** What the popup asks the content script of the tab the seller is on (chrome.tabs.sendMessage). */
export type TabRequest = { type: 'collectTab' };

export type ConnectOutcome = { ok: true; user: PluginUser } | { ok: false; message: string };

export type WorkerAnswer<R extends WorkerRequest> = R extends { type: 'status' }
  ? PluginStatus
  : R extends { type: 'collect' }
    ? CollectOutcome
    : R extends { type: 'connect' }
      ? ConnectOutcome
      : PluginStatus;

/** Asks the service worker; typed by the request. */
export function ask<R extends WorkerRequest>(request: R): Promise<WorkerAnswer<R>> {
  return chrome.runtime.sendMessage(request) as Promise<WorkerAnswer<R>>;
}
