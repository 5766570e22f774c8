/// <reference types="chrome" />
import { PLUGIN_BRIDGE, type PluginBridgeFromApp, type PluginBridgeFromPlugin } from '../../contract/pluginProtocol';
import { pageLang } from './locales';
import { ask } from './messages';

/**
 * The content script of the app's own pages (the manifest lets it run on that one origin): tells the plugin page
 * that the plugin is installed and whose token it holds, and takes a token the page issued for it, so the user
 * connects with one click instead of copying a secret. Messages count only from this window and this origin.
 */
function post(message: PluginBridgeFromPlugin) {
  window.postMessage(message, location.origin);
}

async function ready() {
  const status = await ask({ type: 'status' });
  post({ source: PLUGIN_BRIDGE.pluginSource, type: 'ready', version: status.version, user: status.user });
}

window.addEventListener('message', (event: MessageEvent<PluginBridgeFromApp | null>) => {
  if (event.source !== window || event.origin !== location.origin) return;
  const data = event.data;
  if (!data || typeof data !== 'object' || data.source !== PLUGIN_BRIDGE.appSource) return;
  if (data.type === 'hello') void ready();
  else if (data.type === 'connect' && typeof data.token === 'string') {
    void ask({ type: 'connect', token: data.token, lang: pageLang() }).then((outcome) =>
      post(
        outcome.ok
          ? { source: PLUGIN_BRIDGE.pluginSource, type: 'connected', user: outcome.user }
          : { source: PLUGIN_BRIDGE.pluginSource, type: 'refused', message: outcome.message },
      ),
    );
  }
});
void ready();
