import { Alert, Button, Checkbox, Drawer, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  areaResource,
  callResource,
  endpointKey,
  isDeny,
  PUSH_RESOURCE,
  STRATEGIES,
  type Explanation,
  type Policy,
  type PolicyPage,
  type SavePolicyBody,
  type Strategy,
  type TimeWindow,
} from '@contract/accessPolicy';
import { listEndpoints } from '@contract/endpoints';
import type { Department, Member, OrgRole, Position } from '@contract/team';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { OneLine, useSubmit } from './shared';

type Filters = { search?: string; strategy?: Strategy; priority?: string; status?: string };
type Row = Policy & Record<string, unknown>;
type Org = { depts: Department[]; positions: Position[]; members: Member[]; roles: OrgRole[] };

const STRATEGY_COLOURS: Record<Strategy, string> = { allow: 'green', allowLog: 'cyan', deny: 'red', denyLog: 'volcano' };

/** The organisation's departments, positions, members and roles: what a policy names. */
function useOrg(): Org {
  const client = useDataClient();
  const [org, setOrg] = useState<Org>({ depts: [], positions: [], members: [], roles: [] });
  useEffect(() => {
    const all = { page: 1, rows: 1000 };
    void Promise.all([client.team.departments(all), client.team.positions(all), client.team.members(all), client.team.roles(all)]).then(
      ([depts, positions, members, roles]) => setOrg({ depts: depts.list, positions: positions.list, members: members.list, roles: roles.list }),
      () => undefined,
    );
  }, [client]);
  return org;
}

/** Every resource a policy can name: the areas, then each call by `METHOD /path` with its summary. */
function useResourceOptions() {
  const { t } = useTranslation('access');
  const { t: tt } = useTranslation('team');
  return useMemo(() => {
    const endpoints = listEndpoints().filter(({ endpoint }) => endpoint.access !== 'public');
    const areas = [...new Set(endpoints.map(({ endpoint }) => endpoint.access))];
    return [
      { label: t('policy.areaGroup'), options: areas.map((area) => ({ value: areaResource(area), label: tt(`areas.${area}`, { defaultValue: area }) as string })) },
      {
        label: t('policy.callGroup'),
        options: [...endpoints.map(({ endpoint }) => ({ value: callResource(endpointKey(endpoint)), label: endpointKey(endpoint), title: endpoint.summary })), { value: callResource(PUSH_RESOURCE), label: PUSH_RESOURCE }],
      },
    ];
  }, [t, tt]);
}

/** How a resource reads in the table: an area by its name, a call as `METHOD /path`. */
function resourceLabel(resource: string, tt: (key: string, options: { defaultValue: string }) => string): string {
  if (resource.startsWith('area:')) return tt(`areas.${resource.slice(5)}`, { defaultValue: resource.slice(5) });
  return resource.slice(5);
}

/** /team/access-policies: the organisation's access policies, the rule they combine by, and "explain and try". */
export function AccessPoliciesPage() {
  const { t } = useTranslation('access');
  const { t: tt } = useTranslation('team');
  const client = useDataClient();
  const org = useOrg();
  const [form] = Form.useForm<Filters>();
  const [editing, setEditing] = useState<Policy | 'new' | null>(null);
  const [explaining, setExplaining] = useState(false);
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => {
      const { search, priority, status, ...rest } = presentFilters(filters);
      return client.access.policies({
        ...query,
        ...rest,
        ...(search ? { keyword: search } : {}),
        ...(priority ? { priority: Number(priority) } : {}),
        ...(status !== undefined ? { status: Number(status) } : {}),
      });
    },
    [client],
  );
  const list = usePagedList<Filters, Policy, PolicyPage>(form, { list: [], total: 0 }, fetchPage);
  const { act } = list;
  const weekdayNames = t('policy.weekdayNames', { returnObjects: true }) as string[];
  const timeText = useCallback(
    (time: TimeWindow | null) => {
      if (!time) return '—';
      const days = time.weekdays.length === 0 ? t('policy.everyDay') : time.weekdays.map((day) => weekdayNames[day - 1]).join(tt('listSeparator'));
      const hours = time.from || time.to ? `${time.from || '00:00'}–${time.to || '24:00'}` : t('policy.allDay');
      const dates = time.startDate || time.endDate ? ` ${time.startDate ?? '…'} ~ ${time.endDate ?? '…'}` : '';
      return `${time.outside ? t('policy.outsidePrefix') : ''}${t('policy.timeSummary', { days, hours, zone: time.timeZone })}${dates}`;
    },
    [t, tt, weekdayNames],
  );
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      {
        id: 'name',
        header: t('policy.name'),
        cell: ({ row }) => (
          <Space size={4}>
            <OneLine>{row.original.name}</OneLine>
            {row.original.dryRun && <Tag color="gold">{t('dryRun')}</Tag>}
          </Space>
        ),
      },
      { id: 'strategy', header: t('policy.strategy'), cell: ({ row }) => <Tag color={STRATEGY_COLOURS[row.original.strategy]}>{t(`strategies.${row.original.strategy}`)}</Tag> },
      { id: 'priority', header: t('policy.priority'), cell: ({ row }) => row.original.priority },
      {
        id: 'who',
        header: t('policy.who'),
        cell: ({ row }) => {
          const { dept, userGroup, user, role } = row.original;
          const parts = [dept && `${t('policy.dept')}: ${dept}`, userGroup && `${t('policy.userGroup')}: ${userGroup}`, user && `${t('policy.user')}: ${user}`, role && `${t('policy.role')}: ${role}`].filter(Boolean);
          return <div style={{ fontSize: 12, maxWidth: 220 }}>{parts.length ? parts.map((part) => <div key={part as string}>{part}</div>) : t('policy.everyone')}</div>;
        },
      },
      {
        id: 'resources',
        header: t('policy.resources'),
        cell: ({ row }) =>
          row.original.accessResources.length === 0 ? (
            t('policy.everyCall')
          ) : (
            <div style={{ maxWidth: 240 }}>
              {row.original.accessResources.slice(0, 6).map((resource) => (
                <Tag key={resource} style={{ marginBottom: 2 }}>
                  {resourceLabel(resource, tt as never)}
                </Tag>
              ))}
              {row.original.accessResources.length > 6 && `+${row.original.accessResources.length - 6}`}
            </div>
          ),
      },
      {
        id: 'addresses',
        header: `${t('policy.whitelist')} / ${t('policy.blacklist')}`,
        cell: ({ row }) => {
          const { whitelist, blacklist } = row.original.rule;
          if (!whitelist.length && !blacklist.length) return '—';
          return (
            <div style={{ fontSize: 12 }}>
              {whitelist.length > 0 && <div>✓ {whitelist.join(', ')}</div>}
              {blacklist.length > 0 && <div>✗ {blacklist.join(', ')}</div>}
            </div>
          );
        },
      },
      { id: 'time', header: t('policy.timePeriod'), cell: ({ row }) => <span style={{ fontSize: 12 }}>{timeText(row.original.rule.time)}</span> },
      { id: 'multiFactor', header: t('policy.multiFactor'), cell: ({ row }) => (row.original.rule.multiFactor ? t('policy.minutesN', { n: row.original.rule.multiFactor.minutes }) : '—') },
      { id: 'status', header: t('policy.status'), cell: ({ row }) => <Tag color={row.original.status === 1 ? 'blue' : 'default'}>{row.original.status === 1 ? t('status.on') : t('status.off')}</Tag> },
      { id: 'founder', header: t('policy.founder'), cell: ({ row }) => <OneLine>{row.original.founder || '—'}</OneLine> },
      {
        id: 'actions',
        header: tt('actions'),
        cell: ({ row }) => (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setEditing(row.original)}>
              {tt('edit')}
            </Button>
            <Popconfirm title={t('policy.confirmDelete', { name: row.original.name })} onConfirm={() => act(async () => void (await client.access.deletePolicies([row.original.id])))}>
              <Button size="small" type="link" danger>
                {tt('delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, tt, act, client, timeText],
  );
  return (
    <>
      <PagedTable<Row, Filters>
        list={list as never}
        form={form}
        columns={columns}
        texts={{ loadFailed: (reason) => tt('loadFailed', { reason }), retry: tt('retry'), empty: t('policy.empty') }}
        notice={<CombiningRule />}
        actions={
          <Space>
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('policy.add')}
            </Button>
            <Button onClick={() => setExplaining(true)}>{t('policy.explain')}</Button>
          </Space>
        }
        queryFields={
          <QueryFields
            search={t('policy.search')}
            choices={[
              { name: 'strategy', placeholder: t('policy.allStrategies'), options: STRATEGIES.map((strategy) => ({ value: strategy, label: t(`strategies.${strategy}`) })) },
              { name: 'priority', placeholder: t('policy.allPriorities'), options: ['1', '2', '3', '4'].map((n) => ({ value: n, label: n })) },
              { name: 'status', placeholder: t('policy.allStatus'), options: [{ value: '1', label: t('status.on') }, { value: '0', label: t('status.off') }] },
            ]}
          />
        }
      />
      {editing !== null && (
        <PolicyDialog
          policy={editing === 'new' ? null : editing}
          org={org}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void list.load();
          }}
        />
      )}
      {explaining && <ExplainDrawer org={org} onClose={() => setExplaining(false)} />}
    </>
  );
}

/** The combining rule, as the server follows it (contract/accessPolicy.ts). */
function CombiningRule() {
  const { t } = useTranslation('access');
  const lines = t('rule.lines', { returnObjects: true }) as string[];
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 8 }}
      title={t('rule.title')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18, fontSize: 12 }}>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      }
    />
  );
}

type PolicyForm = {
  name: string;
  strategy: Strategy;
  priority: number;
  status: boolean;
  dryRun: boolean;
  deptIds: number[];
  positionIds: number[];
  memberIds: number[];
  roleIds: number[];
  resources: string[];
  whitelist: string[];
  blacklist: string[];
  timeOn: boolean;
  weekdays: number[];
  from: string;
  to: string;
  startDate: string;
  endDate: string;
  timeZone: string;
  outside: boolean;
  mfaOn: boolean;
  minutes: number;
};

const TIME_ZONES: string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['Asia/Shanghai', 'Europe/Moscow', 'UTC'];
  }
})();

function formOf(policy: Policy | null): PolicyForm {
  const rule = policy?.rule;
  return {
    name: policy?.name ?? '',
    strategy: policy?.strategy ?? 'deny',
    priority: policy?.priority ?? 4,
    status: (policy?.status ?? 1) === 1,
    dryRun: policy?.dryRun ?? false,
    deptIds: rule?.deptIds ?? [],
    positionIds: rule?.positionIds ?? [],
    memberIds: rule?.memberIds ?? [],
    roleIds: rule?.roleIds ?? [],
    resources: rule?.resources ?? [],
    whitelist: rule?.whitelist ?? [],
    blacklist: rule?.blacklist ?? [],
    timeOn: Boolean(rule?.time),
    weekdays: rule?.time?.weekdays ?? [1, 2, 3, 4, 5],
    from: rule?.time?.from ?? '09:00',
    to: rule?.time?.to ?? '18:00',
    startDate: rule?.time?.startDate ?? '',
    endDate: rule?.time?.endDate ?? '',
    timeZone: rule?.time?.timeZone ?? 'Asia/Shanghai',
    outside: rule?.time?.outside ?? false,
    mfaOn: Boolean(rule?.multiFactor),
    minutes: rule?.multiFactor?.minutes ?? 10,
  };
}

function bodyOf(values: PolicyForm, id: number | undefined): SavePolicyBody {
  return {
    ...(id === undefined ? {} : { id }),
    name: values.name,
    strategy: values.strategy,
    priority: values.priority,
    status: values.status ? 1 : 0,
    dryRun: values.dryRun,
    rule: {
      deptIds: values.deptIds,
      positionIds: values.positionIds,
      memberIds: values.memberIds,
      roleIds: values.roleIds,
      resources: values.resources,
      whitelist: values.whitelist,
      blacklist: values.blacklist,
      time: values.timeOn
        ? { weekdays: values.weekdays, from: values.from, to: values.to, startDate: values.startDate || null, endDate: values.endDate || null, timeZone: values.timeZone, outside: values.outside }
        : null,
      multiFactor: values.mfaOn && !isDeny(values.strategy) ? { kind: 'otp', minutes: values.minutes } : null,
    },
  };
}

/** The server names a field by its path in the body (`rule.time.endDate`); the form's fields are flat. */
const FIELD_OF: Record<string, keyof PolicyForm> = {
  'rule.deptIds': 'deptIds',
  'rule.positionIds': 'positionIds',
  'rule.memberIds': 'memberIds',
  'rule.roleIds': 'roleIds',
  'rule.resources': 'resources',
  'rule.multiFactor': 'mfaOn',
  'rule.time.endDate': 'endDate',
  'rule.time.startDate': 'startDate',
  'rule.time.timeZone': 'timeZone',
  'rule.time.from': 'from',
  'rule.time.to': 'to',
};
function formField(field: string): string {
  const direct = FIELD_OF[field];
  if (direct) return direct;
  const list = /^rule\.(whitelist|blacklist)(\.\d+)?$/.exec(field);
  return list ? list[1]! : field;
}

function PolicyDialog({ policy, org, onClose }: { policy: Policy | null; org: Org; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation('access');
  const { t: tt } = useTranslation('team');
  const client = useDataClient();
  const submit = useSubmit();
  const [form] = Form.useForm<PolicyForm>();
  const resourceOptions = useResourceOptions();
  const timeOn = Form.useWatch('timeOn', form);
  const mfaOn = Form.useWatch('mfaOn', form);
  const strategy = Form.useWatch('strategy', form);
  const weekdayNames = t('policy.weekdayNames', { returnObjects: true }) as string[];
  const save = async () => {
    const values = await form.validateFields();
    const saved = await submit(form, async () => {
      try {
        await client.access.savePolicy(bodyOf(values, policy?.id));
      } catch (failure) {
        // Against the form's own field: the body's nested path mapped back.
        if (isApiFailure(failure) && failure.field) throw Object.assign(failure, { field: formField(failure.field) });
        throw failure;
      }
    });
    if (saved) onClose(true);
  };
  const ids = (label: string, name: keyof PolicyForm, options: { value: number; label: string }[]) => (
    <Form.Item name={name} label={label} style={{ marginBottom: 8 }}>
      <Select mode="multiple" allowClear optionFilterProp="label" options={options} placeholder={t('policy.everyone')} />
    </Form.Item>
  );
  const addresses = (name: 'whitelist' | 'blacklist') => (
    <Form.Item name={name} label={t(`policy.${name}`)} extra={t('policy.addressHint')} style={{ marginBottom: 8 }}>
      <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
    </Form.Item>
  );
  return (
    <Modal open width={760} title={policy ? t('policy.edit') : t('policy.add')} okText={tt('save')} cancelText={tt('cancel')} onOk={() => void save()} onCancel={() => onClose(false)} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={formOf(policy)} size="small">
        <Space align="start" wrap>
          <Form.Item name="name" label={t('policy.name')} rules={[{ required: true }]} style={{ width: 260 }}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="strategy" label={t('policy.strategy')} style={{ width: 150 }}>
            <Select options={STRATEGIES.map((value) => ({ value, label: t(`strategies.${value}`) }))} />
          </Form.Item>
          <Form.Item name="priority" label={t('policy.priority')} style={{ width: 130 }}>
            <Select options={[1, 2, 3, 4].map((n) => ({ value: n, label: n === 1 ? t('policy.priorityN', { n, label: t('policy.highest') }) : n === 4 ? t('policy.priorityN', { n, label: t('policy.lowest') }) : String(n) }))} />
          </Form.Item>
          <Form.Item name="status" label={t('policy.status')} valuePropName="checked">
            <Switch checkedChildren={t('status.on')} unCheckedChildren={t('status.off')} />
          </Form.Item>
        </Space>
        <Form.Item name="dryRun" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox>{t('policy.dryRun')}</Checkbox>
        </Form.Item>
        <Typography.Title level={5}>{t('policy.who')}</Typography.Title>
        <Space align="start" wrap style={{ width: '100%' }} styles={{ item: { width: 340 } }}>
          {ids(t('policy.dept'), 'deptIds', org.depts.map((dept) => ({ value: dept.id, label: dept.name })))}
          {ids(t('policy.userGroup'), 'positionIds', org.positions.map((position) => ({ value: position.id, label: position.position_name })))}
          {ids(t('policy.user'), 'memberIds', org.members.map((member) => ({ value: member.id, label: member.nickName ? `${member.name} (${member.nickName})` : member.name })))}
          {ids(t('policy.role'), 'roleIds', org.roles.map((role) => ({ value: role.id, label: role.name })))}
        </Space>
        <Form.Item name="resources" label={t('policy.resources')} style={{ marginBottom: 8 }}>
          <Select mode="multiple" allowClear optionFilterProp="label" options={resourceOptions} placeholder={t('policy.everyCall')} />
        </Form.Item>
        <Space align="start" wrap style={{ width: '100%' }} styles={{ item: { width: 340 } }}>
          {addresses('whitelist')}
          {addresses('blacklist')}
        </Space>
        <Form.Item name="timeOn" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox>{t('policy.enableTimePeriod')}</Checkbox>
        </Form.Item>
        {timeOn && (
          <>
            <Form.Item name="weekdays" label={t('policy.weekdays')} style={{ marginBottom: 8 }}>
              <Checkbox.Group options={weekdayNames.map((label, index) => ({ label, value: index + 1 }))} />
            </Form.Item>
            <Space align="start" wrap>
              <Form.Item name="from" label={t('policy.from')}>
                <Input type="time" style={{ width: 120 }} />
              </Form.Item>
              <Form.Item name="to" label={t('policy.to')}>
                <Input type="time" style={{ width: 120 }} />
              </Form.Item>
              <Form.Item name="startDate" label={t('policy.startDate')}>
                <Input type="date" style={{ width: 150 }} />
              </Form.Item>
              <Form.Item name="endDate" label={t('policy.endDate')}>
                <Input type="date" style={{ width: 150 }} />
              </Form.Item>
              <Form.Item name="timeZone" label={t('policy.timeZone')}>
                <Select showSearch style={{ width: 190 }} options={TIME_ZONES.map((zone) => ({ value: zone, label: zone }))} />
              </Form.Item>
            </Space>
            <Form.Item name="outside" valuePropName="checked" style={{ marginBottom: 8 }}>
              <Checkbox>{t('policy.outside')}</Checkbox>
            </Form.Item>
          </>
        )}
        {!isDeny(strategy ?? 'deny') && (
          <Space align="center" wrap>
            <Form.Item name="mfaOn" valuePropName="checked" style={{ marginBottom: 8 }}>
              <Checkbox>{t('policy.multiFactorOn')}</Checkbox>
            </Form.Item>
            {mfaOn && (
              <Form.Item name="minutes" label={t('policy.minutes')} style={{ marginBottom: 8 }}>
                <InputNumber min={1} max={1440} />
              </Form.Item>
            )}
          </Space>
        )}
      </Form>
    </Modal>
  );
}

type ExplainForm = { memberId?: number; call: string; ip: string; at: string; codeMinutesAgo?: number | null };

/** "Explain and try": the server's own evaluation for a member, a call, an address and a time. */
function ExplainDrawer({ org, onClose }: { org: Org; onClose: () => void }) {
  const { t } = useTranslation('access');
  const client = useDataClient();
  const [form] = Form.useForm<ExplainForm>();
  const [answer, setAnswer] = useState<Explanation | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const calls = useMemo(
    () => [...listEndpoints().filter(({ endpoint }) => endpoint.access !== 'public').map(({ endpoint }) => ({ value: endpointKey(endpoint), label: `${endpointKey(endpoint)} · ${endpoint.summary}` })), { value: PUSH_RESOURCE, label: PUSH_RESOURCE }],
    [],
  );
  const now = new Date();
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  const run = async () => {
    const values = await form.validateFields();
    setFailure(null);
    try {
      setAnswer(
        await client.access.explain({
          memberId: values.memberId!,
          call: values.call,
          ip: values.ip,
          at: new Date(values.at).getTime(),
          ...(typeof values.codeMinutesAgo === 'number' ? { codeMinutesAgo: values.codeMinutesAgo } : {}),
        }),
      );
    } catch (error) {
      setAnswer(null);
      const text = isApiFailure(error) ? error.message : String(error);
      if (isApiFailure(error) && error.field && ['memberId', 'call', 'ip', 'at'].includes(error.field)) form.setFields([{ name: error.field as keyof ExplainForm, errors: [text] }]);
      else setFailure(text);
    }
  };
  const decisionColour = { allow: 'success', deny: 'error', stepUp: 'warning' } as const;
  return (
    <Drawer open width={640} title={t('explain.title')} onClose={onClose}>
      <Typography.Paragraph type="secondary">{t('explain.intro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ call: 'GET /order/list', ip: '127.0.0.1', at: local }} onFinish={() => void run()}>
        <Form.Item name="memberId" label={t('explain.member')} rules={[{ required: true }]}>
          <Select showSearch optionFilterProp="label" options={org.members.map((member) => ({ value: member.id, label: member.name }))} />
        </Form.Item>
        <Form.Item name="call" label={t('explain.call')} rules={[{ required: true }]}>
          <Select showSearch optionFilterProp="label" options={calls} />
        </Form.Item>
        <Space align="start" wrap>
          <Form.Item name="ip" label={t('explain.ip')} rules={[{ required: true }]}>
            <Input style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="at" label={t('explain.at')} rules={[{ required: true }]}>
            <Input type="datetime-local" style={{ width: 210 }} />
          </Form.Item>
        </Space>
        <Form.Item name="codeMinutesAgo" label={t('explain.codeMinutesAgo')}>
          <InputNumber min={0} max={100000} style={{ width: 120 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('explain.run')}
        </Button>
      </Form>
      {failure && <Alert type="error" showIcon style={{ marginTop: 16 }} title={failure} />}
      {answer && (
        <div style={{ marginTop: 16 }} data-testid="explanation">
          <Alert
            type={answer.roleRefuses ? 'error' : decisionColour[answer.decision]}
            showIcon
            title={`${t('explain.decision')}: ${answer.roleRefuses ? t('decisions.deny') : t(`decisions.${answer.decision}`)}`}
            description={
              <div>
                <div>{answer.roleRefuses ? t('explain.roleRefuses') : answer.policyName ? t('explain.decidedBy', { name: answer.policyName }) : t('explain.noPolicy')}</div>
                {answer.logged && <div>{t('explain.logged')}</div>}
                {answer.wouldDeny && <div>{t('explain.wouldDeny', { name: answer.wouldDeny.name })}</div>}
              </div>
            }
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('explain.matched')}
          </Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={answer.matched}
            columns={[
              { title: t('policy.name'), dataIndex: 'name', render: (name: string, entry) => <Space size={4}>{name}{entry.dryRun && <Tag color="gold">{t('dryRun')}</Tag>}{entry.decides && <Tag color="blue">{t('explain.decides')}</Tag>}</Space> },
              { title: t('policy.strategy'), dataIndex: 'strategy', render: (strategy: Strategy) => <Tag color={STRATEGY_COLOURS[strategy]}>{t(`strategies.${strategy}`)}</Tag> },
              { title: t('policy.priority'), dataIndex: 'priority' },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('explain.skipped')}
          </Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={answer.skipped}
            columns={[
              { title: t('policy.name'), dataIndex: 'name' },
              { title: '', dataIndex: 'reason', render: (reason: Explanation['skipped'][number]['reason']) => t(`explain.reasons.${reason}`) },
            ]}
          />
        </div>
      )}
    </Drawer>
  );
}
