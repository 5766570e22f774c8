/// <reference types="chrome" />
import { PLUGIN_PAGE } from '../../contract/pluginProtocol';
import { pageLang, pluginText as text } from './locales';
import { ask, type PluginStatus } from './messages';

/** The toolbar popup: whom the plugin is connected as, connect by pasting a token, disconnect, links into the app. */
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

function render(status: PluginStatus, error = '') {
  const collection = `${status.origin}/collection/collection-list`;
  const parts: Node[] = [element('h1', { textContent: text('extName') }), element('p', { className: 'muted', textContent: `${text('popupServer', status.origin)} · v${status.version}` })];
  if (status.user) {
    const disconnect = element('button', { type: 'button', className: 'secondary', textContent: text('popupDisconnect') });
    disconnect.addEventListener('click', async () => render(await ask({ type: 'disconnect' })));
    parts.push(element('p', { className: 'ok', textContent: text('popupConnectedAs', status.user.name) }), element('p', { textContent: text('popupHowTo') }));
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
