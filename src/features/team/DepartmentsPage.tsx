import { Alert, App, Button, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Department } from '@contract/team';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { shopNames, useSubmit, useTeamOverview } from './shared';

type Node = Department & { key: number; children?: Node[] };
type DeptForm = { name: string; parentId: number | null; sort: number; leader: string; shopIds: number[] };

function treeOf(depts: readonly Department[]): Node[] {
  const nodes = new Map<number, Node>(depts.map((dept) => [dept.id, { ...dept, key: dept.id }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** /team/departments: the organisation's department tree, each with its leader and shops. */
export function DepartmentsPage() {
  const { t } = useTranslation('team');
  const client = useDataClient();
  const { message } = App.useApp();
  const { overview } = useTeamOverview();
  const [depts, setDepts] = useState<Department[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [editing, setEditing] = useState<Department | 'new' | null>(null);
  const load = useCallback(
    () =>
      void client.team.departments({ page: 1, rows: 1000 }).then(
        (page) => {
          setDepts(page.list);
          setError(null);
        },
        (failure: unknown) => setError(isApiFailure(failure) ? failure.message : String(failure)),
      ).finally(() => setLoaded(true)),
    [client],
  );
  useEffect(load, [load]);
  const remove = async (dept: Department) => {
    try {
      await client.team.deleteDept(dept.id);
      load();
    } catch (failure) {
      void message.error(isApiFailure(failure) ? failure.message : String(failure));
    }
  };
  const tree = useMemo(() => treeOf(depts), [depts]);
  return (
    <>
      {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={t('loadFailed', { reason: error })} action={<Button onClick={load}>{t('retry')}</Button>} />}
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('dept.add')}
        </Button>
      </Space>
      <Table<Node>
        size="small"
        rowKey="id"
        pagination={false}
        loading={!loaded}
        dataSource={tree}
        expandable={{ defaultExpandAllRows: true }}
        locale={{ emptyText: error ? '—' : t('emptyHint.departments') }}
        columns={[
          { title: t('dept.name'), dataIndex: 'name' },
          { title: t('dept.leader'), dataIndex: 'leader', render: (leader: string) => leader || '—' },
          { title: t('dept.shops'), key: 'shops', render: (_, dept) => shopNames(overview, dept.shopIds, t) },
          { title: t('dept.members'), dataIndex: 'memberCount' },
          { title: t('dept.sort'), dataIndex: 'sort' },
          {
            title: t('actions'),
            key: 'actions',
            render: (_, dept) => (
              <Space>
                <Button size="small" type="link" onClick={() => setEditing(dept)}>
                  {t('edit')}
                </Button>
                <Popconfirm title={t('confirmDelete', { name: dept.name })} onConfirm={() => void remove(dept)}>
                  <Button size="small" type="link" danger>
                    {t('delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing !== null && (
        <DeptDialog
          dept={editing === 'new' ? null : editing}
          depts={depts}
          shops={overview?.shops ?? []}
          onClose={(saved) => {
            setEditing(null);
            if (saved) load();
          }}
        />
      )}
    </>
  );
}

function DeptDialog({ dept, depts, shops, onClose }: { dept: Department | null; depts: Department[]; shops: { id: number; name: string }[]; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation('team');
  const client = useDataClient();
  const submit = useSubmit();
  const [form] = Form.useForm<DeptForm>();
  const initial: DeptForm = dept ? { name: dept.name, parentId: dept.parentId, sort: dept.sort, leader: dept.leader, shopIds: dept.shopIds } : { name: '', parentId: null, sort: 0, leader: '', shopIds: [] };
  const save = async () => {
    const values = await form.validateFields();
    const body = { ...values, parentId: values.parentId ?? null };
    if (await submit(form, () => (dept ? client.team.updateDept({ id: dept.id, ...body }) : client.team.addDept(body)))) onClose(true);
  };
  return (
    <Modal open title={dept ? t('dept.edit') : t('dept.add')} okText={t('save')} cancelText={t('cancel')} onOk={() => void save()} onCancel={() => onClose(false)} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item name="name" label={t('dept.name')} rules={[{ required: true }]}>
          <Input />
        </Form.Item>
        <Form.Item name="parentId" label={t('dept.parent')}>
          <Select allowClear placeholder={t('dept.top')} options={depts.filter((other) => other.id !== dept?.id).map((other) => ({ value: other.id, label: other.name }))} />
        </Form.Item>
        <Form.Item name="leader" label={t('dept.leader')}>
          <Input />
        </Form.Item>
        <Form.Item name="sort" label={t('dept.sort')}>
          <InputNumber min={0} max={9999} />
        </Form.Item>
        <Form.Item name="shopIds" label={t('dept.shops')}>
          <Select mode="multiple" allowClear options={shops.map((shop) => ({ value: shop.id, label: shop.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
