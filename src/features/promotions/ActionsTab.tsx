import { Alert, Button, Drawer, Empty, Input, Segmented, Select, Space, Switch, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionListAnswer, ActionRow, ActionStatus } from '@contract/promotions';
import { useDataClient } from '@/app/dataClient';
import { timeFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { Money } from '@/components/money/Money';
import { ActionProductList } from './ActionProductList';
import { usePromotionActions } from './promotionActions';
import { RunDialog } from './RunDialog';

type Load = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; data: ActionListAnswer };
const STATUS_COLOR: Record<ActionStatus, string> = { running: 'green', upcoming: 'blue', ended: 'default' };
const messageOf = (error: unknown) => (typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error));

/** Every action of every shop; one action's products and candidates in a drawer. */
export function ActionsTab({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation('promotions');
  const lang = toLang(i18n.language);
  const time = timeFormat(lang);
  const client = useDataClient();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [shop, setShop] = useState<number | null>(null);
  const [status, setStatus] = useState<ActionStatus | 'all'>('all');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<ActionRow | null>(null);

  const reload = useCallback(() => {
    setLoad((current) => (current.status === 'ready' ? current : { status: 'loading' }));
    client.promotions.actions().then(
      (data) => {
        setLoad({ status: 'ready', data });
        setOpen((current) => (current ? (data.actions.find((a) => a.key === current.key) ?? current) : null));
      },
      (error: unknown) => setLoad({ status: 'failed', message: messageOf(error) }),
    );
  }, [client]);
  useEffect(reload, [reload]);

  // The action's counts read again; its lists show what Ozon took by themselves (ActionProductList).
  const actions = usePromotionActions(client, reload);

  const data = load.status === 'ready' ? load.data : null;
  const shops = useMemo(() => [...new Map((data?.actions ?? []).map((a) => [a.storeId, a.storeName])).entries()], [data]);
  const rows = useMemo(
    () =>
      (data?.actions ?? []).filter(
        (a) => (shop === null || a.storeId === shop) && (status === 'all' || a.status === status) && (!search || a.title.toLowerCase().includes(search.toLowerCase())),
      ),
    [data, shop, status, search],
  );

  // Ozon's rule from the freeze date on: no product joins or leaves (the server refuses it before sending too).
  const frozen = open !== null && open.freezeDate !== null && open.freezeDate <= Date.now();

  const setGuard = async (row: ActionRow, enabled: boolean) => {
    await client.promotions.setGuardAction({ storeId: row.storeId, actionId: row.actionId, enabled });
    reload();
  };

  const columns = [
    { key: 'shop', title: t('common.shop'), dataIndex: 'storeName', width: 170 },
    {
      key: 'title',
      title: t('actions.title'),
      width: 240,
      render: (_: unknown, a: ActionRow) => (
        <Space direction="vertical" size={0}>
          <Typography.Link onClick={() => setOpen(a)}>{a.title}</Typography.Link>
          <Typography.Text type="secondary" className="promo-small">
            {t(`actions.types.${a.type as 'DISCOUNT'}`, { defaultValue: a.type })} · #{a.actionId}
          </Typography.Text>
        </Space>
      ),
    },
    {
      key: 'dates',
      title: t('actions.dates'),
      width: 250,
      render: (_: unknown, a: ActionRow) => (
        <span className="promo-small">
          {a.dateStart === null ? t('common.none') : time.format(a.dateStart)} – {a.dateEnd === null ? t('common.none') : time.format(a.dateEnd)}
          {a.freezeDate !== null ? (
            <Tooltip title={t('actions.frozen')}>
              <Tag color="orange">❄</Tag>
            </Tooltip>
          ) : null}
        </span>
      ),
    },
    { key: 'status', title: t('actions.status'), width: 90, render: (_: unknown, a: ActionRow) => <Tag color={STATUS_COLOR[a.status]}>{t(`actions.statuses.${a.status}`)}</Tag> },
    {
      key: 'discount',
      title: t('actions.discount'),
      width: 90,
      align: 'right' as const,
      render: (_: unknown, a: ActionRow) => (a.discountValue ? (a.discountType === 'PERCENT' ? t('actions.percent', { value: a.discountValue }) : <Money amount={a.discountValue} currency={a.currency} />) : t('common.none')),
    },
    { key: 'participating', title: t('actions.participating'), dataIndex: 'participating', width: 100, align: 'right' as const },
    { key: 'candidates', title: t('actions.candidates'), dataIndex: 'candidates', width: 100, align: 'right' as const },
    {
      key: 'guard',
      title: t('actions.guard'),
      width: 120,
      render: (_: unknown, a: ActionRow) =>
        a.guarded || a.guardOff ? (
          <Switch size="small" checked={a.guarded} aria-label={`${t('actions.guard')} ${a.title}`} onChange={(checked) => void setGuard(a, checked)} />
        ) : (
          <Typography.Text type="secondary" className="promo-small">
            {t('actions.guardOffShop')}
          </Typography.Text>
        ),
    },
    { key: 'open', title: '', width: 100, render: (_: unknown, a: ActionRow) => <Button size="small" onClick={() => setOpen(a)}>{t('actions.open')}</Button> },
  ];

  return (
    <div>
      <Space wrap className="promo-toolbar">
        <Select
          style={{ width: 220 }}
          value={shop ?? 'all'}
          onChange={(value: number | 'all') => setShop(value === 'all' ? null : value)}
          options={[{ value: 'all', label: t('common.allShops') }, ...shops.map(([id, name]) => ({ value: id, label: name }))]}
          aria-label={t('common.shop')}
        />
        <Segmented
          value={status}
          onChange={(value) => setStatus(value as ActionStatus | 'all')}
          options={(['all', 'running', 'upcoming', 'ended'] as const).map((s) => ({ value: s, label: t(`actions.statuses.${s}`) }))}
        />
        <Input.Search allowClear placeholder={t('actions.searchTitle')} style={{ width: 220 }} onSearch={(value) => setSearch(value.trim())} />
        <Button onClick={reload}>{t('common.refresh')}</Button>
      </Space>
      {data?.problems.map((p) => (
        <Alert key={p.storeId} type="warning" showIcon style={{ marginBottom: 8 }} message={p.stale ? t('common.stale', { shop: p.storeName, message: p.message }) : t('common.shopProblem', { shop: p.storeName, message: p.message })} />
      ))}
      {load.status === 'failed' ? (
        <Alert type="error" showIcon message={t('common.loadFailed', { message: load.message })} action={<Button onClick={reload}>{t('common.retry')}</Button>} />
      ) : (
        <Table<ActionRow>
          size="middle"
          rowKey="key"
          loading={load.status === 'loading'}
          columns={columns}
          dataSource={rows}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (n) => t('common.total', { n }) }}
          locale={{ emptyText: <Empty description={t('actions.empty')} /> }}
        />
      )}
      <Drawer open={open !== null} width="min(1400px, calc(100vw - 120px))" title={open ? `${open.storeName} · ${open.title}` : ''} onClose={() => setOpen(null)} destroyOnHidden>
        {open ? (
          <>
            {frozen ? <Alert type="warning" showIcon style={{ marginBottom: 8 }} message={t('products.frozenNote', { date: time.format(open.freezeDate!) })} /> : null}
            {open.guarded && !frozen ? <Alert type="info" showIcon style={{ marginBottom: 8 }} message={t('products.guardNote')} /> : null}
            <Tabs
              items={(['products', 'candidates'] as const).map((view) => ({
                key: view,
                label: view === 'products' ? t('products.participating', { n: open.participating }) : t('products.candidates', { n: open.candidates }),
                children: (
                  <ActionProductList
                    key={view}
                    view={view}
                    userId={userId}
                    action={{ storeId: open.storeId, actionId: open.actionId, title: open.title, currency: open.currency }}
                    actor={actions}
                    guarded={open.guarded}
                    frozen={frozen}
                  />
                ),
              }))}
            />
          </>
        ) : null}
      </Drawer>
      <RunDialog actor={actions} subject={open?.title} />
    </div>
  );
}
