import { Alert, App, Button, Checkbox, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectIsAdmin } from '@machines/sessionMachine';
import { message as catalogue } from '@contract/errors';
import { NO_POLICY, PASSWORD_FLOOR, ruleText, type PasswordPolicy, type PasswordPolicyPage, type PasswordRules, type PolicyScope } from '@contract/passwordPolicy';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';

type Filters = { search?: string };
type Row = PasswordPolicy & Record<string, unknown>;
type PolicyForm = { name: string; scope: PolicyScope; status: boolean; rules: PasswordRules };

const CONTAIN = ['upper', 'lower', 'special'] as const;
const NOT_CONTAIN = ['notUsername', 'notEmail', 'notPhone', 'notCommon'] as const;

/** The password policies (the spec's name, pswContain, pswNotContain, pswValidPeriod, creator, createTime, status). */
export function PasswordPolicyTab() {
  const { t, i18n } = useTranslation('security');
  const lang = toLang(i18n.language);
  const { time } = useFormats();
  const client = useDataClient();
  const [form] = Form.useForm<Filters>();
  const [editing, setEditing] = useState<PasswordPolicy | 'new' | null>(null);
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => {
      const { search } = presentFilters(filters);
      return client.signin.passwordPolicies({ ...query, ...(search ? { keyword: search } : {}) });
    },
    [client],
  );
  const list = usePagedList<Filters, PasswordPolicy, PasswordPolicyPage>(form, { list: [], total: 0 }, fetchPage);
  const { act } = list;
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'name', header: t('pswPolicy.name'), cell: ({ row }) => row.original.name },
      {
        id: 'scope',
        header: t('pswPolicy.scope'),
        cell: ({ row }) => (row.original.scope === 'app' ? <Tag color="blue">{t('pswPolicy.scopeApp')}</Tag> : <Tag>{t('pswPolicy.scopeOrg')}</Tag>),
      },
      {
        id: 'pswContain',
        header: t('pswPolicy.pswContain'),
        cell: ({ row }) => {
          const rules = row.original.rules;
          return [ruleText('length', rules, lang), ...CONTAIN.filter((key) => rules[key]).map((key) => t(`pswPolicy.${key}`))].join(' · ');
        },
      },
      {
        id: 'pswNotContain',
        header: t('pswPolicy.pswNotContain'),
        cell: ({ row }) => NOT_CONTAIN.filter((key) => row.original.rules[key]).map((key) => t(`pswPolicy.${key}`)).join(' · ') || '—',
      },
      {
        id: 'pswValidPeriod',
        header: t('pswPolicy.pswValidPeriod'),
        cell: ({ row }) => (row.original.pswValidPeriod > 0 ? t('pswPolicy.days', { n: row.original.pswValidPeriod }) : t('pswPolicy.forever')),
      },
      { id: 'creator', header: t('pswPolicy.creator'), cell: ({ row }) => row.original.creator || '—' },
      { id: 'createTime', header: t('pswPolicy.createTime'), cell: ({ row }) => time.format(row.original.createTime) },
      {
        id: 'status',
        header: t('pswPolicy.status'),
        cell: ({ row }) => (row.original.status === 1 ? <Tag color="green">{t('pswPolicy.on')}</Tag> : <Tag>{t('pswPolicy.off')}</Tag>),
      },
      {
        id: 'actions',
        header: t('pswPolicy.actions'),
        cell: ({ row }) =>
          row.original.editable ? (
            <Space>
              <Button size="small" type="link" onClick={() => setEditing(row.original)}>
                {t('pswPolicy.edit')}
              </Button>
              <Popconfirm
                title={t('pswPolicy.confirmDelete', { name: row.original.name })}
                onConfirm={() => act(async () => void (await client.signin.deletePasswordPolicies([row.original.id])))}
              >
                <Button size="small" type="link" danger>
                  {t('pswPolicy.delete')}
                </Button>
              </Popconfirm>
            </Space>
          ) : null,
      },
    ],
    [t, lang, time, act, client],
  );
  return (
    <>
      <Alert type="info" showIcon title={t('pswPolicy.hint')} style={{ marginBottom: 12 }} />
      <PagedTable<Row, Filters>
        list={list as never}
        form={form}
        columns={columns}
        texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('empty') }}
        actions={
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('pswPolicy.add')}
          </Button>
        }
        queryFields={<QueryFields search={t('pswPolicy.search')} />}
      />
      {editing !== null && (
        <PolicyDialog
          policy={editing === 'new' ? null : editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void list.load();
          }}
        />
      )}
    </>
  );
}

/** A policy's form: each field refused with its reason, here as the server refuses it. */
function PolicyDialog({ policy, onClose }: { policy: PasswordPolicy | null; onClose: (saved: boolean) => void }) {
  const { t, i18n } = useTranslation(['security', 'shell']);
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const { message } = App.useApp();
  const admin = SessionContext.useSelector(selectIsAdmin);
  const [form] = Form.useForm<PolicyForm>();
  const [saving, setSaving] = useState(false);
  const initial: PolicyForm = policy
    ? { name: policy.name, scope: policy.scope, status: policy.status === 1, rules: policy.rules }
    : { name: '', scope: 'org', status: true, rules: { ...NO_POLICY, minLength: 10, upper: true, lower: true, notUsername: true, notCommon: true } };
  const validDays = Form.useWatch(['rules', 'validDays'], form) ?? initial.rules.validDays;
  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await client.signin.savePasswordPolicy({
        ...(policy ? { id: policy.id } : {}),
        name: values.name,
        scope: values.scope,
        status: values.status ? 1 : 0,
        rules: { ...NO_POLICY, ...values.rules },
      });
      onClose(true);
    } catch (failure) {
      // The server's reason against the field it names ("rules.minLength"), or as a message.
      const text = isApiFailure(failure) ? failure.message : String(failure);
      const field = isApiFailure(failure) ? failure.field : undefined;
      if (field) form.setFields([{ name: field.split('.') as never, errors: [text] }]);
      else void message.error(text);
    } finally {
      setSaving(false);
    }
  };
  const days = (key: 'policyValidDays' | 'policyWarnDays' | 'policyHistory', max: number) => [{ type: 'number' as const, min: 0, max, message: catalogue(key, lang) }];
  return (
    <Modal
      open
      title={policy ? t('pswPolicy.edit') : t('pswPolicy.add')}
      okText={t('save')}
      cancelText={t('pswPolicy.cancel')}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} aria-label={policy ? t('pswPolicy.edit') : t('pswPolicy.add')}>
        <Form.Item name="name" label={t('pswPolicy.name')} rules={[{ required: true, whitespace: true, message: t('shell:common.required', { field: t('pswPolicy.name') }) }]}>
          <Input maxLength={60} />
        </Form.Item>
        {admin && (
          <Form.Item name="scope" label={t('pswPolicy.scope')} extra={t('pswPolicy.scopeAppHint')}>
            <Select
              disabled={policy !== null}
              options={[
                { value: 'org', label: t('pswPolicy.scopeOrg') },
                { value: 'app', label: t('pswPolicy.scopeApp') },
              ]}
            />
          </Form.Item>
        )}
        <Form.Item
          name={['rules', 'minLength']}
          label={t('pswPolicy.minLength')}
          extra={t('pswPolicy.alwaysRequired')}
          rules={[{ required: true, type: 'number', min: PASSWORD_FLOOR.minLength, max: PASSWORD_FLOOR.maxLength, message: catalogue('policyMinLength', lang) }]}
        >
          <InputNumber />
        </Form.Item>
        <Form.Item label={t('pswPolicy.pswContain')}>
          <Space wrap>
            {CONTAIN.map((key) => (
              <Form.Item key={key} name={['rules', key]} valuePropName="checked" noStyle>
                <Checkbox>{t(`pswPolicy.${key}`)}</Checkbox>
              </Form.Item>
            ))}
          </Space>
        </Form.Item>
        <Form.Item label={t('pswPolicy.pswNotContain')}>
          <Space wrap>
            {NOT_CONTAIN.map((key) => (
              <Form.Item key={key} name={['rules', key]} valuePropName="checked" noStyle>
                <Checkbox>{t(`pswPolicy.${key}`)}</Checkbox>
              </Form.Item>
            ))}
          </Space>
        </Form.Item>
        <Space wrap align="start">
          <Form.Item name={['rules', 'validDays']} label={t('pswPolicy.validDays')} rules={days('policyValidDays', 3650)}>
            <InputNumber />
          </Form.Item>
          <Form.Item
            name={['rules', 'warnDays']}
            label={t('pswPolicy.warnDays')}
            dependencies={[['rules', 'validDays']]}
            rules={[
              ...days('policyWarnDays', 365),
              {
                validator: (_, value: number | null) =>
                  validDays > 0 && (value ?? 0) >= validDays ? Promise.reject(new Error(catalogue('policyWarnDays', lang))) : Promise.resolve(),
              },
            ]}
          >
            <InputNumber disabled={validDays === 0} />
          </Form.Item>
          <Form.Item name={['rules', 'history']} label={t('pswPolicy.history')} rules={days('policyHistory', 24)}>
            <InputNumber />
          </Form.Item>
        </Space>
        <Form.Item name="status" label={t('pswPolicy.status')} valuePropName="checked">
          <Switch checkedChildren={t('pswPolicy.on')} unCheckedChildren={t('pswPolicy.off')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
