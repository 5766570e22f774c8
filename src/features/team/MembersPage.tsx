import { Button, Checkbox, Form, Input, Modal, Popconfirm, Select, Space, Tag, Tooltip } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MEMBER_STATUSES, type Department, type Member, type MemberPage, type OrgRole, type Position } from '@contract/team';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { OneLine, QuotaCard, shopNames, useSubmit, useTeamOverview } from './shared';

type Filters = { search?: string; status?: 'enabled' | 'disabled' };
type Row = Member & Record<string, unknown>;
type MemberForm = {
  username: string;
  password?: string;
  nickName: string;
  email?: string;
  roleId: number | null;
  deptId: number | null;
  positionId: number | null;
  byRole: boolean;
  shopIds: number[];
  status: 'enabled' | 'disabled';
};

/** /team/members: the organisation's staff logins, each with a role, a department, a position and shops. */
export function MembersPage() {
  const { t } = useTranslation('team');
  const { time } = useFormats();
  const client = useDataClient();
  const { overview, reload } = useTeamOverview();
  const [form] = Form.useForm<Filters>();
  const [editing, setEditing] = useState<Member | 'new' | null>(null);
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => {
      const { search, ...rest } = presentFilters(filters);
      return client.team.members({ ...query, ...rest, ...(search ? { keyword: search } : {}) });
    },
    [client],
  );
  const list = usePagedList<Filters, Member, MemberPage>(form, { list: [], total: 0 }, fetchPage);
  const { act } = list;
  // The plan's member quota used up: adding is refused by the server, so the button says why instead.
  const full = overview !== null && overview.members.limit >= 0 && overview.members.used >= overview.members.limit ? t('quota.full', { limit: overview.members.limit }) : null;

  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'name', header: t('member.username'), cell: ({ row }) => <OneLine>{row.original.name}</OneLine> },
      { id: 'nickName', header: t('member.nickName'), cell: ({ row }) => <OneLine>{row.original.nickName || '—'}</OneLine> },
      { id: 'role', header: t('member.role'), cell: ({ row }) => row.original.role || t('role.noRole') },
      { id: 'department', header: t('member.department'), cell: ({ row }) => <OneLine>{row.original.department || '—'}</OneLine> },
      { id: 'position', header: t('member.position'), cell: ({ row }) => <OneLine>{row.original.position || '—'}</OneLine> },
      { id: 'strategy', header: t('member.strategy'), cell: ({ row }) => shopNames(overview, row.original.strategy, t) },
      {
        id: 'status',
        header: t('member.status'),
        cell: ({ row }) => <Tag color={row.original.status === 'enabled' ? 'green' : 'default'}>{t(`member.${row.original.status}`)}</Tag>,
      },
      { id: 'createTime', header: t('member.createTime'), cell: ({ row }) => <OneLine>{time.format(row.original.createTime)}</OneLine> },
      { id: 'lastSeenAt', header: t('member.lastSeenAt'), cell: ({ row }) => (row.original.lastSeenAt === null ? '—' : time.format(row.original.lastSeenAt)) },
      {
        id: 'actions',
        header: t('actions'),
        cell: ({ row }) => (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(row.original)}>
              {t('edit')}
            </Button>
            <Popconfirm
              title={t('confirmDelete', { name: row.original.name })}
              onConfirm={() => act(async () => void (await client.team.deleteMembers([row.original.id]))).then(reload)}
            >
              <Button size="small" type="link" danger>
                {t('delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, time, overview, act, client, reload],
  );

  return (
    <>
      <QuotaCard overview={overview} />
      <PagedTable<Row, Filters>
        list={list as never}
        form={form}
        columns={columns}
        texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('emptyHint.members') }}
        actions={
          <Tooltip title={full}>
            <Button type="primary" disabled={full !== null} onClick={() => setEditing('new')}>
              {t('member.add')}
            </Button>
          </Tooltip>
        }
        queryFields={
          <QueryFields search={t('search')} choices={[{ name: 'status', placeholder: t('member.allStatuses'), options: MEMBER_STATUSES.map((s) => ({ value: s, label: t(`member.${s}`) })) }]} />
        }
      />
      {editing !== null && (
        <MemberDialog
          member={editing === 'new' ? null : editing}
          shops={overview?.shops ?? []}
          onClose={(saved) => {
            setEditing(null);
            if (saved) {
              void list.load();
              reload();
            }
          }}
        />
      )}
    </>
  );
}

function MemberDialog({ member, shops, onClose }: { member: Member | null; shops: { id: number; name: string }[]; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation('team');
  const client = useDataClient();
  // Read when the dialog opens, so a role, department or position just added in another tab is there to choose.
  const [choices, setChoices] = useState<{ roles: OrgRole[]; depts: Department[]; positions: Position[] }>({ roles: [], depts: [], positions: [] });
  useEffect(() => {
    void Promise.all([client.team.roles({ page: 1, rows: 1000 }), client.team.departments({ page: 1, rows: 1000 }), client.team.positions({ page: 1, rows: 1000 })]).then(
      ([roles, depts, positions]) => setChoices({ roles: roles.list, depts: depts.list, positions: positions.list }),
      () => undefined,
    );
  }, [client]);
  const submit = useSubmit();
  const [form] = Form.useForm<MemberForm>();
  const [sending, setSending] = useState(false);
  const byRole = Form.useWatch('byRole', form);
  const initial: MemberForm = member
    ? { username: member.name, nickName: member.nickName, roleId: member.roleId, deptId: member.deptId, positionId: member.positionId, byRole: member.shopIds === null, shopIds: member.shopIds ?? [], status: member.status }
    : { username: '', password: '', nickName: '', roleId: null, deptId: null, positionId: null, byRole: false, shopIds: [], status: 'enabled' };
  const save = async () => {
    const values = await form.validateFields();
    const fields = {
      nickName: values.nickName,
      roleId: values.roleId ?? null,
      deptId: values.deptId ?? null,
      positionId: values.positionId ?? null,
      shopIds: values.byRole ? null : values.shopIds,
      status: values.status,
    };
    setSending(true);
    const ok = await submit(form, () =>
      member
        ? client.team.updateMember({ id: member.id, ...fields, ...(values.password ? { password: values.password } : {}) })
        : client.team.addMember({ username: values.username, password: values.password ?? '', ...fields, ...(values.email?.trim() ? { email: values.email.trim() } : {}) }),
    );
    setSending(false);
    if (ok) onClose(true);
  };
  const options = <T extends { id: number }>(rows: T[], label: (row: T) => string) => rows.map((row) => ({ value: row.id, label: label(row) }));
  return (
    <Modal open title={member ? t('member.edit') : t('member.add')} okText={t('save')} cancelText={t('cancel')} confirmLoading={sending} onOk={() => void save()} onCancel={() => onClose(false)} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item name="username" label={t('member.username')} rules={[{ required: true }]}>
          <Input disabled={member !== null} autoComplete="off" />
        </Form.Item>
        <Form.Item name="password" label={t('member.password')} rules={member ? [] : [{ required: true }]} extra={member ? t('member.passwordKeep') : undefined}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="nickName" label={t('member.nickName')}>
          <Input />
        </Form.Item>
        {member === null && (
          <Form.Item name="email" label={t('member.email')} extra={t('member.emailHint')} rules={[{ type: 'email' }]}>
            <Input autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item name="roleId" label={t('member.role')}>
          <Select allowClear options={options(choices.roles, (role) => role.name)} />
        </Form.Item>
        <Form.Item name="deptId" label={t('member.department')}>
          <Select allowClear options={options(choices.depts, (dept) => dept.name)} />
        </Form.Item>
        <Form.Item name="positionId" label={t('member.position')}>
          <Select allowClear options={options(choices.positions, (position) => position.position_name)} />
        </Form.Item>
        <Form.Item name="byRole" valuePropName="checked">
          <Checkbox>{t('member.shopsByRole')}</Checkbox>
        </Form.Item>
        {!byRole && (
          <Form.Item name="shopIds" label={t('member.shops')}>
            <Select mode="multiple" allowClear aria-label={t('member.shops')} options={options(shops, (shop) => shop.name)} />
          </Form.Item>
        )}
        <Form.Item name="status" label={t('member.status')}>
          <Select options={MEMBER_STATUSES.map((status) => ({ value: status, label: t(`member.${status}`) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
