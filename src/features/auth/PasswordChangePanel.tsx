import { LockOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { selectPasswordChange, selectPasswordChangeStep } from '@machines/sessionMachine';
import { message as catalogue } from '@contract/errors';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import { PasswordRuleList, passwordRuleValidator, usePasswordRules } from '@/components/password-rules/PasswordRules';

type ChangeValues = { oldPassword: string; newPassword: string; confirm: string };

/**
 * The sign-in's password change (the session machine's `passwordChange`): the password expired or the policy in force
 * no longer accepts it, and the server refuses everything else until a new one is set under the rules shown here.
 */
export function PasswordChangePanel() {
  const { t, i18n } = useTranslation(['auth', 'shell']);
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const actor = SessionContext.useActorRef();
  const step = SessionContext.useSelector(selectPasswordChangeStep);
  const change = SessionContext.useSelector(selectPasswordChange);
  const [form] = Form.useForm<ChangeValues>();
  const rules = usePasswordRules(useCallback(() => client.signin.ownPasswordRules(), [client]));
  const newPassword = Form.useWatch('newPassword', form) ?? '';
  const submit = (values: ChangeValues) => actor.send({ type: 'session.changePassword', oldPassword: values.oldPassword, newPassword: values.newPassword });

  return (
    <div className="auth-password-change" data-testid="password-change">
      <Typography.Title level={4}>{t('passwordChange.title')}</Typography.Title>
      <Alert type="warning" showIcon title={t(change?.reason === 'policy' ? 'passwordChange.policy' : 'passwordChange.expired')} style={{ marginBottom: 16 }} />
      <Form<ChangeValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} aria-label={t('passwordChange.title')}>
        <Form.Item
          name="oldPassword"
          label={t('passwordChange.oldPassword')}
          rules={[{ required: true, message: t('shell:common.required', { field: t('passwordChange.oldPassword') }) }]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" maxLength={128} />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('passwordChange.newPassword')}
          extra={<PasswordRuleList state={rules} password={newPassword} lang={lang} />}
          dependencies={['oldPassword']}
          rules={[
            { required: true, message: t('shell:common.required', { field: t('passwordChange.newPassword') }) },
            passwordRuleValidator(rules, lang),
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('oldPassword') !== value ? Promise.resolve() : Promise.reject(new Error(catalogue('samePassword', lang))),
            }),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" size="large" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('passwordChange.confirm')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('shell:common.required', { field: t('passwordChange.confirm') }) },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('newPassword') === value ? Promise.resolve() : Promise.reject(new Error(t('passwordChange.mismatch'))),
            }),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" size="large" maxLength={64} />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={step === 'changing'}>
          {t('passwordChange.submit')}
        </Button>
      </Form>
      <Button type="link" block onClick={() => actor.send({ type: 'session.logout' })}>
        {t('passwordChange.logout')}
      </Button>
    </div>
  );
}
