import { Alert, App, Button, Card, Form, InputNumber, Popconfirm, Select, Switch, Table, Tabs, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { OTP_ALGORITHMS, OTP_TYPES, type OrgOtpMember, type OrgOtpSettings, type OtpPolicy, type SignIn, type SignInPage } from '@contract/signin';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import { download } from '@/components/download';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { PasswordPolicyTab } from './PasswordPolicyTab';
import { CaptchaTab, MailTab, SmsTab } from './ServiceTabs';

/**
 * /team/security: the organisation's one-time password policy, who must use one, resets, its password policies, its
 * mail service and SMS account, the app's captcha, and the sign-in log.
 */
export function SecurityPage() {
  const { t } = useTranslation('security');
  const { t: ts } = useTranslation('securityServices');
  return (
    <Tabs
      items={[
        { key: 'otp', label: t('tabs.otp'), children: <OtpTab /> },
        { key: 'pswPolicy', label: t('tabs.pswPolicy'), children: <PasswordPolicyTab /> },
        { key: 'mail', label: ts('tabs.mail'), children: <MailTab /> },
        { key: 'sms', label: ts('tabs.sms'), children: <SmsTab /> },
        { key: 'captcha', label: ts('tabs.captcha'), children: <CaptchaTab /> },
        { key: 'signIns', label: t('tabs.signIns'), children: <SignInTab /> },
      ]}
    />
  );
}

type PolicyValues = OtpPolicy & { requiredRoleIds: number[] };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'object' && error && 'message' in error ? String((error as { message: unknown }).message) : String(error);
}

function OtpTab() {
  const { t } = useTranslation('security');
  const { message } = App.useApp();
  const client = useDataClient();
  const [settings, setSettings] = useState<OrgOtpSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<PolicyValues>();

  const load = useCallback(async () => {
    try {
      const answer = await client.signin.orgOtp();
      setSettings(answer);
      setError(null);
      form.setFieldsValue({ ...answer.policy, requiredRoleIds: answer.requiredRoleIds });
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, [client, form]);
  useEffect(() => void load(), [load]);

  const save = async ({ requiredRoleIds, ...policy }: PolicyValues) => {
    setSaving(true);
    try {
      setSettings(await client.signin.saveOrgOtp({ policy, requiredRoleIds }));
      void message.success(t('saved'));
    } catch {
      // The worker showed the server's reason.
    } finally {
      setSaving(false);
    }
  };
  const replaceMember = (member: OrgOtpMember) =>
    setSettings((current) => (current ? { ...current, members: current.members.map((m) => (m.id === member.id ? member : m)) } : current));
  const type = Form.useWatch('type', form);

  if (error) {
    return <Alert type="error" showIcon title={t('loadFailed', { reason: error })} action={<Button onClick={() => void load()}>{t('retry')}</Button>} />;
  }
  return (
    <div className="security-otp">
      <Card title={t('policy.title')} size="small" style={{ marginBottom: 16 }} loading={!settings}>
        <Typography.Paragraph type="secondary">{t('policy.hint')}</Typography.Paragraph>
        <Form<PolicyValues> form={form} layout="inline" onFinish={(values) => void save(values)} aria-label={t('policy.title')}>
          <Form.Item name="type" label={t('policy.type')}>
            <Select style={{ width: 180 }} options={OTP_TYPES.map((value) => ({ value, label: t(`policy.${value}`) }))} />
          </Form.Item>
          <Form.Item name="algorithm" label={t('policy.algorithm')}>
            <Select style={{ width: 110 }} options={OTP_ALGORITHMS.map((value) => ({ value, label: value }))} />
          </Form.Item>
          <Form.Item name="digits" label={t('policy.digits')}>
            <Select style={{ width: 80 }} options={[6, 7, 8].map((value) => ({ value, label: String(value) }))} />
          </Form.Item>
          {type !== 'hotp' && (
            <Form.Item name="period" label={t('policy.period')}>
              <InputNumber min={15} max={300} style={{ width: 90 }} />
            </Form.Item>
          )}
          <Form.Item name="window" label={t('policy.window')}>
            <InputNumber min={0} max={10} style={{ width: 80 }} />
          </Form.Item>
          <Form.Item name="requiredRoleIds" label={t('policy.requiredRoles')} tooltip={t('policy.requiredRolesHint')} style={{ marginTop: 12 }}>
            <Select mode="multiple" allowClear style={{ minWidth: 260 }} options={settings?.roles.map((role) => ({ value: role.id, label: role.name })) ?? []} />
          </Form.Item>
          <Form.Item style={{ marginTop: 12 }}>
            <Button type="primary" htmlType="submit" loading={saving}>
              {t('save')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <Card title={t('members.title')} size="small">
        <Table<OrgOtpMember>
          rowKey="id"
          size="small"
          loading={!settings}
          dataSource={settings?.members ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: t('empty') }}
          columns={[
            { key: 'name', title: t('members.name'), dataIndex: 'name' },
            { key: 'nickName', title: t('members.nickName'), dataIndex: 'nickName' },
            { key: 'role', title: t('members.role'), render: (_, member) => member.role || '—' },
            {
              key: 'status',
              title: t('members.status'),
              render: (_, member) => (member.enabled ? <Tag color="green">{t('members.enabled')}</Tag> : <Tag>{t('members.notEnabled')}</Tag>),
            },
            {
              key: 'required',
              title: t('members.required'),
              render: (_, member) => (
                <>
                  <Switch
                    size="small"
                    checked={member.required}
                    aria-label={`${t('members.required')} ${member.name}`}
                    onChange={(required) => void client.signin.markMember(member.id, required).then(replaceMember, () => undefined)}
                  />
                  {member.requiredByRole && (
                    <Tag color="blue" style={{ marginLeft: 8 }}>
                      {t('members.byRole')}
                    </Tag>
                  )}
                </>
              ),
            },
            {
              key: 'actions',
              title: '',
              render: (_, member) => (
                <Popconfirm
                  title={t('members.resetConfirm', { name: member.name })}
                  onConfirm={async () => {
                    await client.signin.resetMember(member.id);
                    void message.success(t('members.resetDone'));
                    await load();
                  }}
                >
                  <Button size="small" disabled={!member.enabled}>
                    {t('members.reset')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}

type SignInFilters = { search?: string; success?: 'true' | 'false' };
type SignInRow = SignIn & Record<string, unknown>;

function SignInTab() {
  const { t } = useTranslation('security');
  const { time } = useFormats();
  const client = useDataClient();
  const [form] = Form.useForm<SignInFilters>();
  const fetchPage = useCallback(
    (query: TableQuery, filters: SignInFilters) => {
      const { search, ...rest } = presentFilters(filters);
      return client.signin.signInLog({ ...query, ...rest, ...(search ? { keyword: search } : {}) });
    },
    [client],
  );
  const list = usePagedList<SignInFilters, SignIn, SignInPage>(form, { list: [], total: 0 }, fetchPage);
  const columns = useMemo(() => signInColumns(t, time.format), [t, time]);
  const exportFile = async () => {
    const { search, ...rest } = presentFilters(form.getFieldsValue());
    download('signin-log.xlsx', await client.signin.signInExport({ ...rest, ...(search ? { keyword: search } : {}) }));
  };
  return (
    <PagedTable<SignInRow, SignInFilters>
      list={list as never}
      form={form}
      columns={columns}
      actions={<Button onClick={() => void exportFile()}>{t('signIns.export')}</Button>}
      texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('empty') }}
      queryFields={
        <QueryFields
          search={t('signIns.search')}
          searchWidth={240}
          choices={[{ name: 'success', placeholder: t('signIns.allResults'), options: [{ value: 'true', label: t('signIns.success') }, { value: 'false', label: t('signIns.failure') }] }]}
        />
      }
    />
  );
}

/** The sign-in log's columns, for the console and the person's own recent sign-ins. */
export function signInColumns(t: TFunction<'security'>, formatTime: (ms: number) => string): DataTableColumn<SignInRow>[] {
  return [
    { id: 'at', header: t('signIns.at'), cell: ({ row }) => formatTime(row.original.at) },
    { id: 'user', header: t('signIns.user'), cell: ({ row }) => row.original.username },
    { id: 'event', header: t('signIns.event'), cell: ({ row }) => t(`signIns.${row.original.event}`) },
    { id: 'method', header: t('signIns.method'), cell: ({ row }) => t(`signIns.methods.${row.original.method}`) },
    {
      id: 'result',
      header: t('signIns.result'),
      cell: ({ row }) => (row.original.success ? <Tag color="green">{t('signIns.success')}</Tag> : <Tag color="red">{t('signIns.failure')}</Tag>),
    },
    { id: 'reason', header: t('signIns.reason'), cell: ({ row }) => row.original.reason || '—' },
    { id: 'ip', header: t('signIns.ip'), cell: ({ row }) => row.original.ip },
    {
      id: 'browser',
      header: t('signIns.browser'),
      cell: ({ row }) => (
        <Typography.Text style={{ maxWidth: 260, fontSize: 12 }} ellipsis={{ tooltip: row.original.browser }}>
          {row.original.browser || '—'}
        </Typography.Text>
      ),
    },
  ];
}
