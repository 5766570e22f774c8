import { App, Button, DatePicker, Form, Input, InputNumber, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FBS_STATUSES, type FbsStatus } from '@contract/fbsStatuses';
import { ORDER_ENDPOINTS, type OrderRow } from '@contract/orders';
import { useDataClient } from '@/app/dataClient';
import { useGranted } from '@/app/granted';
import { selectedCount } from '@/components/virtual-table/selection';
import { OrdersView } from './OrderListPage';

type EditorValues = {
  orderNumber: string;
  postingNumber?: string;
  status: FbsStatus;
  productName: string;
  sku?: string;
  offerId?: string;
  quantity: number;
  amount: number;
  currency: string;
  inProcessAt: Dayjs;
  trackingNumber?: string;
  warehouseName?: string;
};

/** /order-manager/record-list: orders the seller enters by hand (source 'manual'), with add, edit and delete. */
export function RecordListPage() {
  const { t } = useTranslation('orders');
  const client = useDataClient();
  const { message, modal } = App.useApp();
  const [editing, setEditing] = useState<OrderRow | 'new' | null>(null);
  const granted = useGranted();
  const [mayAdd, mayEdit, mayDelete] = [granted(ORDER_ENDPOINTS.add), granted(ORDER_ENDPOINTS.update), granted(ORDER_ENDPOINTS.delete)];

  return (
    <>
      <OrdersView
        mode="records"
        toolbar={({ selection, total, selectedRows, clearSelection }) => {
          const count = selectedCount(selection, total);
          return (
            <>
              {mayAdd && <Button type="primary" onClick={() => setEditing('new')}>{t('add')}</Button>}
              {mayEdit && <Button disabled={count !== 1} onClick={async () => setEditing((await selectedRows())[0] ?? null)}>{t('edit')}</Button>}
              {mayDelete && <Button
                danger
                disabled={count === 0}
                onClick={() =>
                  modal.confirm({
                    title: t('deleteConfirm', { count }),
                    okText: t('confirm'),
                    cancelText: t('cancel'),
                    onOk: async () => {
                      const rows = await selectedRows();
                      const deleted = await client.orders.remove(rows.map((row) => row.id));
                      clearSelection();
                      void message.success(t('deleted', { count: deleted }));
                    },
                  })
                }
              >
                {t('delete')}
              </Button>}
            </>
          );
        }}
      />
      {editing && <RecordEditor row={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

type RecordEditorProps = { row: OrderRow | null; onClose: () => void };

function RecordEditor({ row, onClose }: RecordEditorProps) {
  const { t } = useTranslation('orders');
  const client = useDataClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<EditorValues>();
  const [saving, setSaving] = useState(false);
  const initial: Partial<EditorValues> = row
    ? { ...row, inProcessAt: dayjs(row.inProcessAt) }
    : { status: 'awaiting_packaging', quantity: 1, currency: 'CNY', inProcessAt: dayjs() };

  const save = async (values: EditorValues) => {
    setSaving(true);
    const body = {
      ...values,
      postingNumber: values.postingNumber ?? '',
      sku: values.sku ?? '',
      offerId: values.offerId ?? '',
      trackingNumber: values.trackingNumber ?? '',
      warehouseName: values.warehouseName ?? '',
      inProcessAt: values.inProcessAt.valueOf(),
    };
    try {
      if (row) await client.orders.update({ id: row.id, ...body });
      else await client.orders.add(body);
      void message.success(t('saved'));
      onClose();
    } catch {
      // The worker showed the server's reason (a 400 names the field).
    } finally {
      setSaving(false);
    }
  };

  const required = [{ required: true, whitespace: true, message: t('required') }];
  return (
    <Modal open title={row ? t('edit') : t('add')} okText={t('confirm')} cancelText={t('cancel')} confirmLoading={saving} onCancel={onClose} onOk={() => form.submit()} width={640}>
      <Form<EditorValues> form={form} layout="vertical" initialValues={initial} onFinish={save} className="record-editor">
        <Form.Item name="orderNumber" label={t('orderNumber')} rules={required}><Input maxLength={60} /></Form.Item>
        <Form.Item name="postingNumber" label={t('postingNumber')}><Input maxLength={60} /></Form.Item>
        <Form.Item name="productName" label={t('productName')} rules={required}><Input maxLength={500} /></Form.Item>
        <Form.Item name="status" label={t('status')}>
          <Select options={FBS_STATUSES.map((status) => ({ value: status, label: t(`statuses.${status}`) }))} />
        </Form.Item>
        <Form.Item name="sku" label={t('sku')}><Input maxLength={40} /></Form.Item>
        <Form.Item name="offerId" label={t('offerId')}><Input maxLength={100} /></Form.Item>
        <Form.Item name="quantity" label={t('quantity')} rules={[{ required: true, message: t('required') }]}>
          <InputNumber min={1} max={100_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="amount" label={t('amount')} rules={[{ required: true, message: t('required') }]}>
          <InputNumber min={0} max={100_000_000} precision={2} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="currency" label={t('currency')} rules={[{ required: true, pattern: /^[A-Z]{3}$/, message: t('required') }]}>
          <Select options={['CNY', 'RUB', 'USD'].map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        <Form.Item name="inProcessAt" label={t('inProcessAt')} rules={[{ required: true, message: t('required') }]}>
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="warehouseName" label={t('warehouse')}><Input maxLength={100} /></Form.Item>
        <Form.Item name="trackingNumber" label={t('trackingNumber')}><Input maxLength={60} /></Form.Item>
      </Form>
    </Modal>
  );
}
