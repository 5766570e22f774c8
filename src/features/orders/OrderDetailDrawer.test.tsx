import { render, screen, within } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import { I18nextProvider } from 'react-i18next';
import type { OrderRow, PostingDetail } from '@contract/orders';
import type { DataClient } from '@workers/client';
import { DataClientProvider } from '@/app/dataClient';
import { createI18n } from '@/app/i18n';
import { OrderDetailDrawer } from './OrderDetailDrawer';

const line = (sku: string, amount: number): OrderRow => ({
  id: `1:P-1:${sku}`,
  shopId: 1,
  shopName: '深圳数码',
  postingNumber: 'P-1',
  orderNumber: 'O-1',
  orderId: '1',
  status: 'awaiting_packaging',
  substatus: '',
  warehouseId: 'w3',
  warehouseName: 'rFBS 自发货',
  inProcessAt: Date.parse('2026-11-20T02:00:00Z'),
  shipmentDate: null,
  deliveringDate: null,
  trackingNumber: '',
  sku,
  offerId: `OF-${sku}`,
  productName: `商品 ${sku}`,
  quantity: 1,
  amount,
  currency: 'CNY',
  source: 'ozon',
  updatedAt: 0,
  deleted: false,
});
const lines = [line('11', 100), line('12', 50)];

const rfbs: PostingDetail = {
  postingNumber: 'P-1',
  buyer: { name: 'Иванов Алексей', phone: '+79161234567' },
  address: { text: 'Москва, ул. Ленина, д. 5, кв. 7', city: 'Москва', region: 'Москва', zipCode: '101000', country: 'Россия', comment: 'Позвонить за час' },
  destination: { region: 'Москва', city: 'Москва' },
  deliveryMethod: 'Ozon Логистика',
  products: [
    { sku: '11', quantity: 1, price: 100, commission: 18, commissionPercent: 18, payout: 82, currency: 'CNY' },
    { sku: '12', quantity: 1, price: 50, commission: 9, commissionPercent: 18, payout: 41, currency: 'CNY' },
  ],
  cancellation: null,
};

// The drawer's linked-returns section asks for returns: none here.
const client = { returns: { listNew: async () => ({ list: [], total: 0 }) } } as unknown as DataClient;

function renderDrawer(detail: () => Promise<PostingDetail>, lang: 'zh' | 'en' = 'zh') {
  render(
    <I18nextProvider i18n={createI18n(lang)}>
      <ConfigProvider>
        <AntApp>
          <DataClientProvider client={client}>
            <OrderDetailDrawer row={lines[0]!} lang={lang} onClose={() => undefined} postingLines={async () => lines} postingDetail={detail} onAction={() => undefined} />
          </DataClientProvider>
        </AntApp>
      </ConfigProvider>
    </I18nextProvider>,
  );
}

describe('OrderDetailDrawer', { timeout: 60_000 }, () => {
  it("shows the buyer, the address and Ozon's commission and payout with the posting's totals", async () => {
    renderDrawer(async () => rfbs);
    const parties = await screen.findByTestId('posting-parties', undefined, { timeout: 10_000 });
    expect(parties).toHaveTextContent('Иванов Алексей');
    expect(parties).toHaveTextContent('+79161234567');
    expect(parties).toHaveTextContent('101000, Москва, Москва, ул. Ленина, д. 5, кв. 7');
    expect(parties).toHaveTextContent('备注：Позвонить за час');
    expect(await screen.findByTestId('posting-commission', undefined, { timeout: 10_000 })).toHaveTextContent('¥27.00');
    expect(screen.getByTestId('posting-payout')).toHaveTextContent('¥123.00');
    expect(screen.getByRole('button', { name: '取消货件' })).toBeInTheDocument();
  });

  it('says Ozon keeps an FBS buyer, and offers a retry when Ozon cannot be read (en)', async () => {
    let calls = 0;
    renderDrawer(async () => {
      calls++;
      if (calls === 1) throw new Error('timeout');
      return { ...rfbs, buyer: null, address: null };
    }, 'en');
    const section = await screen.findByRole('region', { name: 'Buyer and delivery' }, { timeout: 10_000 });
    (await within(section).findByRole('button', { name: 'Retry' }, { timeout: 10_000 })).click();
    expect(await within(section).findByText("Ozon delivers this posting and does not share the buyer's name or address", undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(section).toHaveTextContent('Goes toМосква, Москва');
  });
});
