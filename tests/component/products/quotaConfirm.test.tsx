import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { createActor } from 'xstate';
import { message as catalogue } from '@contract/errors';
import { quotaResetText, type ProductLimits } from '@contract/products';
import type { DataClient } from '@workers/client';
import { createI18n } from '@/app/i18n';
import { ProductActionDialog } from '@/features/products/ProductActionDialog';
import { productActionsOn } from '@/features/products/productActions';

const RESET = '2026-11-27T00:00:00Z';
const rows = [
  ...['1:1', '1:2', '1:3'].map((id, i) => ({ id, offerId: `A-${i + 1}`, name: `甲店商品 ${i + 1}`, shopId: 1, status: 'selling' })),
  ...['2:1', '2:2'].map((id, i) => ({ id, offerId: `B-${i + 1}`, name: `乙店商品 ${i + 1}`, shopId: 2, status: 'selling' })),
];

/** Shop 1 has `left` card updates left today, shop 2 plenty; pictures are imported for every product sent. */
function fakeClient(left: number, sent: string[][]) {
  const limits: ProductLimits = [
    { shopId: 1, shopName: '甲店', dailyCreate: { limit: 1000, usage: 0, resetAt: RESET }, dailyUpdate: { limit: 2000, usage: 2000 - left, resetAt: RESET }, total: { limit: 50_000, usage: 3 }, error: null },
    { shopId: 2, shopName: '乙店', dailyCreate: { limit: 1000, usage: 0, resetAt: RESET }, dailyUpdate: { limit: 2000, usage: 10, resetAt: RESET }, total: { limit: 50_000, usage: 2 }, error: null },
  ];
  return {
    products: {
      rowsOf: async () => rows,
      limits: async () => limits,
      updateSkuImages: async (ids: string[], images: string[]) => {
        sent.push(ids);
        return ids.map((id) => ({ id, result: { id, pictures: images.map((url, i) => ({ url, state: 'imported', primary: i === 0 })) } }));
      },
    },
  } as unknown as DataClient;
}

function show(left: number, sent: string[][]) {
  const actor = createActor(
    productActionsOn(fakeClient(left, sent), {
      picturesFailed: (urls) => `无法导入：${urls.join(', ')}`,
      quotaShort: (l, need, resetAt) => catalogue('dailyUpdateLimit', 'zh', { left: String(l), need: String(need), at: quotaResetText(resetAt) }),
      noWarehouse: '',
    }),
  ).start();
  render(
    <I18nextProvider i18n={createI18n('zh')}>
      <AntApp>
        <ProductActionDialog actor={actor} lang="zh" warehouses={[]} uploadImage={async () => 'https://cdn.example.com/x.jpg'} />
      </AntApp>
    </I18nextProvider>,
  );
  actor.send({ type: 'action.start', kind: 'image', selection: { kind: 'ids', ids: rows.map((r) => r.id) } });
  return actor;
}

async function pickPicture() {
  fireEvent.change(await screen.findByRole('textbox', { name: '图片链接（https://…）' }), { target: { value: 'https://cdn.example.com/main.jpg' } });
  await userEvent.click(screen.getByRole('button', { name: /添\s*加/ }));
}

describe("the picture action against Ozon's daily update quota", () => {
  it('shows each shop against its quota, refuses the batch as it is, and sends only what fits when asked', async () => {
    const sent: string[][] = [];
    const actor = show(1, sent);
    const table = await screen.findByTestId('quota-table');
    expect(table).toHaveTextContent('甲店');
    expect(table).toHaveTextContent('1999 / 2000');
    const reason = `Ozon每日更新商品额度不足：剩余1个，本次需要3个，将于${quotaResetText(RESET)}重置`;
    expect(screen.getByText(`甲店：${reason}`)).toBeInTheDocument();
    await pickPicture();

    // The batch as it is cannot be sent: the run button offers only the products that fit, shop 1's first one and both of shop 2's.
    expect(screen.queryByRole('button', { name: /^确\s*定$/ })).toBeNull();
    const run = screen.getByRole('button', { name: '只提交额度内的 3 个' });
    await userEvent.click(run);
    await waitFor(() => expect(actor.getSnapshot().matches('outcome')).toBe(true));
    expect(sent.flat().sort()).toEqual(['1:1', '2:1', '2:2']);
    const failures = await screen.findByTestId('product-action-failures');
    expect(failures).toHaveTextContent('A-2 · 甲店商品 2');
    expect(failures).toHaveTextContent('A-3 · 甲店商品 3');
    expect(failures).toHaveTextContent(reason);
    actor.stop();
    // antd's modal, table and upload rendered in jsdom take many seconds on a loaded two-core machine.
  }, 60_000);
});

describe('an action on selected products it does not apply to', () => {
  it('says why, not that a limit was passed', async () => {
    const actor = createActor(productActionsOn(fakeClient(100, []), { picturesFailed: () => '', quotaShort: () => '', noWarehouse: '' })).start();
    render(
      <I18nextProvider i18n={createI18n('zh')}>
        <AntApp>
          <ProductActionDialog actor={actor} lang="zh" warehouses={[]} uploadImage={async () => ''} />
        </AntApp>
      </I18nextProvider>,
    );
    // None of the selected products is archived: nothing to unarchive.
    actor.send({ type: 'action.start', kind: 'unarchive', selection: { kind: 'ids', ids: ['1:1', '2:1'] } });
    await screen.findByText('所选商品都不适用此操作：不在归档中');
    expect(screen.queryByText(/超出单次上限/)).toBeNull();
  });
});
