import { Alert, App, Button, Form, Input, Space, Tag, Typography } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'wouter';
import type { CollectionItem, CollectionPage } from '@contract/collection';
import { COLLECT_SITES } from '@contract/collectSources';
import { selectCollectFailure, selectCollected, selectCollecting } from '@machines/collectionActionMachine';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { collectionActionOn } from './collectionAction';
import { ItemEditor } from './ItemEditor';
import { UploadDialog } from './UploadDialog';
import { ProxiedImage } from '@/components/picture/ProxiedImage';

type Filters = { site?: CollectionItem['site']; state?: 'mapped' | 'unmapped' | 'uploaded'; search?: string };

/**
 * /collection/collection-list: products collected from 1688 and Ozon pages (by the plugin or a pasted link), each
 * edited, mapped to an Ozon category and uploaded to shops at a template's price.
 */
export function CollectionListPage() {
  const { t } = useTranslation('collection');
  const { time } = useFormats();
  const client = useDataClient();
  const { message, modal } = App.useApp();
  const machine = useMemo(() => collectionActionOn(client), [client]);
  const actor = useActorRef(machine, appActorOptions());
  const collecting = useSelector(actor, selectCollecting);
  const collectFailure = useSelector(actor, selectCollectFailure);
  const collected = useSelector(actor, selectCollected);
  const [params] = useSearchParams();
  const focusId = Number(params.get('id')) || undefined;
  const [link, setLink] = useState('');
  const [editing, setEditing] = useState<CollectionItem | null>(null);
  const [form] = Form.useForm<Filters>();
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => client.collection.list({ page: query.page, rows: query.rows, ...presentFilters(filters) }),
    [client],
  );
  const list = usePagedList<Filters, CollectionItem, CollectionPage>(form, { list: [], total: 0 }, fetchPage);
  const { load, act, selected } = list;

  // A collected product shows at once, and a link from the plugin (?id=) opens its editor.
  useEffect(() => {
    if (!collected) return;
    void message.success(t(collected.created ? 'collected' : 'recollected', { title: collected.item.title }));
    setLink('');
    void load();
  }, [collected, load, message, t]);
  useEffect(() => {
    if (!focusId) return;
    void client.collection.list({ id: focusId }).then((answer) => answer.list[0] && setEditing(answer.list[0]), () => undefined);
  }, [client, focusId]);

  const columns = useMemo<DataTableColumn<CollectionItem>[]>(
    () => [
      { id: 'image', header: t('columns.image'), cell: ({ row }) => (row.original.images[0] ? <ProxiedImage src={row.original.images[0]} width={56} height={56} style={{ borderRadius: 4 }} /> : null) },
      {
        id: 'title',
        header: t('columns.title'),
        cell: ({ row }) => (
          <Space direction="vertical" size={0} style={{ maxWidth: 340 }}>
            <Typography.Link onClick={() => setEditing(row.original)} ellipsis style={{ maxWidth: 340 }} title={row.original.title}>
              {row.original.title}
            </Typography.Link>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {row.original.attributes.slice(0, 3).map((a) => `${a.name}: ${a.value}`).join(' · ')}
            </Typography.Text>
          </Space>
        ),
      },
      {
        id: 'source',
        header: t('columns.source'),
        cell: ({ row }) => (
          <Space size={4}>
            <Tag color={row.original.site === '1688' ? 'orange' : 'blue'}>{t(`sites.${row.original.site}`)}</Tag>
            <Typography.Link href={row.original.url} target="_blank" rel="noreferrer noopener" title={t('sourceLink')}>
              <LinkOutlined />
            </Typography.Link>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(`via.${row.original.via}`)}</Typography.Text>
          </Space>
        ),
      },
      { id: 'price', header: t('columns.price'), cell: ({ row }) => `${row.original.price} ${row.original.currency}` },
      {
        id: 'variants',
        header: t('columns.variants'),
        cell: ({ row }) =>
          row.original.variants.length
            ? t('variantsCount', { selected: row.original.variants.filter((v) => v.selected).length, total: row.original.variants.length })
            : t('noVariants'),
      },
      {
        id: 'category',
        header: t('columns.category'),
        cell: ({ row }) => (row.original.typeId ? <Tag color="green">{t('mapped')}</Tag> : <Tag>{t('unmapped')}</Tag>),
      },
      { id: 'uploads', header: t('columns.uploads'), cell: ({ row }) => (row.original.uploads ? `${row.original.uploads} · ${t(`history.statuses.${row.original.lastStatus ?? 'importing'}`)}` : '—') },
      { id: 'createdAt', header: t('columns.collectedAt'), cell: ({ row }) => time.format(row.original.createdAt) },
      { id: 'actions', header: t('columns.actions'), cell: ({ row }) => <Button size="small" onClick={() => setEditing(row.original)}>{t('edit')}</Button> },
    ],
    [t, time],
  );

  const remove = () =>
    modal.confirm({
      content: t('deleteConfirm', { count: selected.length }),
      onOk: () =>
        act(async () => {
          const count = await client.collection.remove(selected.map((r) => r.id));
          void message.success(t('deleted', { count }));
        }),
    });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space.Compact style={{ width: '100%', maxWidth: 820 }}>
        <Input
          aria-label={t('link')}
          allowClear
          placeholder={t('linkPlaceholder')}
          value={link}
          disabled={collecting}
          onChange={(e) => setLink(e.target.value)}
          onPressEnter={() => actor.send({ type: 'collect.start', url: link })}
        />
        <Button type="primary" loading={collecting} disabled={!link.trim()} onClick={() => actor.send({ type: 'collect.start', url: link })}>
          {collecting ? t('collecting') : t('collect')}
        </Button>
      </Space.Compact>
      <Typography.Text type="secondary">
        {t('pluginHint')} <Link href="/plugin/download">{t('pluginDownload')}</Link>
      </Typography.Text>
      {collectFailure !== null && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => actor.send({ type: 'action.close' })}
          message={t('collectFailed', { reason: collectFailure })}
          action={<Button size="small" onClick={() => actor.send({ type: 'action.retry' })}>{t('retry')}</Button>}
        />
      )}
      <PagedTable<CollectionItem, Filters>
        list={list}
        form={form}
        columns={columns}
        selectable
        texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('empty') }}
        actions={
          <Space wrap>
            <Button type="primary" disabled={selected.length === 0} onClick={() => actor.send({ type: 'action.start', ids: selected.map((s) => s.id) })}>
              {t('upload', { count: selected.length })}
            </Button>
            <Button danger disabled={selected.length === 0} onClick={remove}>
              {t('delete', { count: selected.length })}
            </Button>
          </Space>
        }
        queryFields={
          <QueryFields
            search={t('search')}
            choices={[
              { name: 'site', placeholder: t('allSites'), width: 120, options: COLLECT_SITES.map((s) => ({ value: s, label: t(`sites.${s}`) })) },
              { name: 'state', placeholder: t('allStates'), options: (['unmapped', 'mapped', 'uploaded'] as const).map((s) => ({ value: s, label: t(`states.${s}`) })) },
            ]}
          />
        }
      />
      {editing && (
        <ItemEditor
          item={editing}
          onClose={() => setEditing(null)}
          onSaved={(item) => {
            setEditing(item);
            void load();
          }}
        />
      )}
      <UploadDialog actor={actor} items={selected} onDone={() => void load()} />
    </Space>
  );
}
