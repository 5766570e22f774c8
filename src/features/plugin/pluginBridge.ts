import { useEffect, useState } from 'react';
import { PLUGIN_BRIDGE, type PluginBridgeFromApp, type PluginBridgeFromPlugin, type PluginUser } from '@contract/pluginProtocol';

/**
 * The page's side of the plugin's bridge (plugin/extension/bridge.ts, a content script the plugin runs on this
 * origin only): window messages from this window and origin, nothing else.
 */
function post(message: PluginBridgeFromApp) {
  window.postMessage(message, window.location.origin);
}

function fromPlugin(event: MessageEvent): PluginBridgeFromPlugin | null {
  if (event.source !== window || event.origin !== window.location.origin) return null;
  const data = event.data as PluginBridgeFromPlugin | null;
  return data && typeof data === 'object' && data.source === PLUGIN_BRIDGE.pluginSource ? data : null;
}

export type PluginPresence = { version: string; user: PluginUser | null };

/** The installed plugin as it announces itself (version, whose token it holds); null until it does (or when absent). */
export function usePluginPresence(): PluginPresence | null {
  const [presence, setPresence] = useState<PluginPresence | null>(null);
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      const message = fromPlugin(event);
      if (message?.type === 'ready') setPresence({ version: message.version, user: message.user });
      else if (message?.type === 'connected') setPresence((before) => (before ? { ...before, user: message.user } : before));
    };
    window.addEventListener('message', listen);
    // The bridge announces itself when the page loads; a page opened later (a tab switch in the app) asks again.
    post({ source: PLUGIN_BRIDGE.appSource, type: 'hello' });
    return () => window.removeEventListener('message', listen);
  }, []);
  return presence;
}

/** How long the plugin gets to check the token with the server and keep it. */
export const HAND_OVER_TIMEOUT_MS = 15_000;

/** Gives the plugin a freshly issued token; resolves with whose it is, rejects (a failure with `message`) if it refuses or stays silent. */
export function handOverToken(token: string, noAnswer: string, timeoutMs = HAND_OVER_TIMEOUT_MS): Promise<PluginUser> {
  return new Promise((resolve, reject) => {
    const done = () => {
      window.removeEventListener('message', listen);
      clearTimeout(timer);
    };
    const listen = (event: MessageEvent) => {
      const message = fromPlugin(event);
      if (message?.type === 'connected') {
        done();
        resolve(message.user);
      } else if (message?.type === 'refused') {
        done();
        reject({ type: 'Plugin', code: 0, message: message.message });
      }
    };
    const timer = setTimeout(() => {
      done();
      reject({ type: 'Plugin', code: 0, message: noAnswer });
    }, timeoutMs);
    window.addEventListener('message', listen);
    post({ source: PLUGIN_BRIDGE.appSource, type: 'connect', token });
  });
}
