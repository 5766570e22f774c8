import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { createActor } from 'xstate';
import type { PriceUpdateBody, ProductRow } from '@contract/products';
import type { DataClient } from '@workers/client';
import { createI18n } from '@/app/i18n';
import { PriceCellEditor } from '@/features/products/PriceCellEditor';
import { ProductActionDialog } from '@/features/products/ProductActionDialog';
import { productActionsOn } from '@/features/products/productActions';

const row = { id: '1:7', offerId: 'A-7', name: '甲店商品 7', shopId: 1, shopName: '甲店', status: 'selling', currency: 'CNY', price: 500, oldPrice: 600, minPrice: 450 } as ProductRow;

function wrap(children: React.ReactNode, lang: 'zh' | 'en' = 'zh') {
  return render(
    <I18nextProvider i18n={createI18n(lang)}>
      <AntApp>{children}</AntApp>
    </I18nextProvider>,
  );
}

describe('the price edited in its cell', () => {
  it("names Ozon's rule the values break as the seller types, and saves price, old and minimum price together", async () => {
    const saved: unknown[] = [];
    wrap(<PriceCellEditor row={row} lang="zh" onSave={(_, values) => saved.push(values)} onClose={() => undefined} />);
    const price = screen.getByRole('spinbutton', { name: '售价 (CNY)' });
    expect(price).toHaveValue('500.00');
    expect(screen.getByRole('spinbutton', { name: '最低价' })).toHaveValue('450.00');

    // Under the card's minimum price: what Ozon refused with "最低价不能高于售价", now said before sending.
    fireEvent.change(price, { target: { value: '400' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('最低价不能高于售价');
    expect(screen.getByRole('button', { name: /保\s*存/ })).toBeDisabled();
    fireEvent.change(screen.getByRole('spinbutton', { name: '最低价' }), { target: { value: '380' } });
    // Now the old price's gap: 5% of 400 is 20, and 600 is enough; 410 is not.
    fireEvent.change(screen.getByRole('spinbutton', { name: '划线价' }), { target: { value: '410' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('划线价须比售价至少高 20');
    fireEvent.change(screen.getByRole('spinbutton', { name: '划线价' }), { target: { value: '420' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: /保\s*存/ })).toBeEnabled());
    fireEvent.keyDown(price, { key: 'Enter' });
    expect(saved).toEqual([{ price: 400, oldPrice: 420, minPrice: 380 }]);
  }, 30_000);

  it('leaves the price as it was on Escape', async () => {
    let closed = 0;
    const saved: unknown[] = [];
    wrap(<PriceCellEditor row={row} lang="en" onSave={(_, v) => saved.push(v)} onClose={() => closed++} />, 'en');
    const price = screen.getByRole('spinbutton', { name: 'Price (CNY)' });
    fireEvent.change(price, { target: { value: '300' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The minimum price cannot be above the price');
    fireEvent.keyDown(price, { key: 'Escape' });
    expect(closed).toBe(1);
    expect(saved).toEqual([]);
  }, 30_000);
});

describe('the batch price', () => {
  it('warns of cards whose own minimum price is above the new one, and sends a new minimum price', async () => {
    const sent: PriceUpdateBody['items'][] = [];
    const rows = [
      { ...row, id: '1:1', offerId: 'A-1', minPrice: 0 },
      { ...row, id: '1:2', offerId: 'A-2', minPrice: 300 },
      { ...row, id: '1:3', offerId: 'A-3', minPrice: 280 },
    ];
    const client = {
      products: {
        rowsOf: async () => rows,
        limits: async () => [],
        updatePrices: async (items: PriceUpdateBody['items']) => (sent.push(items), items.map((i) => ({ id: i.id, ok: true, message: '' }))),
      },
    } as unknown as DataClient;
    const actor = createActor(productActionsOn(client, { picturesFailed: () => '', quotaShort: () => '', noWarehouse: '' })).start();
    wrap(<ProductActionDialog actor={actor} lang="zh" warehouses={[]} uploadImage={async () => ''} />);
    actor.send({ type: 'action.start', kind: 'price', selection: { kind: 'ids', ids: rows.map((r) => r.id) } });
    fireEvent.change(await screen.findByRole('spinbutton', { name: '新售价' }), { target: { value: '290' } });
    expect(await screen.findByTestId('price-problem')).toHaveTextContent('1 个商品的最低价高于新售价');
    fireEvent.change(screen.getByRole('spinbutton', { name: '新最低价（留空则各商品不变）' }), { target: { value: '300' } });
    expect(await screen.findByTestId('price-problem')).toHaveTextContent('最低价不能高于售价');
    expect(screen.getByRole('button', { name: /^确\s*定$/ })).toBeDisabled();
    fireEvent.change(screen.getByRole('spinbutton', { name: '新最低价（留空则各商品不变）' }), { target: { value: '250' } });
    await waitFor(() => expect(screen.getByRole('button', { name: /^确\s*定$/ })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: /^确\s*定$/ }));
    await waitFor(() => expect(actor.getSnapshot().matches('outcome')).toBe(true));
    expect(sent.flat()).toEqual(rows.map((r) => ({ id: r.id, price: 290, oldPrice: 0, minPrice: 250 })));
    actor.stop();
  }, 60_000);
});
