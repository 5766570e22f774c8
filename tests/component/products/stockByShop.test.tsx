import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { createActor } from 'xstate';
import type { ProductStockBody, ProductWarehouse } from '@contract/products';
import type { DataClient } from '@workers/client';
import { createI18n } from '@/app/i18n';
import { ProductActionDialog } from '@/features/products/ProductActionDialog';
import { productActionsOn } from '@/features/products/productActions';

const rows = [
  { id: '1:1', offerId: 'A-1', name: '甲店商品 1', shopId: 1, shopName: '甲店', status: 'selling' },
  { id: '1:2', offerId: 'A-2', name: '甲店商品 2', shopId: 1, shopName: '甲店', status: 'selling' },
  { id: '2:1', offerId: 'B-1', name: '乙店商品 1', shopId: 2, shopName: '乙店', status: 'selling' },
];
// Two shops with a warehouse of the same name, as the demo's shops have.
const warehouses: ProductWarehouse[] = [
  { shopId: 1, shopName: '甲店', warehouseId: '101', name: '义乌仓 Yiwu FBS' },
  { shopId: 1, shopName: '甲店', warehouseId: '102', name: '深圳仓' },
  { shopId: 2, shopName: '乙店', warehouseId: '201', name: '义乌仓 Yiwu FBS' },
];

describe('stock on a selection over two shops', () => {
  it("sets each shop's products at a warehouse of that shop, one call per shop", async () => {
    const calls: ProductStockBody['items'][] = [];
    const client = {
      products: {
        rowsOf: async () => rows,
        limits: async () => [],
        updateStocks: async (items: ProductStockBody['items']) => {
          calls.push(items);
          // As the server answers: a warehouse of another shop is refused.
          return items.map((i) => ({ id: i.id, ok: i.warehouseId.startsWith(i.id[0]!), message: i.warehouseId.startsWith(i.id[0]!) ? '' : '该仓库不属于商品所在店铺' }));
        },
      },
    } as unknown as DataClient;
    const actor = createActor(productActionsOn(client, { picturesFailed: () => '', quotaShort: () => '', noWarehouse: '店铺没有仓库' })).start();
    render(
      <I18nextProvider i18n={createI18n('zh')}>
        <AntApp>
          <ProductActionDialog actor={actor} lang="zh" warehouses={warehouses} uploadImage={async () => ''} />
        </AntApp>
      </I18nextProvider>,
    );
    actor.send({ type: 'action.start', kind: 'stock', selection: { kind: 'ids', ids: rows.map((r) => r.id) } });
    const group = await screen.findByRole('group', { name: '各店铺的仓库' });
    expect(group).toHaveTextContent('甲店（2 个）');
    expect(group).toHaveTextContent('乙店（1 个）');
    fireEvent.change(screen.getByRole('spinbutton', { name: '库存数量' }), { target: { value: '12' } });
    // 乙店's one warehouse is chosen already; 甲店 has two, so the run waits for the seller's choice.
    expect(screen.getByRole('button', { name: /^确\s*定$/ })).toBeDisabled();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '甲店的仓库' }));
    fireEvent.click(await screen.findByTitle('深圳仓 · 102'));
    await waitFor(() => expect(screen.getByRole('button', { name: /^确\s*定$/ })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: /^确\s*定$/ }));

    await waitFor(() => expect(actor.getSnapshot().matches('outcome')).toBe(true));
    expect(calls).toEqual([
      [
        { id: '1:1', warehouseId: '102', stock: 12 },
        { id: '1:2', warehouseId: '102', stock: 12 },
      ],
      [{ id: '2:1', warehouseId: '201', stock: 12 }],
    ]);
    expect(screen.queryByTestId('product-action-failures')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('完成 3 个，失败 0 个');
    actor.stop();
  }, 60_000);
});
