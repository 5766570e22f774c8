import { Alert, App, Button, Drawer, Form, Input, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_TOKEN_MAX_DAYS, CLIENT_TYPES, SOURCE_TYPES, type ApiClient, type ApiClientPage, type ApiToken, type IssuedToken } from '@contract/apiClients';
import { API_BASE, API_DOCS_PATHS, routePath } from '@contract/endpoint';
import { ORDER_ENDPOINTS } from '@contract/orders';
import type { Department, OrgRole } from '@contract/team';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { OneLine, shopNames, useSubmit, useTeamOverview } from './shared';

type Filters = { search?: string; source_type?: ApiClient['sourceType']; status?: string };
type Row = ApiClient & Record<string, unknown>;
const DAY_PRESETS = [30, 90, 180, API_TOKEN_MAX_DAYS];

/**
 * /team/api-clients: the organisation's applications (the spec's licensable systems) and their API tokens: a token is
 * issued with a role, shops and a validity, shown once, and revoked from here (contract/apiClients.ts).
 */
export function ApiClientsPage() {
  const { t } = useTranslation('apiClients');
  const { t: tt } = useTranslation('team');
  const { time } = useFormats();
  const client = useDataClient();
  const [depts, setDepts] = useState<Department[]>([]);
  const [editing, setEditing] = useState<ApiClient | 'new' | null>(null);
  const [tokensOf, setTokensOf] = useState<ApiClient | null>(null);
  const [form] = Form.useForm<Filters>();
  useEffect(() => void client.team.departments({ page: 1, rows: 1000 }).then((page) => setDepts(page.list), () => undefined), [client]);
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => {
      const { search, status, ...rest } = presentFilters(filters);
      return client.apiClients.list({ ...query, ...rest, ...(search ? { name: search } : {}), ...(status !== undefined ? { status: Number(status) } : {}) });
    },
    [client],
  );
  const list = usePagedList<Filters, ApiClient, ApiClientPage>(form, { list: [], total: 0 }, fetchPage);
  const { act } = list;
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'name', header: t('name'), cell: ({ row }) => <OneLine>{row.original.name}</OneLine> },
      { id: 'type', header: t('type'), cell: ({ row }) => t(`types.${row.original.type}`) },
      { id: 'sourceType', header: t('sourceType'), cell: ({ row }) => t(`sources.${row.original.sourceType}`) },
      { id: 'deptName', header: t('dept'), cell: ({ row }) => row.original.deptName || '—' },
      { id: 'mainConfig', header: t('mainConfig'), cell: ({ row }) => <span style={{ fontSize: 12 }}>{row.original.mainConfig.join(', ') || t('anyAddress')}</span> },
      { id: 'status', header: t('status'), cell: ({ row }) => <Tag color={row.original.status === 1 ? 'blue' : 'default'}>{row.original.status === 1 ? t('on') : t('off')}</Tag> },
      { id: 'tokens', header: t('liveTokens'), cell: ({ row }) => row.original.tokens },
      { id: 'creator', header: t('creator'), cell: ({ row }) => <OneLine>{row.original.creator || '—'}</OneLine> },
      { id: 'createTime', header: t('createTime'), cell: ({ row }) => <OneLine>{time.format(row.original.createTime)}</OneLine> },
      {
        id: 'actions',
        header: tt('actions'),
        cell: ({ row }) => (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setTokensOf(row.original)}>
              {t('tokens')}
            </Button>
            <Button size="small" type="link" onClick={() => setEditing(row.original)}>
              {tt('edit')}
            </Button>
            <Popconfirm title={t('confirmDelete', { name: row.original.name })} onConfirm={() => act(async () => void (await client.apiClients.remove(row.original.id)))}>
              <Button size="small" type="link" danger>
                {tt('delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, tt, act, client, time],
  );
  return (
    <>
      <PagedTable<Row, Filters>
        list={list as never}
        form={form}
        columns={columns}
        texts={{ loadFailed: (reason) => tt('loadFailed', { reason }), retry: tt('retry'), empty: t('empty') }}
        notice={
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 8 }}
            title={
              <span style={{ fontSize: 12 }}>
                {t('intro')}{' '}
                <a href={`${API_BASE}${API_DOCS_PATHS.page}`} target="_blank" rel="noreferrer">
                  {t('apiDocs')}
                </a>
              </span>
            }
          />
        }
        actions={
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        }
        queryFields={
          <QueryFields
            search={t('search')}
            choices={[
              { name: 'source_type', placeholder: t('allSources'), options: SOURCE_TYPES.map((value) => ({ value, label: t(`sources.${value}`) })) },
              { name: 'status', placeholder: t('allStatus'), options: [{ value: '1', label: t('on') }, { value: '0', label: t('off') }] },
            ]}
          />
        }
      />
      {editing !== null && (
        <ClientDialog
          apiClient={editing === 'new' ? null : editing}
          depts={depts}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void list.load();
          }}
        />
      )}
      {tokensOf && (
        <TokensDrawer
          apiClient={tokensOf}
          onClose={() => {
            setTokensOf(null);
            void list.load();
          }}
        />
      )}
    </>
  );
}

type ClientForm = { name: string; type: ApiClient['type']; sourceType: ApiClient['sourceType']; deptId: number | null; mainConfig: string[]; status: boolean; note: string };

function ClientDialog({ apiClient, depts, onClose }: { apiClient: ApiClient | null; depts: Department[]; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation('apiClients');
  const { t: tt } = useTranslation('team');
  const client = useDataClient();
  const submit = useSubmit();
  const [form] = Form.useForm<ClientForm>();
  const initial: ClientForm = {
    name: apiClient?.name ?? '',
    type: apiClient?.type ?? 'script',
    sourceType: apiClient?.sourceType ?? 'internal',
    deptId: apiClient?.deptId ?? null,
    mainConfig: apiClient?.mainConfig ?? [],
    status: (apiClient?.status ?? 1) === 1,
    note: apiClient?.note ?? '',
  };
  const save = async () => {
    const values = await form.validateFields();
    const body = { ...values, ...(apiClient ? { id: apiClient.id } : {}), deptId: values.deptId ?? null, status: values.status ? (1 as const) : (0 as const) };
    if (await submit(form, () => client.apiClients.save(body))) onClose(true);
  };
  return (
    <Modal open width={560} title={apiClient ? t('edit') : t('add')} okText={tt('save')} cancelText={tt('cancel')} onOk={() => void save()} onCancel={() => onClose(false)} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial} size="small">
        <Form.Item name="name" label={t('name')} rules={[{ required: true }]}>
          <Input maxLength={60} />
        </Form.Item>
        <Space align="start" wrap>
          <Form.Item name="type" label={t('type')} style={{ width: 150 }}>
            <Select options={CLIENT_TYPES.map((value) => ({ value, label: t(`types.${value}`) }))} />
          </Form.Item>
          <Form.Item name="sourceType" label={t('sourceType')} style={{ width: 150 }}>
            <Select options={SOURCE_TYPES.map((value) => ({ value, label: t(`sources.${value}`) }))} />
          </Form.Item>
          <Form.Item name="deptId" label={t('dept')} style={{ width: 180 }}>
            <Select allowClear placeholder={t('noDept')} options={depts.map((dept) => ({ value: dept.id, label: dept.name }))} />
          </Form.Item>
        </Space>
        <Form.Item name="mainConfig" label={t('mainConfig')} extra={t('addressHint')}>
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} placeholder={t('anyAddress')} />
        </Form.Item>
        <Form.Item name="status" label={t('status')} valuePropName="checked" extra={t('offHint')}>
          <Switch checkedChildren={t('on')} unCheckedChildren={t('off')} />
        </Form.Item>
        <Form.Item name="note" label={t('note')}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

type IssueForm = { name: string; roleId: number; shopIds: number[]; days: number };

/** An application's tokens: issue one (shown once), see when each expires and was last used, revoke. */
function TokensDrawer({ apiClient, onClose }: { apiClient: ApiClient; onClose: () => void }) {
  const { t } = useTranslation('apiClients');
  const { t: tt } = useTranslation('team');
  const { time } = useFormats();
  const client = useDataClient();
  const { message } = App.useApp();
  const submit = useSubmit();
  const { overview } = useTeamOverview();
  const [roles, setRoles] = useState<OrgRole[]>([]);
  const [tokens, setTokens] = useState<ApiToken[]>([]);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [form] = Form.useForm<IssueForm>();
  const load = useCallback(() => void client.apiClients.tokens(apiClient.id).then(setTokens, (failure: unknown) => void message.error(String((failure as Error).message ?? failure))), [client, apiClient.id, message]);
  useEffect(load, [load]);
  useEffect(() => void client.team.roles({ page: 1, rows: 1000 }).then((page) => setRoles(page.list), () => undefined), [client]);
  const issue = async () => {
    const values = await form.validateFields();
    await submit(form, async () => {
      const token = await client.apiClients.issue({ clientId: apiClient.id, name: values.name, roleId: values.roleId, shopIds: values.shopIds?.length ? values.shopIds : null, days: values.days });
      setIssued(token);
      form.resetFields();
      load();
    });
  };
  const revoke = async (token: ApiToken) => {
    try {
      await client.apiClients.revoke(token.id);
      load();
    } catch (failure) {
      void message.error(String((failure as Error).message ?? failure));
    }
  };
  const now = Date.now();
  const stateOf = (token: ApiToken) => (token.revokedAt !== null ? 'revoked' : token.expiresAt <= now ? 'expired' : 'active');
  const STATE_COLOURS = { active: 'green', expired: 'default', revoked: 'red' } as const;
  return (
    <Drawer open size={980} title={t('token.title', { name: apiClient.name })} onClose={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" size="small" initialValues={{ days: 90, shopIds: [] }}>
        <Space align="start" wrap>
          <Form.Item name="name" label={t('token.name')} rules={[{ required: true }]} style={{ width: 200 }}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="roleId" label={t('token.role')} rules={[{ required: true }]} extra={t('token.roleHint')} style={{ width: 200 }}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={roles.map((role) => ({ value: role.id, label: role.name }))} />
          </Form.Item>
          <Form.Item name="shopIds" label={t('token.shops')} extra={t('token.shopsHint')} style={{ width: 240 }}>
            <Select mode="multiple" allowClear optionFilterProp="label" placeholder={t('token.roleShops')} options={(overview?.shops ?? []).map((shop) => ({ value: shop.id, label: shop.name }))} />
          </Form.Item>
          <Form.Item name="days" label={t('token.days')} style={{ width: 120 }}>
            <Select options={DAY_PRESETS.map((n) => ({ value: n, label: t('token.daysN', { n }) }))} />
          </Form.Item>
          <Form.Item label=" ">
            <Button type="primary" onClick={() => void issue()}>
              {t('token.issue')}
            </Button>
          </Form.Item>
        </Space>
      </Form>
      <Table<ApiToken>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={tokens}
        locale={{ emptyText: t('token.empty') }}
        columns={[
          { key: 'name', title: t('token.name'), render: (_, token) => <OneLine>{token.name}</OneLine> },
          { key: 'prefix', title: t('token.prefix'), render: (_, token) => <Typography.Text code>{token.prefix}…</Typography.Text> },
          { key: 'role', title: t('token.role'), render: (_, token) => token.role },
          { key: 'shops', title: t('token.shops'), render: (_, token) => (token.shopIds === null ? t('token.roleShops') : shopNames(overview, token.shopIds, tt)) },
          { key: 'expiresAt', title: t('token.expiresAt'), render: (_, token) => <OneLine>{time.format(token.expiresAt)}</OneLine> },
          { key: 'lastUsedAt', title: t('token.lastUsedAt'), render: (_, token) => <OneLine>{token.lastUsedAt === null ? t('token.never') : time.format(token.lastUsedAt)}</OneLine> },
          { key: 'state', title: t('token.state'), render: (_, token) => <Tag color={STATE_COLOURS[stateOf(token)]}>{t(`token.${stateOf(token)}`)}</Tag> },
          {
            key: 'actions',
            title: tt('actions'),
            render: (_, token) =>
              stateOf(token) === 'active' && (
                <Popconfirm title={t('token.confirmRevoke', { name: token.name })} onConfirm={() => void revoke(token)}>
                  <Button size="small" type="link" danger>
                    {t('token.revoke')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      {issued && <IssuedTokenDialog issued={issued} onClose={() => setIssued(null)} />}
    </Drawer>
  );
}

/** The token itself, this once, with the call a script makes with it. */
function IssuedTokenDialog({ issued, onClose }: { issued: IssuedToken; onClose: () => void }) {
  const { t } = useTranslation('apiClients');
  const example = `curl -s -H "Authorization: Bearer ${issued.token}" '${window.location.origin}${routePath(ORDER_ENDPOINTS.list)}?page=1&rows=50'`;
  return (
    <Modal open title={t('token.shownTitle')} onCancel={onClose} closable={false} mask={{ closable: false }} footer={<Button type="primary" onClick={onClose}>{t('token.done')}</Button>} width={640}>
      <Alert type="warning" showIcon title={t('token.shownWarning')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph copyable={{ text: issued.token }} code style={{ wordBreak: 'break-all' }} data-testid="issued-token">
        {issued.token}
      </Typography.Paragraph>
      <Typography.Text type="secondary">{t('token.example')}</Typography.Text>
      <Typography.Paragraph copyable={{ text: example }} code style={{ wordBreak: 'break-all', fontSize: 12 }}>
        {example}
      </Typography.Paragraph>
    </Modal>
  );
}
