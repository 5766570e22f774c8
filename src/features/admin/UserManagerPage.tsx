import { App as AntApp, Button, Card, Checkbox, Form, Input, Modal, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '@contract/admin';
import { ROLES } from '@contract/session';
import { DataTable, type DataTableColumn } from '@/components/data-table/DataTable';
import type { TableQuery } from '@/components/data-table/pager';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import './admin.css';

const VALIDITY_KEYS = ['followValidTime', 'plugValidTime', 'searchWordValidTime', 'keyWordValidTime'] as const;
type ValidityKey = (typeof VALIDITY_KEYS)[number];
type Row = AdminUser & Record<string, unknown>;
type Filters = { search: string; role?: string; status?: 'active' | 'expired' };

type UserForm = {
  username?: string;
  password?: string;
  roles: string[];
  introduction: string;
  isAp: boolean;
} & Record<ValidityKey, string>;

/** yyyy-mm-dd for a date input; validity runs to the end of that day (China time). */
function toDateInput(time: number | null): string {
  return time === null ? '' : new Date(time + 8 * 3_600_000).toISOString().slice(0, 10);
}
function fromDateInput(value: string): number | null {
  return value ? Date.parse(`${value}T23:59:59+08:00`) : null;
}

/** The administrator's user manager (spec §2.1, §7): search and paging, add, update, delete, roles, validity, password reset. */
export function UserManagerPage() {
  const { t } = useTranslation(['admin', 'shell']);
  const formats = useFormats();
  const client = useDataClient();
  const { message } = AntApp.useApp();
  const [page, setPage] = useState<{ list: Row[]; total: number }>({ list: [], total: 0 });
  const [filters, setFilters] = useState<Filters>({ search: '' });
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const lastQuery = useRef<TableQuery>({ page: 1, rows: 20 });
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  const refresh = (query: TableQuery = lastQuery.current) => {
    lastQuery.current = query;
    const { search, role, status } = filtersRef.current;
    client.admin
      .listUsers({ ...query, search: search || undefined, role, status })
      .then((data) => setPage({ list: data.list as Row[], total: data.total }))
      .catch(() => undefined);
  };

  const remove = async (user: AdminUser) => {
    const { deleted } = await client.admin.deleteUsers([user.id]);
    void message.success(t('users.deleted', { count: deleted }));
    refresh();
  };

  const columns: DataTableColumn<Row>[] = [
    { id: 'name', header: t('users.username'), cell: ({ row }) => row.original.name },
    {
      id: 'roles',
      header: t('users.roles'),
      cell: ({ row }) =>
        row.original.roles.length === 0 ? (
          <Tag>{t('shell:role.common')}</Tag>
        ) : (
          <span className="admin-tags">
            {row.original.roles.map((role) => (
              <Tag key={role} color={role === 'admin' ? 'gold' : 'blue'}>
                {t(`shell:role.${role}`)}
              </Tag>
            ))}
          </span>
        ),
    },
    ...VALIDITY_KEYS.map(
      (key): DataTableColumn<Row> => ({
        id: key,
        header: t(`shell:validity.${key}`),
        cell: ({ row }) => {
          const time = row.original[key];
          if (time === null) return <span className="admin-muted">{t('shell:common.notSet')}</span>;
          return time < Date.now() ? <Tag color="default">{t('shell:common.expired')}</Tag> : formats.date.format(time);
        },
      }),
    ),
    {
      id: 'lastLoginAt',
      header: t('users.lastLoginAt'),
      cell: ({ row }) => (row.original.lastLoginAt ? formats.time.format(row.original.lastLoginAt) : t('users.never')),
    },
    {
      id: 'actions',
      header: t('users.actions'),
      cell: ({ row }) => (
        <Space size={4} className="admin-actions">
          <Button size="small" type="link" onClick={() => setEditing(row.original)} aria-label={`${t('shell:common.edit')} ${row.original.name}`}>
            {t('shell:common.edit')}
          </Button>
          <Button size="small" type="link" onClick={() => setResetting(row.original)}>
            {t('users.resetPassword')}
          </Button>
          <Popconfirm title={t('users.confirmDelete', { names: row.original.name })} onConfirm={() => void remove(row.original).catch(() => undefined)}>
            <Button size="small" type="link" danger aria-label={`${t('users.delete')} ${row.original.name}`}>
              {t('users.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('shell:route.userManager')}
      extra={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('users.add')}
        </Button>
      }
    >
      <DataTable<Row>
        columns={columns}
        rows={page.list}
        total={page.total}
        refresh={refresh}
        onReset={() => setFilters({ search: '' })}
        queryFields={
          <>
            {/* Filter fields have no form name, so their labels are tied to the inputs by hand. */}
            <Form.Item label={t('users.search')} htmlFor="user-filter-search">
              <Input id="user-filter-search" value={filters.search} allowClear onChange={(event) => setFilters({ ...filters, search: event.target.value })} />
            </Form.Item>
            <Form.Item label={t('users.role')} htmlFor="user-filter-role">
              <Select
                id="user-filter-role"
                allowClear
                style={{ width: 140 }}
                value={filters.role}
                onChange={(role?: string) => setFilters({ ...filters, role })}
                options={[...ROLES, 'common'].map((role) => ({ value: role, label: t(`shell:role.${role}` as 'shell:role.admin') }))}
              />
            </Form.Item>
            <Form.Item label={t('users.status')} htmlFor="user-filter-status">
              <Select
                id="user-filter-status"
                allowClear
                style={{ width: 110 }}
                value={filters.status}
                onChange={(status?: 'active' | 'expired') => setFilters({ ...filters, status })}
                options={[
                  { value: 'active', label: t('users.active') },
                  { value: 'expired', label: t('users.expired') },
                ]}
              />
            </Form.Item>
          </>
        }
      />
      {editing && (
        <UserDialog
          user={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void message.success(t('users.saved'));
            refresh();
          }}
        />
      )}
      {resetting && <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />}
    </Card>
  );
}

function UserDialog({ user, onClose, onSaved }: { user: AdminUser | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(['admin', 'shell']);
  const client = useDataClient();
  const [form] = Form.useForm<UserForm>();
  const [saving, setSaving] = useState(false);
  const initial: UserForm = {
    roles: user?.roles ?? [],
    introduction: user?.introduction ?? '',
    isAp: user?.isAp ?? false,
    followValidTime: toDateInput(user?.followValidTime ?? null),
    plugValidTime: toDateInput(user?.plugValidTime ?? null),
    searchWordValidTime: toDateInput(user?.searchWordValidTime ?? null),
    keyWordValidTime: toDateInput(user?.keyWordValidTime ?? null),
  };
  const save = async (values: UserForm) => {
    const validity = Object.fromEntries(VALIDITY_KEYS.map((key) => [key, fromDateInput(values[key])])) as Record<ValidityKey, number | null>;
    const roles = values.roles as AdminUser['roles'];
    setSaving(true);
    try {
      if (user) await client.admin.updateUser({ id: user.id, roles, introduction: values.introduction, isAp: values.isAp, ...validity });
      else
        await client.admin.addUser({
          username: values.username ?? '',
          password: values.password ?? '',
          roles,
          introduction: values.introduction,
          isAp: values.isAp,
          ...validity,
        });
      onSaved();
    } catch {
      // The worker already showed the server's message.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={user ? `${t('users.edit')}：${user.name}` : t('users.add')}
      onCancel={onClose}
      okText={t('shell:common.save')}
      cancelText={t('shell:common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(values) => void save(values)}>
        {!user && (
          <>
            <Form.Item name="username" label={t('users.username')} rules={[{ required: true, pattern: /^[\w.\-\u4e00-\u9fa5]{3,32}$/, message: t('users.usernamePolicy') }]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item name="password" label={t('users.password')} rules={[{ required: true, pattern: /^(?=.*[A-Za-z])(?=.*\d).{8,64}$/, message: t('users.passwordPolicy') }]}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </>
        )}
        <Form.Item name="roles" label={t('users.roles')}>
          <Checkbox.Group options={ROLES.map((role) => ({ value: role, label: t(`shell:role.${role}`) }))} />
        </Form.Item>
        <Space wrap>
          {VALIDITY_KEYS.map((key) => (
            <Form.Item key={key} name={key} label={t(`shell:validity.${key}`)}>
              <Input type="date" />
            </Form.Item>
          ))}
        </Space>
        <Form.Item name="introduction" label={t('users.introduction')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Form.Item name="isAp" label={t('users.isAp')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation(['admin', 'shell']);
  const client = useDataClient();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ newPassword: string }>();
  return (
    <Modal
      open
      title={`${t('users.resetPassword')}：${user.name}`}
      onCancel={onClose}
      okText={t('shell:common.save')}
      cancelText={t('shell:common.cancel')}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={({ newPassword }) =>
          void client.admin
            .resetPassword({ id: user.id, newPassword })
            .then(() => {
              void message.success(t('users.passwordReset'));
              onClose();
            })
            .catch(() => undefined)
        }
      >
        <Form.Item name="newPassword" label={t('users.newPassword')} rules={[{ required: true, pattern: /^(?=.*[A-Za-z])(?=.*\d).{8,64}$/, message: t('users.passwordPolicy') }]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
