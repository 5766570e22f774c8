import { Alert, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Store } from '@contract/store';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';

type StoreFormValues = { name: string; clientId: string; apiKey?: string; baseUrl?: string };

type StoreFormDialogProps = {
  /** null: add a shop; a shop: edit it. */
  store: Store | null;
  open: boolean;
  onClose: () => void;
  onSaved: (store: Store, added: boolean) => void;
};

/**
 * Add and edit: the server checks the key with Ozon before saving, so a wrong key comes back here with Ozon's
 * reason, shown above the form and on the Api-Key field.
 */
export function StoreFormDialog({ store, open, onClose, onSaved }: StoreFormDialogProps) {
  const { t } = useTranslation('store');
  const client = useDataClient();
  const [form] = Form.useForm<StoreFormValues>();
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const editing = store !== null;

  useEffect(() => {
    if (!open) return;
    setRefusal(null);
    form.resetFields();
    if (store) form.setFieldsValue({ name: store.name, clientId: store.clientId, baseUrl: store.baseUrl ?? '' });
  }, [open, store, form]);

  const submit = async (values: StoreFormValues) => {
    setSaving(true);
    setRefusal(null);
    const baseUrl = values.baseUrl?.trim() || undefined;
    const apiKey = values.apiKey?.trim() || undefined;
    try {
      const saved = store
        ? await client.store.update({ id: store.id, name: values.name.trim(), ...(apiKey ? { apiKey } : {}), ...(baseUrl !== (store.baseUrl ?? undefined) ? { baseUrl } : {}) })
        : await client.store.add({ name: values.name.trim(), clientId: values.clientId.trim(), apiKey: apiKey ?? '', baseUrl });
      onSaved(saved, !editing);
    } catch (error) {
      const text = isApiFailure(error) ? error.message : String(error);
      const field = isApiFailure(error) && error.field && ['name', 'clientId', 'apiKey', 'baseUrl'].includes(error.field) ? error.field : null;
      // Said once: under the field it is about, else above the form.
      if (field) form.setFields([{ name: field as keyof StoreFormValues, errors: [text] }]);
      else setRefusal(text);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={editing ? t('edit') : t('add')}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} role="alert" />}
      <Form<StoreFormValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} aria-label={editing ? t('edit') : t('add')}>
        <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('required', { field: t('name') }) }, { max: 64 }]}>
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="clientId"
          label={t('clientId')}
          rules={[
            { required: true, message: t('required', { field: t('clientId') }) },
            { pattern: /^\s*\d{1,20}\s*$/, message: t('clientIdInvalid') },
          ]}
        >
          <Input disabled={editing} maxLength={20} autoComplete="off" inputMode="numeric" />
        </Form.Item>
        <Form.Item
          name="apiKey"
          label={t('apiKey')}
          extra={editing ? t('apiKeyKeep') : undefined}
          rules={editing ? [] : [{ required: true, whitespace: true, message: t('required', { field: t('apiKey') }) }]}
        >
          <Input.Password maxLength={200} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="baseUrl" label={t('baseUrl')} extra={t('baseUrlHint')} rules={[{ pattern: /^\s*$|^https?:\/\/\S+$/, message: t('urlInvalid') }]}>
          <Input maxLength={300} autoComplete="off" placeholder="https://api-seller.ozon.ru" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
