import { Button, Checkbox, Form, Input, Modal, Popconfirm, Radio, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATA_SCOPES, PERMISSION_ACTIONS, type DataScope } from '@contract/access';
import type { OrgRole, RolePage, RolePreview, TeamOverview } from '@contract/team';
import { useDataClient } from '@/app/dataClient';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { OneLine, useSubmit, useTeamOverview } from './shared';

type Filters = { search?: string };
type Row = OrgRole & Record<string, unknown>;
type RoleForm = { name: string; note: string; permissions: string[]; dataScope: DataScope; shopIds: number[]; applySubDept: boolean; ownRecords: boolean };

/** /team/roles: roles as a matrix of areas and actions, with the shops they reach and a preview of what they see. */
export function RolesPage() {
  const { t } = useTranslation('team');
  const client = useDataClient();
  const { overview } = useTeamOverview();
  const [form] = Form.useForm<Filters>();
  const [editing, setEditing] = useState<OrgRole | 'new' | null>(null);
  const [preview, setPreview] = useState<{ role: OrgRole; seen: RolePreview } | null>(null);
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => {
      const { search } = presentFilters(filters);
      return client.team.roles({ ...query, ...(search ? { keyword: search } : {}) });
    },
    [client],
  );
  const list = usePagedList<Filters, OrgRole, RolePage>(form, { list: [], total: 0 }, fetchPage);
  const { act } = list;
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'name', header: t('role.name'), cell: ({ row }) => row.original.name },
      { id: 'userNum', header: t('role.userNum'), cell: ({ row }) => row.original.userNum },
      { id: 'creator', header: t('role.creator'), cell: ({ row }) => row.original.creator || '—' },
      { id: 'note', header: t('role.note'), cell: ({ row }) => row.original.note || '—' },
      { id: 'source', header: t('role.source'), cell: ({ row }) => t(`role.sources.${row.original.source}`, { defaultValue: row.original.source }) },
      { id: 'dataScope', header: t('role.dataScope'), cell: ({ row }) => t(`role.scopes.${row.original.dataScope}`) },
      { id: 'applySubDept', header: t('role.applySubDept'), cell: ({ row }) => (row.original.applySubDept ? t('yes') : t('no')) },
      {
        id: 'actions',
        header: t('actions'),
        cell: ({ row }) => (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(row.original)}>
              {t('edit')}
            </Button>
            <Button size="small" type="link" onClick={() => void client.team.rolePreview(row.original.id).then((seen) => setPreview({ role: row.original, seen }))}>
              {t('role.preview')}
            </Button>
            <Popconfirm title={t('confirmDelete', { name: row.original.name })} onConfirm={() => act(async () => void (await client.team.deleteRole(row.original.id, row.original.userNum > 0 ? null : undefined)))}>
              <Button size="small" type="link" danger>
                {t('delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, act, client],
  );
  return (
    <>
      <PagedTable<Row, Filters>
        list={list as never}
        form={form}
        columns={columns}
        texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('emptyHint.roles') }}
        actions={
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('role.add')}
          </Button>
        }
        queryFields={<QueryFields search={t('search')} />}
      />
      {editing !== null && overview && (
        <RoleDialog
          role={editing === 'new' ? null : editing}
          overview={overview}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void list.load();
          }}
        />
      )}
      {preview && (
        <Modal open title={t('role.previewTitle', { name: preview.role.name })} footer={null} onCancel={() => setPreview(null)}>
          <Typography.Title level={5}>{t('role.previewShops')}</Typography.Title>
          <Space wrap>{preview.seen.allShops ? <Tag color="blue">{t('allShops')}</Tag> : preview.seen.shops.length === 0 ? t('none') : preview.seen.shops.map((shop) => <Tag key={shop.id}>{shop.name}</Tag>)}</Space>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('role.previewAreas')}
          </Typography.Title>
          {preview.seen.areas.length === 0 ? t('none') : preview.seen.areas.map(({ area, actions }) => (
            <div key={area}>
              <b>{t(`areas.${area}`, { defaultValue: area }) as string}</b>: {actions.map((action) => t(`permActions.${action}`)).join(t('listSeparator'))}
            </div>
          ))}
        </Modal>
      )}
    </>
  );
}

function RoleDialog({ role, overview, onClose }: { role: OrgRole | null; overview: TeamOverview; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation('team');
  const client = useDataClient();
  const submit = useSubmit();
  const [form] = Form.useForm<RoleForm>();
  const [sending, setSending] = useState(false);
  const dataScope = Form.useWatch('dataScope', form);
  const initial: RoleForm = role
    ? { name: role.name, note: role.note, permissions: role.permissions, dataScope: role.dataScope, shopIds: role.shopIds, applySubDept: role.applySubDept, ownRecords: role.ownRecords }
    : { name: '', note: '', permissions: [], dataScope: 'all', shopIds: [], applySubDept: false, ownRecords: false };
  const save = async () => {
    const values = await form.validateFields();
    setSending(true);
    const ok = await submit(form, () => (role ? client.team.updateRole({ id: role.id, ...values }) : client.team.addRole(values)));
    setSending(false);
    if (ok) onClose(true);
  };
  const grantable = (permission: string) => overview.grantable === null || overview.grantable.includes(permission);
  const matrix = overview.catalogue.map((entry) => ({ key: entry.area, ...entry }));
  return (
    <Modal open width={900} title={role ? t('role.edit') : t('role.add')} okText={t('save')} cancelText={t('cancel')} confirmLoading={sending} onOk={() => void save()} onCancel={() => onClose(false)} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial}>
        <Space size={16} style={{ display: 'flex' }}>
          <Form.Item name="name" label={t('role.name')} rules={[{ required: true }]} style={{ width: 240 }}>
            <Input />
          </Form.Item>
          <Form.Item name="note" label={t('role.note')} style={{ width: 400 }}>
            <Input />
          </Form.Item>
        </Space>
        <Form.Item name="permissions" label={t('role.permissions')}>
          <Checkbox.Group style={{ width: '100%' }}>
            <Table
              size="small"
              pagination={false}
              dataSource={matrix}
              columns={[
                { title: '', dataIndex: 'area', render: (area: string) => <OneLine>{t(`areas.${area}`, { defaultValue: area })}</OneLine> },
                // A short heading each, so the ten columns fit the dialog; the whole name is its tooltip.
                ...PERMISSION_ACTIONS.map((action) => ({
                  title: (
                    <Tooltip title={t(`permActions.${action}`)}>
                      <OneLine>{t(`permShort.${action}`)}</OneLine>
                    </Tooltip>
                  ),
                  key: action,
                  render: (_: unknown, entry: (typeof matrix)[number]) =>
                    entry.actions.includes(action) ? (
                      <Checkbox
                        value={`${entry.area}:${action}`}
                        disabled={!grantable(`${entry.area}:${action}`)}
                        aria-label={`${t(`areas.${entry.area}`, { defaultValue: entry.area })} ${t(`permActions.${action}`)}`}
                      />
                    ) : null,
                })),
              ]}
            />
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="dataScope" label={t('role.dataScope')}>
          <Radio.Group options={DATA_SCOPES.map((scope) => ({ value: scope, label: t(`role.scopes.${scope}`) }))} />
        </Form.Item>
        {dataScope === 'shops' && (
          <Form.Item name="shopIds" label={t('role.shops')}>
            <Select mode="multiple" allowClear options={overview.shops.map((shop) => ({ value: shop.id, label: shop.name }))} />
          </Form.Item>
        )}
        <Form.Item name="applySubDept" valuePropName="checked">
          <Checkbox>{t('role.applySubDept')}</Checkbox>
        </Form.Item>
        <Form.Item name="ownRecords" valuePropName="checked">
          <Checkbox>{t('role.ownRecords')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
