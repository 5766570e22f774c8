/// <reference types="chrome" />
import { PLUGIN_PAGE } from '../../contract/pluginProtocol';
import { pageLang, pluginText as text } from './locales';
import { ask, type PanelOutcome, type PluginStatus, type TabRequest } from './messages';

/**
 * The toolbar popup: whom the plugin is connected as, collect the product of the tab the seller is on, connect by
 * pasting a token, disconnect, links into the app.
 */
const root = document.getElementById('app')!;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

function link(href: string, label: string) {
  return element('a', { href, target: '_blank', rel: 'noopener', textContent: label });
}

/**
 * Has the content script of the current tab collect its product, as its own button would. A tab the script does not
 * run on (not an Ozon or 1688 product page, or opened before the plugin was installed) cannot answer.
 */
async function collectTab(): Promise<PanelOutcome> {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  const notProduct = { ok: false, reason: 'notProduct', message: text('popupNotProductTab'), link: null } as const;
  if (tab?.id === undefined) return notProduct;
  try {
    return await chrome.tabs.sendMessage<TabRequest, PanelOutcome>(tab.id, { type: 'collectTab' });
  } catch {
    return notProduct;
  }
}

function outcomeLine(outcome: PanelOutcome): Node {
  if (outcome.ok) {
    return element('p', { className: 'ok', role: 'status' }, text(outcome.created ? 'collected' : 'refreshed', outcome.title), ' ', link(outcome.link, text('openInList')));
  }
  const message = outcome.reason === 'refused' ? text('failed', outcome.message) : outcome.message;
  return element('p', { className: 'error', role: 'status' }, message, ...(outcome.link ? [' ', link(outcome.link, text('connectHere'))] : []));
}

function render(status: PluginStatus, error = '') {
  const collection = `${status.origin}/collection/collection-list`;
  const parts: Node[] = [element('h1', { textContent: text('extName') }), element('p', { className: 'muted', textContent: `${text('popupServer', status.origin)} · v${status.version}` })];
  if (status.user) {
    const disconnect = element('button', { type: 'button', className: 'secondary', textContent: text('popupDisconnect') });
    disconnect.addEventListener('click', async () => render(await ask({ type: 'disconnect' })));
    const collect = element('button', { type: 'button', textContent: text('popupCollectTab') });
    const outcome = element('div');
    collect.addEventListener('click', async () => {
      collect.disabled = true;
      collect.textContent = text('collecting');
      outcome.replaceChildren(outcomeLine(await collectTab()));
      collect.disabled = false;
      collect.textContent = text('popupCollectTab');
    });
    parts.push(element('p', { className: 'ok', textContent: text('popupConnectedAs', status.user.name) }), element('p', { textContent: text('popupHowTo') }));
    parts.push(collect, outcome);
    parts.push(element('div', { className: 'row' }, link(collection, text('popupOpenCollection')), disconnect));
  } else {
    const input = element('input', { type: 'password', placeholder: text('popupTokenPlaceholder'), autocomplete: 'off' });
    const connect = element('button', { type: 'submit', textContent: text('popupConnect') });
    const form = element('form', {}, input, connect);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!input.value.trim()) return;
      connect.disabled = true;
      const outcome = await ask({ type: 'connect', token: input.value, lang: pageLang() });
      render(await ask({ type: 'status' }), outcome.ok ? '' : outcome.message);
    });
    parts.push(element('p', { textContent: text('popupNotConnected') }), form);
    if (error) parts.push(element('p', { className: 'error', textContent: error }));
    parts.push(element('div', { className: 'row' }, link(`${status.origin}${PLUGIN_PAGE}`, text('popupOpenPlugin'))));
  }
  root.replaceChildren(...parts);
}

void ask({ type: 'status' }).then((status) => render(status));
