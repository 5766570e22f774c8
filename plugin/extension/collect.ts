/// <reference types="chrome" />
import { productLinkOf } from '../../contract/collectSources';
import { mountCollectPanel } from './collectPanel';
import { pageLang, pluginText } from './locales';
import { ask, type PanelOutcome, type TabRequest } from './messages';

// The content script of Ozon and 1688 product pages (the manifest's matches): a collect button, which the toolbar
// popup may also press for the seller.
const site = productLinkOf(location.href)?.site;
if (site) {
  const panel = mountCollectPanel(document, {
    site,
    send: (product) => ask({ type: 'collect', product, lang: pageLang() }),
    text: pluginText,
  });
  chrome.runtime.onMessage.addListener((request: TabRequest, sender, sendResponse: (outcome: PanelOutcome) => void) => {
    // Only the plugin's own popup (a sender with no tab) asks; nothing a page runs can reach this listener.
    if (sender.id !== chrome.runtime.id || sender.tab || request?.type !== 'collectTab') return false;
    void panel.collect().then(sendResponse);
    return true;
  });
}
