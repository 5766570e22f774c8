import { Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { Warehouse } from '@contract/orders';
import { ORDER_TEXTS } from './texts';

/** The batch actions' dialogs, loaded when one is first opened (antd's Form and Modal are not needed before). */

type TrackingDialogProps = { lang: 'zh' | 'en'; onClose: () => void; onSubmit: (trackingNumber: string) => Promise<void> };

export function TrackingDialog({ lang, onClose, onSubmit }: TrackingDialogProps) {
  const t = ORDER_TEXTS[lang];
  const [form] = Form.useForm<{ trackingNumber: string }>();
  const [saving, setSaving] = useState(false);
  return (
    <Modal open title={t.trackingTitle} okText={t.confirm} cancelText={t.cancel} confirmLoading={saving} onCancel={onClose} onOk={() => form.submit()}>
      <Form form={form} layout="vertical" onFinish={async ({ trackingNumber }) => {
        setSaving(true);
        try {
          await onSubmit(trackingNumber.trim());
          onClose();
        } catch {
          // Shown by the worker.
        } finally {
          setSaving(false);
        }
      }}>
        <Typography.Paragraph type="secondary">{t.trackingHint}</Typography.Paragraph>
        <Form.Item name="trackingNumber" label={t.trackingNumber} rules={[{ required: true, whitespace: true, message: t.required }]}>
          <Input maxLength={60} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

type StockDialogProps = { lang: 'zh' | 'en'; warehouses: () => Promise<Warehouse[]>; onClose: () => void; onSubmit: (warehouseId: string, stock: number) => Promise<void> };

export function StockDialog({ lang, warehouses, onClose, onSubmit }: StockDialogProps) {
  const t = ORDER_TEXTS[lang];
  const [form] = Form.useForm<{ warehouseId: string; stock: number }>();
  const [options, setOptions] = useState<Warehouse[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    void warehouses().then(setOptions).catch(() => undefined);
  }, [warehouses]);
  return (
    <Modal open title={t.stockTitle} okText={t.confirm} cancelText={t.cancel} confirmLoading={saving} onCancel={onClose} onOk={() => form.submit()}>
      <Form form={form} layout="vertical" onFinish={async ({ warehouseId, stock }) => {
        setSaving(true);
        try {
          await onSubmit(warehouseId, stock);
          onClose();
        } catch {
          // Shown by the worker.
        } finally {
          setSaving(false);
        }
      }}>
        <Form.Item name="warehouseId" label={t.warehouse} rules={[{ required: true, message: t.required }]}>
          <Select options={options.map((w) => ({ value: w.warehouseId, label: w.name || w.warehouseId }))} />
        </Form.Item>
        <Form.Item name="stock" label={t.stock} rules={[{ required: true, message: t.required }]}>
          <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
