import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { extractProduct } from '@contract/collectSources';
import type { CollectedProduct } from '@contract/collection';
import { mountCollectPanel, PANEL_ID } from '../../../plugin/extension/collectPanel';
import { pluginText } from '../../../plugin/extension/locales';
import type { CollectOutcome } from '../../../plugin/extension/messages';
import { pageFactsOf } from '../../../plugin/extension/pageFacts';
import { pageFactsOf as serverPageFactsOf } from '../../../server/integrations/sources/page';

/**
 * The plugin's content script on a product page, in jsdom: it reads the live document to the same facts (and so the
 * same product) as the server's link collector reads the saved HTML, and its button says where the product went.
 */
const FIXTURES = join(import.meta.dirname, '../../../server/integrations/sources/fixtures');
const PAGES = [
  { site: '1688' as const, file: '1688-712345678901.html', url: 'https://detail.1688.com/offer/712345678901.html' },
  { site: 'ozon' as const, file: 'ozon-1789012345.html', url: 'https://www.ozon.ru/product/besprovodnye-naushniki-tws-x9-chernye-1789012345/' },
];

function load(file: string) {
  const html = readFileSync(join(FIXTURES, file), 'utf8');
  document.open();
  document.write(html);
  document.close();
  return html;
}

const text = (key: Parameters<typeof pluginText>[0], substitution?: string) => pluginText(key, substitution, 'zh');

afterEach(() => document.getElementById(PANEL_ID)?.remove());

describe('the plugin’s collect button', () => {
  it.each(PAGES)('reads the $site page in the browser as the server reads its HTML', ({ site, file, url }) => {
    const html = load(file);
    const live = extractProduct(site, pageFactsOf(document, url));
    expect(live).toEqual(extractProduct(site, serverPageFactsOf(html, url)));
    expect(live.images.length).toBeGreaterThan(0);
    expect(live.variants.length).toBeGreaterThan(0);
  });

  it('sends the product on click and links to it in the collection; a second collect says it was refreshed', async () => {
    load(PAGES[0]!.file);
    const sent: CollectedProduct[] = [];
    const outcomes: CollectOutcome[] = [
      { ok: true, created: true, title: '跨境爆款TWS蓝牙耳机', link: 'http://app.example/collection/collection-list?id=3' },
      { ok: true, created: false, title: '跨境爆款TWS蓝牙耳机', link: 'http://app.example/collection/collection-list?id=3' },
    ];
    const { host } = mountCollectPanel(document, { site: '1688', text, send: async (product) => (sent.push(product), outcomes.shift()!) });
    const root = host.shadowRoot!;
    const button = root.querySelector('button')!;
    expect(button.textContent).toBe('采集到卖家后台');
    await userEvent.click(button);
    await waitFor(() => expect(root.querySelector('[role=status]')!.textContent).toBe('已加入采集箱：跨境爆款TWS蓝牙耳机在采集箱中查看'));
    expect(root.querySelector('a')!.getAttribute('href')).toBe('http://app.example/collection/collection-list?id=3');
    expect(sent[0]).toMatchObject({ site: '1688', sourceId: '712345678901', currency: 'CNY' });
    await userEvent.click(button);
    await waitFor(() => expect(root.querySelector('[role=status]')!.textContent).toMatch(/^采集箱中已有此商品，已按页面更新/));
  });

  it('without a connection, says so and links to the plugin page; on a page with no product, sends nothing', async () => {
    load(PAGES[0]!.file);
    const send = vi.fn(async (): Promise<CollectOutcome> => ({ ok: false, reason: 'notConnected', message: text('notConnected'), link: 'http://app.example/plugin/download' }));
    const root = mountCollectPanel(document, { site: '1688', text, send }).host.shadowRoot!;
    await userEvent.click(root.querySelector('button')!);
    await waitFor(() => expect(root.querySelector('[role=status]')!.textContent).toBe('插件尚未连接到卖家后台去连接'));
    expect(root.querySelector('a')!.getAttribute('href')).toBe('http://app.example/plugin/download');

    document.open();
    document.write('<html><head><title>验证码</title></head><body>请完成验证</body></html>');
    document.close();
    send.mockClear();
    const bare = mountCollectPanel(document, { site: '1688', text, send }).host.shadowRoot!;
    await userEvent.click(bare.querySelector('button')!);
    expect(bare.querySelector('[role=status]')!.textContent).toBe(text('notProduct'));
    expect(send).not.toHaveBeenCalled();
    expect(screen.queryByText('采集到卖家后台')).toBeNull();
  });
});
