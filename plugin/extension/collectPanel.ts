import { extractProduct, NotAProductPage, type CollectSite } from '../../contract/collectSources';
import type { CollectedProduct } from '../../contract/collection';
import type { PluginTextKey } from './locales';
import type { CollectOutcome, PanelOutcome } from './messages';
import { pageFactsOf } from './pageFacts';

export type CollectPanelOptions = {
  site: CollectSite;
  /** Sends the product to the app (through the service worker) and tells where it went. */
  send: (product: CollectedProduct) => Promise<CollectOutcome>;
  text: (key: PluginTextKey, substitution?: string) => string;
};

/** The host element's id: one panel per page, whatever runs the script twice. */
export const PANEL_ID = 'seller-plugin-collect';

const STYLE = `
  :host { all: initial; position: fixed; right: 24px; bottom: 24px; z-index: 2147483647; font: 14px/1.5 system-ui, "PingFang SC", "Microsoft YaHei", sans-serif; }
  .panel { display: flex; flex-direction: column; align-items: flex-end; gap: 8px; max-width: 340px; }
  button { cursor: pointer; border: 0; border-radius: 20px; padding: 10px 18px; background: #1677ff; color: #fff; font: inherit; font-weight: 600; box-shadow: 0 4px 12px rgba(0,0,0,.2); }
  button:disabled { cursor: progress; background: #69b1ff; }
  .status { background: #fff; color: #1f1f1f; border-radius: 8px; padding: 10px 12px; box-shadow: 0 4px 12px rgba(0,0,0,.15); border-left: 4px solid #1677ff; word-break: break-word; }
  .status[data-kind="ok"] { border-left-color: #52c41a; }
  .status[data-kind="error"] { border-left-color: #ff4d4f; }
  .status[hidden] { display: none; }
  a { color: #1677ff; margin-left: 6px; }
`;

/**
 * The collect button a product page gets: reads the page when clicked (not before, so a page that fills itself in
 * late is read complete), sends the product and says where it went, with a link to it in the app's collection.
 */
export function mountCollectPanel(document: Document, options: CollectPanelOptions): { host: HTMLElement; collect: () => Promise<PanelOutcome> } {
  document.getElementById(PANEL_ID)?.remove();
  const host = document.createElement('div');
  host.id = PANEL_ID;
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = STYLE;
  const panel = document.createElement('div');
  panel.className = 'panel';
  const status = document.createElement('div');
  status.className = 'status';
  status.setAttribute('role', 'status');
  status.hidden = true;
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = options.text('collect');
  panel.append(status, button);
  root.append(style, panel);

  const show = (kind: 'ok' | 'error' | 'busy', message: string, link?: { href: string; label: string }) => {
    status.hidden = false;
    status.dataset.kind = kind;
    status.replaceChildren(document.createTextNode(message));
    if (link) {
      const anchor = document.createElement('a');
      anchor.href = link.href;
      anchor.target = '_blank';
      anchor.rel = 'noopener';
      anchor.textContent = link.label;
      status.append(anchor);
    }
  };

  /** Reads the page and sends it, showing each step on the panel; answers what became of it. */
  const collect = async (): Promise<PanelOutcome> => {
    let product: CollectedProduct;
    try {
      product = extractProduct(options.site, pageFactsOf(document, document.location.href));
    } catch (error) {
      if (!(error instanceof NotAProductPage)) throw error;
      const message = options.text('notProduct');
      show('error', message);
      return { ok: false, reason: 'notProduct', message, link: null };
    }
    button.disabled = true;
    show('busy', options.text('collecting'));
    try {
      const outcome = await options.send(product);
      if (outcome.ok) {
        show('ok', options.text(outcome.created ? 'collected' : 'refreshed', outcome.title), { href: outcome.link, label: options.text('openInList') });
      } else {
        const message = outcome.reason === 'refused' ? options.text('failed', outcome.message) : outcome.message;
        show('error', message, outcome.link ? { href: outcome.link, label: options.text('connectHere') } : undefined);
      }
      return outcome;
    } finally {
      button.disabled = false;
    }
  };
  button.addEventListener('click', () => void collect());
  document.body.append(host);
  return { host, collect };
}
