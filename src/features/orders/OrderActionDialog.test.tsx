import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp, ConfigProvider } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { createActor, fromPromise } from 'xstate';
import {
  orderActionsMachine,
  type ActionSubject,
  type PrepareSubjectsInput,
  type PrepareSubjectsOutput,
  type RunChunkInput,
  type RunChunkOutput,
} from '@machines/orderActionsMachine';
import { createI18n } from '@/app/i18n';
import { OrderActionDialog } from './OrderActionDialog';

const subjects: ActionSubject[] = [
  { key: '1:P-1', ref: 'P-1', shopId: 1, shopName: '深圳数码', rowIds: ['r1'] },
  { key: '1:P-2', ref: 'P-2', shopId: 1, shopName: '深圳数码', rowIds: ['r2', 'r3'] },
  { key: '2:P-3', ref: 'P-3', shopId: 2, shopName: 'Yiwu FBS', rowIds: ['r4'] },
];

// Both shops have a warehouse of the same name: only the shop they sit under tells them apart.
const WAREHOUSES = [
  { storeId: 1, shopName: '深圳数码', warehouseId: '101', name: '义乌仓 Yiwu FBS', status: 'created' },
  { storeId: 1, shopName: '深圳数码', warehouseId: '102', name: '深圳仓', status: 'created' },
  { storeId: 2, shopName: 'Yiwu FBS', warehouseId: '201', name: '义乌仓 Yiwu FBS', status: 'created' },
];

/** The dialog on a real order-actions actor whose chunks answer as each test says. */
function renderDialog(
  answer: (input: RunChunkInput) => Promise<RunChunkOutput>,
  lang: 'zh' | 'en' = 'zh',
  prepared: PrepareSubjectsOutput = { subjects, omitted: 2 },
) {
  const runs: RunChunkInput[] = [];
  const actor = createActor(
    orderActionsMachine.provide({
      actors: {
        prepareSubjects: fromPromise<PrepareSubjectsOutput, PrepareSubjectsInput>(async () => prepared),
        runChunk: fromPromise<RunChunkOutput, RunChunkInput>(({ input }) => {
          runs.push(input);
          return answer(input);
        }),
      },
    }),
    { input: {} },
  ).start();
  render(
    <I18nextProvider i18n={createI18n(lang)}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <AntApp>
          <OrderActionDialog actor={actor} warehouses={async () => WAREHOUSES} />
        </AntApp>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return { actor, runs };
}

describe('OrderActionDialog', () => {
  it('confirms with what, how many and which shops, and needs the tracking number before it runs', async () => {
    const user = userEvent.setup();
    const { actor, runs } = renderDialog(async () => ({ status: 'done', failures: [] }));
    act(() => actor.send({ type: 'action.start', kind: 'tracking', selection: { kind: 'ids', ids: ['r1'] } }));
    const dialog = await screen.findByRole('dialog', { name: '填写运单号' });
    expect(dialog).toHaveTextContent('将为 3 个货件填写同一个运单号');
    expect(screen.getByRole('list', { name: '店铺' })).toHaveTextContent('深圳数码：2 个');
    expect(screen.getByRole('list', { name: '店铺' })).toHaveTextContent('Yiwu FBS：1 个');
    expect(dialog).toHaveTextContent('另有 2 条所选订单不在此次操作内');

    await user.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('必填')).toBeInTheDocument();
    expect(runs).toHaveLength(0);

    await user.type(screen.getByLabelText('运单号'), ' TRK-9 ');
    await user.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(actor.getSnapshot().matches('outcome')).toBe(true));
    expect(runs[0]!.params).toEqual({ trackingNumber: 'TRK-9' });
    expect(runs[0]!.subjects).toEqual(subjects);
  });

  it('sets stock over two shops with a warehouse of each shop, offered under its shop', async () => {
    const user = userEvent.setup();
    const { actor, runs } = renderDialog(async () => ({ status: 'done', failures: [] }));
    act(() => actor.send({ type: 'action.start', kind: 'stock', selection: { kind: 'ids', ids: ['r1'] } }));
    await screen.findByRole('dialog', { name: '更新库存' });
    const group = await screen.findByRole('group', { name: '各店铺的仓库' });
    expect(group).toHaveTextContent('深圳数码（2 个）');
    expect(group).toHaveTextContent('Yiwu FBS（1 个）');
    // Shop 2 has one warehouse, chosen already; shop 1 offers only its own two.
    await waitFor(() => expect(group).toHaveTextContent('义乌仓 Yiwu FBS'));
    await user.type(screen.getByLabelText('库存数量'), '7');
    await user.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('请为每个店铺选择仓库')).toBeInTheDocument();
    expect(runs).toHaveLength(0);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: '深圳数码的仓库' }));
    const listbox = await screen.findByRole('listbox');
    expect(listbox.parentElement).toHaveTextContent('深圳仓');
    expect(listbox.parentElement).not.toHaveTextContent('201');
    fireEvent.click(await screen.findByTitle('深圳仓 · 102'));
    await user.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(actor.getSnapshot().matches('outcome')).toBe(true));
    expect(runs[0]!.params).toEqual({ warehouseByShop: { 1: '102', 2: '201' }, stock: 7 });
  });

  it('shows each posting not done under its reason, and retries only those', async () => {
    const user = userEvent.setup();
    let first = true;
    const { actor, runs } = renderDialog(async () => {
      const failures = first ? [{ ref: 'P-1', reason: '该订单当前状态不能发货' }, { ref: 'P-3', reason: '该订单当前状态不能发货' }] : [];
      first = false;
      return { status: 'done', failures };
    });
    act(() => actor.send({ type: 'action.start', kind: 'ship', selection: { kind: 'ids', ids: ['r1'] } }));
    await user.click(await screen.findByRole('button', { name: '确定' }));

    const failures = await screen.findByRole('region', { name: '未完成的货件' });
    expect(failures).toHaveTextContent('该订单当前状态不能发货');
    expect(failures).toHaveTextContent('P-1、P-3');
    expect(screen.getByText('已发货 1 个货件')).toBeInTheDocument();
    expect(screen.getByText(/2 个失败/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '重试未完成的 2 个' }));
    await waitFor(() => expect(screen.getByText('已发货 3 个货件')).toBeInTheDocument());
    expect(runs[1]!.subjects.map((s) => s.ref)).toEqual(['P-1', 'P-3']);
    expect(screen.queryByRole('button', { name: /重试/ })).toBeNull();
  });

  it('counts down to fetching the labels again, and fetches now on request (en)', async () => {
    const user = userEvent.setup();
    let ready = false;
    const { actor, runs } = renderDialog(async () =>
      ready ? { status: 'done', failures: [] } : { status: 'notReady', reason: 'Ozon has not made the labels yet: try again in a minute.' },
      'en',
    );
    act(() => actor.send({ type: 'action.start', kind: 'labels', selection: { kind: 'ids', ids: ['r1'] } }));
    // Labels change nothing on Ozon: no confirm step.
    expect(await screen.findByText('Ozon has not made the labels yet: try again in a minute.')).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent(/Fetching them again by itself in (60|59) s/);

    ready = true;
    await user.click(screen.getByRole('button', { name: 'Fetch now' }));
    await waitFor(() => expect(actor.getSnapshot().matches('outcome')).toBe(true));
    expect(runs).toHaveLength(2);
  });

  it("cancels with one of Ozon's reasons, needs words for 'other', and shows Ozon's refusal per posting", { timeout: 120_000 }, async () => {
    const choices = [
      { id: 352, title: 'Товар закончился на складе продавца' },
      { id: 402, title: 'Другое (вина продавца)' },
      { id: 999, title: 'Новая причина Ozon' },
    ];
    const { actor, runs } = renderDialog(
      async () => ({ status: 'done', failures: [{ ref: 'P-3', reason: '该货件当前状态不能取消（已交运或已取消）' }] }),
      'zh',
      { subjects, omitted: 0, choices },
    );
    act(() => actor.send({ type: 'action.start', kind: 'cancel', selection: { kind: 'ids', ids: ['r1'] } }));
    const dialog = await screen.findByRole('dialog', { name: '取消货件' });
    expect(dialog).toHaveTextContent('将在Ozon取消 3 个货件');

    // Known reasons in the user's language; one Ozon added later in Ozon's words.
    fireEvent.mouseDown(screen.getByLabelText('取消原因（Ozon提供）'));
    expect(await screen.findByText('卖家仓库缺货', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Новая причина Ozon')).toBeInTheDocument();
    fireEvent.click(screen.getByText('其他原因（卖家责任）'));
    fireEvent.click(screen.getByRole('button', { name: '确认取消' }));
    expect(await screen.findByText('选择“其他原因”时请写明取消原因', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(runs).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('取消说明（发给Ozon）'), { target: { value: ' 买家要求更换地址 ' } });
    fireEvent.click(screen.getByRole('button', { name: '确认取消' }));
    await waitFor(() => expect(actor.getSnapshot().matches('outcome')).toBe(true));
    expect(runs[0]!.params).toEqual({ reasonId: 402, message: '买家要求更换地址' });
    expect(await screen.findByText('已取消 2 个货件')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '未完成的货件' })).toHaveTextContent('该货件当前状态不能取消');
  });
});
