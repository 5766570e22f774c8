import { Button, Form, Input, InputNumber, Modal, Popconfirm, Select, Space } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Department, Position, PositionPage } from '@contract/team';
import { useDataClient } from '@/app/dataClient';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { useSubmit } from './shared';

type Filters = { search?: string };
type Row = Position & Record<string, unknown>;
type PositionForm = { position_name: string; position_type: string; deptId: number | null; director: string; number: number; date: string };

/** /team/positions: the organisation's positions (position_name, position_type, department, director, number, date). */
export function PositionsPage() {
  const { t } = useTranslation('team');
  const client = useDataClient();
  const [form] = Form.useForm<Filters>();
  const [editing, setEditing] = useState<Position | 'new' | null>(null);
  const [depts, setDepts] = useState<Department[]>([]);
  useEffect(() => void client.team.departments({ page: 1, rows: 1000 }).then((page) => setDepts(page.list), () => undefined), [client]);
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => {
      const { search } = presentFilters(filters);
      return client.team.positions({ ...query, ...(search ? { keyword: search } : {}) });
    },
    [client],
  );
  const list = usePagedList<Filters, Position, PositionPage>(form, { list: [], total: 0 }, fetchPage);
  const { act } = list;
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'position_name', header: t('position.position_name'), cell: ({ row }) => row.original.position_name },
      { id: 'position_type', header: t('position.position_type'), cell: ({ row }) => row.original.position_type || '—' },
      { id: 'department', header: t('position.department'), cell: ({ row }) => row.original.department || '—' },
      { id: 'director', header: t('position.director'), cell: ({ row }) => row.original.director || '—' },
      { id: 'number', header: t('position.number'), cell: ({ row }) => row.original.number },
      { id: 'date', header: t('position.date'), cell: ({ row }) => row.original.date ?? '—' },
      {
        id: 'actions',
        header: t('actions'),
        cell: ({ row }) => (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(row.original)}>
              {t('edit')}
            </Button>
            <Popconfirm title={t('confirmDelete', { name: row.original.position_name })} onConfirm={() => act(async () => void (await client.team.deletePositions([row.original.id])))}>
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
        texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('emptyHint.positions') }}
        actions={
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('position.add')}
          </Button>
        }
        queryFields={<QueryFields search={t('search')} />}
      />
      {editing !== null && (
        <PositionDialog
          position={editing === 'new' ? null : editing}
          depts={depts}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void list.load();
          }}
        />
      )}
    </>
  );
}

function PositionDialog({ position, depts, onClose }: { position: Position | null; depts: Department[]; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation('team');
  const client = useDataClient();
  const submit = useSubmit();
  const [form] = Form.useForm<PositionForm>();
  const initial: PositionForm = position
    ? { position_name: position.position_name, position_type: position.position_type, deptId: position.deptId, director: position.director, number: position.number, date: position.date ?? '' }
    : { position_name: '', position_type: '', deptId: null, director: '', number: 1, date: '' };
  const save = async () => {
    const values = await form.validateFields();
    const body = { ...values, deptId: values.deptId ?? null, date: values.date || null };
    if (await submit(form, () => (position ? client.team.updatePosition({ id: position.id, ...body }) : client.team.addPosition(body)))) onClose(true);
  };
  return (
    <Modal open title={position ? t('position.edit') : t('position.add')} okText={t('save')} cancelText={t('cancel')} onOk={() => void save()} onCancel={() => onClose(false)} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item name="position_name" label={t('position.position_name')} rules={[{ required: true }]}>
          <Input />
        </Form.Item>
        <Form.Item name="position_type" label={t('position.position_type')}>
          <Input />
        </Form.Item>
        <Form.Item name="deptId" label={t('position.department')}>
          <Select allowClear options={depts.map((dept) => ({ value: dept.id, label: dept.name }))} />
        </Form.Item>
        <Form.Item name="director" label={t('position.director')}>
          <Input />
        </Form.Item>
        <Form.Item name="number" label={t('position.number')}>
          <InputNumber min={0} max={100000} />
        </Form.Item>
        <Form.Item name="date" label={t('position.date')}>
          <Input type="date" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
