/// <reference types="chrome" />
import { COLLECTION_ENDPOINTS, type CollectAnswer } from '../../contract/collection';
import { routePath } from '../../contract/endpoint';
import { PLUGIN_ENDPOINTS } from '../../contract/plugin';
import { PLUGIN_PAGE, PLUGIN_TOKEN_HEADER, type PluginUser } from '../../contract/pluginProtocol';
import { pluginText, type PluginLang } from './locales';
import type { CollectOutcome, ConnectOutcome, PluginStatus, WorkerRequest } from './messages';

/**
 * The plugin's service worker: the only part that holds the token (chrome.storage.local, never the pages) and the
 * only one that talks to the app, at the one origin the downloaded zip was made for (app.json, the manifest's only
 * host permission). Content scripts hand it what they read; it answers with where the product went.
 */

type Stored = { token?: string; user?: PluginUser };

let appOrigin: Promise<string> | null = null;
function origin(): Promise<string> {
  appOrigin ??= fetch(chrome.runtime.getURL('app.json'))
    .then((r) => r.json() as Promise<{ origin: string }>)
    .then((app) => app.origin);
  return appOrigin;
}

const stored = () => chrome.storage.local.get(['token', 'user']) as Promise<Stored>;

type Envelope<T> = { code: number; msg: string; data: T };

/** One call to the app with the plugin token; the envelope as the server answered, or a thrown network failure. */
async function call<T>(path: string, token: string, init: { method: 'GET' | 'POST'; body?: unknown; lang: PluginLang }): Promise<Envelope<T>> {
  const response = await fetch(`${await origin()}${path}`, {
    method: init.method,
    headers: { [PLUGIN_TOKEN_HEADER]: token, 'accept-language': init.lang, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: 'omit',
  });
  return (await response.json()) as Envelope<T>;
}

async function status(): Promise<PluginStatus> {
  return { origin: await origin(), version: chrome.runtime.getManifest().version, user: (await stored()).user ?? null };
}

async function connect(token: string, lang: PluginLang): Promise<ConnectOutcome> {
  try {
    const answer = await call<PluginUser>(routePath(PLUGIN_ENDPOINTS.me), token.trim(), { method: 'GET', lang });
    if (answer.code !== 200) return { ok: false, message: answer.msg };
    await chrome.storage.local.set({ token: token.trim(), user: answer.data } satisfies Stored);
    return { ok: true, user: answer.data };
  } catch {
    return { ok: false, message: pluginText('unreachable', await origin(), lang) };
  }
}

async function collect(product: unknown, lang: PluginLang): Promise<CollectOutcome> {
  const app = await origin();
  const { token } = await stored();
  if (!token) return { ok: false, reason: 'notConnected', message: pluginText('notConnected', '', lang), link: `${app}${PLUGIN_PAGE}` };
  try {
    const answer = await call<CollectAnswer>(routePath(COLLECTION_ENDPOINTS.collect), token, { method: 'POST', body: { product }, lang });
    if (answer.code !== 200) return { ok: false, reason: 'refused', message: answer.msg, link: answer.code === 401 ? `${app}${PLUGIN_PAGE}` : null };
    return { ok: true, created: answer.data.created, title: answer.data.item.title, link: `${app}${answer.data.path}` };
  } catch {
    return { ok: false, reason: 'unreachable', message: pluginText('unreachable', app, lang), link: null };
  }
}

/** `connect` is taken from the app's own pages (the bridge) and the popup only, never from a product page's script. */
async function fromAppOrPopup(sender: chrome.runtime.MessageSender): Promise<boolean> {
  if (sender.id !== chrome.runtime.id) return false;
  if (!sender.tab) return true;
  return sender.url !== undefined && new URL(sender.url).origin === (await origin());
}

async function answer(request: WorkerRequest, sender: chrome.runtime.MessageSender): Promise<unknown> {
  switch (request.type) {
    case 'status':
      return status();
    case 'collect':
      return collect(request.product, request.lang);
    case 'connect':
      return (await fromAppOrPopup(sender)) ? connect(request.token, request.lang) : { ok: false, message: 'refused' };
    case 'disconnect':
      if (await fromAppOrPopup(sender)) await chrome.storage.local.remove(['token', 'user']);
      return status();
  }
}

chrome.runtime.onMessage.addListener((request: WorkerRequest, sender, sendResponse) => {
  void answer(request, sender).then(sendResponse);
  // The answer comes asynchronously: keep the channel open.
  return true;
});
