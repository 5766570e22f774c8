import { DeleteOutlined, DownOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Dropdown, Popconfirm, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { proxy } from 'comlink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { KEY_EXPIRY_WARNING_DAYS, type Store, type SyncProgress } from '@contract/store';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import { StoreFormDialog } from './StoreFormDialog';
import { SyncStateCell } from './SyncStateCell';

type LiveProgress = Record<number, Partial<Record<SyncProgress['entity'], SyncProgress>>>;
const DAY_MS = 86_400_000;

function archivedText(t: TFunction<'store'>, n: number): string {
  return n === 0 ? t('archivedNone') : t('archived', { n });
}

function KeyExpiry({ expiresAt }: { expiresAt: number | null }) {
  const { t } = useTranslation('store');
  const formats = useFormats();
  if (expiresAt === null) return <Typography.Text type="secondary">{t('keyNoExpiry')}</Typography.Text>;
  const days = Math.ceil((expiresAt - Date.now()) / DAY_MS);
  return (
    <Space orientation="vertical" size={0}>
      <span>{formats.date.format(expiresAt)}</span>
      {days < KEY_EXPIRY_WARNING_DAYS && (
        <Tag color={days <= 0 ? 'error' : 'warning'} role="status">
          {days <= 0 ? t('keyExpired') : t('keyExpiresIn', { days })}
        </Tag>
      )}
    </Space>
  );
}

/**
 * /store/store-list: the seller's shops with their sync state (live from the 'sync.progress' pushes), key expiry
 * warnings, add / edit / re-authorize / sync now / delete, and the one-click archives of seller-tool §2.4.
 */
export function StoreListPage() {
  const { t } = useTranslation('store');
  const formats = useFormats();
  const client = useDataClient();
  const { message, modal } = App.useApp();
  const [stores, setStores] = useState<Store[]>([]);
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<number[]>([]);
  const [live, setLive] = useState<LiveProgress>({});
  const [dialog, setDialog] = useState<{ open: boolean; store: Store | null }>({ open: false, store: null });
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const load = useCallback(async () => {
    try {
      const list = await client.store.list();
      setStores(list);
      setSelected((ids) => ids.filter((id) => list.some((s) => s.id === id)));
      // The list now holds what the pushes said so far.
      setLive({});
    } catch {
      // The worker showed the reason.
    } finally {
      setLoading(false);
    }
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    // A finished entity changes counts and times the push does not carry: read the list again, once per burst.
    const reloadSoon = () => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(() => void load(), 500);
    };
    const subscription = client.subscribe(
      'push.message',
      proxy(({ message: push }) => {
        if (push.type !== 'sync.progress') return;
        const { type: _type, ...progress } = push;
        setLive((current) => ({ ...current, [progress.storeId]: { ...current[progress.storeId], [progress.entity]: progress } }));
        if (progress.status !== 'running') reloadSoon();
      }),
    );
    return () => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      void subscription.then((off) => off());
    };
  }, [client, load]);

  const act = useCallback(
    async (run: () => Promise<string>) => {
      try {
        void message.success(await run(), 5);
      } catch {
        // The worker showed the reason.
      }
      void load();
    },
    [load, message],
  );

  const confirmDelete = useCallback(
    (ids: number[], text: string) =>
      modal.confirm({
        title: text,
        okText: t('ok'),
        cancelText: t('cancel'),
        okButtonProps: { danger: true },
        onOk: () => act(async () => t('deleted', { n: ids.length === 1 ? await client.store.remove(ids[0]!) : await client.store.multiDelete(ids) })),
      }),
    [act, client, modal, t],
  );

  const columns = useMemo<TableColumnsType<Store>>(
    () => [
      {
        title: t('name'),
        dataIndex: 'name',
        width: 220,
        render: (_, store) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong>{store.name}</Typography.Text>
            <Typography.Text type="secondary">
              {t('clientId')} {store.clientId}
            </Typography.Text>
          </Space>
        ),
      },
      {
        title: t('status'),
        dataIndex: 'status',
        width: 120,
        render: (_, store) =>
          store.status === 'keyFailed' ? (
            <Tooltip title={store.statusReason}>
              <Tag color="error">{t('keyFailed')}</Tag>
            </Tooltip>
          ) : (
            <Tag color="success">{t(store.status)}</Tag>
          ),
      },
      { title: t('keyExpiry'), dataIndex: 'keyExpiresAt', width: 140, render: (_, store) => <KeyExpiry expiresAt={store.keyExpiresAt} /> },
      { title: t('sync'), key: 'sync', render: (_, store) => <SyncStateCell store={store} live={live[store.id] ?? {}} /> },
      { title: t('lastSync'), dataIndex: 'lastSyncAt', width: 170, render: (_, store) => (store.lastSyncAt === null ? t('never') : formats.time.format(store.lastSyncAt)) },
      {
        title: t('actions'),
        key: 'actions',
        width: 260,
        render: (_, store) => (
          <Space size={0} wrap>
            <Button type="link" size="small" onClick={() => setDialog({ open: true, store })}>
              {t('edit')}
            </Button>
            {store.status === 'keyFailed' ? (
              <Button type="link" size="small" onClick={() => void act(async () => (await client.store.apply(store.id), t('applied')))}>
                {t('apply')}
              </Button>
            ) : (
              <Button type="link" size="small" onClick={() => void act(async () => (await client.store.syncNow(store.id), t('syncStarted')))}>
                {t('syncNow')}
              </Button>
            )}
            <Dropdown
              menu={{
                items: [
                  { key: 'apply', label: t('apply') },
                  { key: 'down', label: t('archiveDown') },
                  { key: 'fail', label: t('archiveFail') },
                  { type: 'divider' },
                  { key: 'delete', label: t('delete'), danger: true },
                ],
                onClick: ({ key }) => {
                  if (key === 'apply') void act(async () => (await client.store.apply(store.id), t('applied')));
                  if (key === 'down')
                    modal.confirm({ title: t('archiveDownConfirm'), okText: t('ok'), cancelText: t('cancel'), onOk: () => act(async () => archivedText(t, (await client.store.removeDownToArch(store.id)).archived)) });
                  if (key === 'fail')
                    modal.confirm({ title: t('archiveFailConfirm'), okText: t('ok'), cancelText: t('cancel'), onOk: () => act(async () => archivedText(t, (await client.store.removeFailToArch(store.id)).archived)) });
                  if (key === 'delete') confirmDelete([store.id], t('deleteConfirm', { name: store.name }));
                },
              }}
            >
              <Button type="link" size="small">
                {t('more')} <DownOutlined />
              </Button>
            </Dropdown>
          </Space>
        ),
      },
    ],
    [act, client, confirmDelete, formats.time, live, modal, t],
  );

  return (
    <Card title={t('title')}>
      <Space style={{ marginBottom: 16 }} wrap>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, store: null })}>
          {t('add')}
        </Button>
        <Popconfirm
          title={t('batchDeleteConfirm', { n: selected.length })}
          okText={t('ok')}
          cancelText={t('cancel')}
          okButtonProps={{ danger: true }}
          disabled={selected.length === 0}
          onConfirm={() => act(async () => t('deleted', { n: await client.store.multiDelete(selected) }))}
        >
          <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0}>
            {t('batchDelete')}
          </Button>
        </Popconfirm>
        <Button icon={<ReloadOutlined />} onClick={() => void load()}>
          {t('refresh')}
        </Button>
      </Space>
      <Table<Store>
        rowKey="id"
        columns={columns}
        dataSource={stores}
        loading={loading}
        pagination={false}
        scroll={{ x: 1000 }}
        locale={{ emptyText: t('empty') }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), getCheckboxProps: (store) => ({ 'aria-label': `${t('selectRow')} ${store.name}` }) }}
      />
      <StoreFormDialog
        open={dialog.open}
        store={dialog.store}
        onClose={() => setDialog({ open: false, store: null })}
        onSaved={(store, added) => {
          setDialog({ open: false, store: null });
          void message.success(added ? t('added') : t('saved'), 5);
          setStores((list) => (added ? [...list, store] : list.map((s) => (s.id === store.id ? store : s))));
          void load();
        }}
      />
    </Card>
  );
}
