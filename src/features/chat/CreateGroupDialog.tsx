import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHAT_MODAL_Z_INDEX } from './layers';

type CreateGroupDialogProps = {
  open: boolean;
  onClose: () => void;
  onCreate: (name: string, introduction: string) => void;
};

export function CreateGroupDialog({ open, onClose, onCreate }: CreateGroupDialogProps) {
  const { t } = useTranslation('chat');
  const [form] = Form.useForm<{ name: string; introduction?: string }>();
  return (
    <Modal open={open} title={t('createGroup')} zIndex={CHAT_MODAL_Z_INDEX} onCancel={onClose} onOk={() => form.submit()} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false} onFinish={(values) => onCreate(values.name.trim(), values.introduction?.trim() ?? '')}>
        <Form.Item name="name" label={t('groupName')} rules={[{ required: true, whitespace: true, max: 32 }]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="introduction" label={t('groupIntroduction')} rules={[{ max: 200 }]}>
          <Input.TextArea maxLength={200} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
