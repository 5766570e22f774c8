/// <reference types="chrome" />
import { productLinkOf } from '../../contract/collectSources';
import { mountCollectPanel } from './collectPanel';
import { pageLang, pluginText } from './locales';
import { ask } from './messages';

// The content script of Ozon and 1688 product pages (the manifest's matches): a collect button, nothing else.
const site = productLinkOf(location.href)?.site;
if (site) {
  mountCollectPanel(document, {
    site,
    send: (product) => ask({ type: 'collect', product, lang: pageLang() }),
    text: pluginText,
  });
}
