import { LockOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { message as catalogue } from '@contract/errors';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import { PasswordRuleList, passwordRuleValidator, usePasswordRules } from '@/components/password-rules/PasswordRules';

type PasswordValues = { oldPassword: string; newPassword: string; confirm: string };

export function ModifyPasswordPage() {
  const { t, i18n } = useTranslation(['profile', 'shell']);
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const actor = SessionContext.useActorRef();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);
  const rules = usePasswordRules(useCallback(() => client.signin.ownPasswordRules(), [client]));
  const newPassword = Form.useWatch('newPassword', form) ?? '';

  const submit = async (values: PasswordValues) => {
    setSaving(true);
    try {
      const { auto } = await client.session.changePsw({ oldPassword: values.oldPassword, newPassword: values.newPassword });
      // This session goes on with the new password token; the server already ended every other one.
      actor.send({ type: 'session.passwordChanged', auto });
      form.resetFields();
      void message.success(t('success'), 5);
    } catch {
      // The worker showed the reason (wrong current password, same password, policy).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('title')} style={{ maxWidth: 560 }}>
      <Alert type="info" showIcon title={t('hint')} style={{ marginBottom: 24 }} />
      <Form<PasswordValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} aria-label={t('title')}>
        <Form.Item
          name="oldPassword"
          label={t('oldPassword')}
          rules={[{ required: true, message: t('shell:common.required', { field: t('oldPassword') }) }]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" maxLength={128} />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('newPassword')}
          extra={<PasswordRuleList state={rules} password={newPassword} lang={lang} />}
          dependencies={['oldPassword']}
          rules={[
            { required: true, message: t('shell:common.required', { field: t('newPassword') }) },
            passwordRuleValidator(rules, lang),
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('oldPassword') !== value ? Promise.resolve() : Promise.reject(new Error(catalogue('samePassword', lang))),
            }),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('confirm')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('shell:common.required', { field: t('confirm') }) },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('newPassword') === value ? Promise.resolve() : Promise.reject(new Error(t('mismatch'))),
            }),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" maxLength={64} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('submit')}
        </Button>
      </Form>
    </Card>
  );
}
