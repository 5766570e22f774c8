import { Alert, Button, Empty, Segmented, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROMOTION_ENDPOINTS, type DiscountListAnswer, type DiscountTaskRow, type DiscountView } from '@contract/promotions';
import { useDataClient } from '@/app/dataClient';
import { useGranted } from '@/app/granted';
import { useMoney } from '@/app/displayCurrency';
import { timeFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { Money } from '@/components/money/Money';
import { usePromotionActions } from './promotionActions';
import { RunDialog } from './RunDialog';

type Load = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; data: DiscountListAnswer };
const messageOf = (error: unknown) => (typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error));

/** Buyers' discount requests of every shop: approve at a price (the guard's floor applies) or decline, in bulk. */
export function DiscountsTab() {
  const { t, i18n } = useTranslation('promotions');
  const lang = toLang(i18n.language);
  const time = timeFormat(lang);
  const money = useMoney();
  const client = useDataClient();
  const [view, setView] = useState<DiscountView>('pending');
  const granted = useGranted();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [selected, setSelected] = useState<string[]>([]);

  const reload = useCallback(() => {
    setLoad({ status: 'loading' });
    setSelected([]);
    client.promotions.discounts(view).then(
      (data) => setLoad({ status: 'ready', data }),
      (error: unknown) => setLoad({ status: 'failed', message: messageOf(error) }),
    );
  }, [client, view]);
  useEffect(reload, [reload]);
  const actions = usePromotionActions(client, reload);

  const tasks = load.status === 'ready' ? load.data.tasks : [];
  const chosen = tasks.filter((task) => selected.includes(task.key));
  const start = (kind: 'approve' | 'decline') =>
    actions.send({
      type: 'action.start',
      kind,
      target: {},
      subjects: chosen.map((task) => ({
        key: task.key,
        label: `${task.storeName} · ${task.offerId} ${task.name} · ${task.customerName}`,
        data: { storeId: task.storeId, taskId: task.taskId, price: task.requestedPrice, max: task.basePrice, floor: task.floor, quantityMin: task.quantityMin, quantityMax: task.quantityMax },
      })),
    });

  const columns = [
    { key: 'shop', title: t('common.shop'), dataIndex: 'storeName', width: 150 },
    {
      key: 'product',
      title: t('discounts.product'),
      render: (_: unknown, task: DiscountTaskRow) => (
        <Space direction="vertical" size={0}>
          <Typography.Text ellipsis style={{ maxWidth: 260 }}>
            {task.name || task.offerId}
          </Typography.Text>
          <Typography.Text type="secondary" className="promo-small">
            {task.offerId} · SKU {task.sku}
          </Typography.Text>
        </Space>
      ),
    },
    {
      key: 'customer',
      title: t('discounts.customer'),
      width: 170,
      render: (_: unknown, task: DiscountTaskRow) => (
        <Space direction="vertical" size={0}>
          <span>{task.customerName}</span>
          {task.userComment ? (
            <Typography.Text type="secondary" className="promo-small">
              “{task.userComment}”
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    { key: 'base', title: t('discounts.base'), width: 100, align: 'right' as const, render: (_: unknown, task: DiscountTaskRow) => <Money amount={task.basePrice} currency={task.currency} /> },
    {
      key: 'requested',
      title: t('discounts.requested'),
      width: 150,
      align: 'right' as const,
      render: (_: unknown, task: DiscountTaskRow) => (
        <Space direction="vertical" size={0} align="end">
          <span className={task.floor !== null && task.requestedPrice < task.floor ? 'promo-below' : undefined}><Money amount={task.requestedPrice} currency={task.currency} /></span>
          {task.floor !== null && task.requestedPrice < task.floor ? <Tag color="red">{t('discounts.belowFloor', { floor: money.format(task.floor, task.currency).text })}</Tag> : null}
        </Space>
      ),
    },
    ...(view === 'decided'
      ? [{ key: 'approved', title: t('discounts.approved'), width: 100, align: 'right' as const, render: (_: unknown, task: DiscountTaskRow) => (task.approvedPrice ? <Money amount={task.approvedPrice} currency={task.currency} /> : t('common.none')) }]
      : []),
    {
      key: 'margin',
      title: (
        <Tooltip title={t('products.marginHint')}>
          <span>{t('products.margin')}</span>
        </Tooltip>
      ),
      width: 110,
      align: 'right' as const,
      render: (_: unknown, task: DiscountTaskRow) => (task.marginPercent === null ? t('common.none') : <span className={task.marginPercent < 0 ? 'promo-below' : undefined}>{task.marginPercent.toFixed(1)}%</span>),
    },
    { key: 'quantity', title: t('discounts.quantity'), width: 80, align: 'right' as const, render: (_: unknown, task: DiscountTaskRow) => (task.quantityMin === task.quantityMax ? task.quantityMin : `${task.quantityMin}–${task.quantityMax}`) },
    { key: 'createdAt', title: t('discounts.createdAt'), width: 140, render: (_: unknown, task: DiscountTaskRow) => <span className="promo-small">{time.format(task.createdAt)}</span> },
    ...(view === 'pending'
      ? [{ key: 'editTill', title: t('discounts.editTill'), width: 140, render: (_: unknown, task: DiscountTaskRow) => <span className="promo-small">{task.editedTill ? time.format(task.editedTill) : t('common.none')}</span> }]
      : []),
    {
      key: 'status',
      title: t('discounts.status'),
      width: 110,
      render: (_: unknown, task: DiscountTaskRow) => <Tag>{t(`discounts.statuses.${task.status as 'NEW'}`, { defaultValue: task.status })}</Tag>,
    },
  ];

  return (
    <div>
      <Space wrap className="promo-toolbar">
        <Segmented value={view} onChange={(value) => setView(value as DiscountView)} options={(['pending', 'decided'] as const).map((v) => ({ value: v, label: t(`discounts.views.${v}`) }))} />
        {view === 'pending' ? (
          <>
            {granted(PROMOTION_ENDPOINTS.discountApprove) && (
              <Button type="primary" disabled={chosen.length === 0} onClick={() => start('approve')}>
                {t('discounts.approve', { n: chosen.length })}
              </Button>
            )}
            {granted(PROMOTION_ENDPOINTS.discountDecline) && (
              <Button danger disabled={chosen.length === 0} onClick={() => start('decline')}>
                {t('discounts.decline', { n: chosen.length })}
              </Button>
            )}
          </>
        ) : null}
        <Button onClick={reload}>{t('common.refresh')}</Button>
      </Space>
      {load.status === 'ready'
        ? load.data.problems.map((p) => <Alert key={p.storeId} type="warning" showIcon style={{ marginBottom: 8 }} message={t('common.shopProblem', { shop: p.storeName, message: p.message })} />)
        : null}
      {load.status === 'failed' ? (
        <Alert type="error" showIcon message={t('common.loadFailed', { message: load.message })} action={<Button onClick={reload}>{t('common.retry')}</Button>} />
      ) : (
        <Table<DiscountTaskRow>
          size="middle"
          rowKey="key"
          loading={load.status === 'loading'}
          columns={columns}
          dataSource={tasks}
          rowSelection={view === 'pending' ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) } : undefined}
          pagination={{ pageSize: 50, hideOnSinglePage: true, showTotal: (n) => t('common.total', { n }) }}
          locale={{ emptyText: <Empty description={t('discounts.empty')} /> }}
        />
      )}
      <RunDialog actor={actions} />
    </div>
  );
}
