import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { App, Button, Form, Input } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { message as catalogue } from '@contract/errors';
import { USERNAME_PATTERN } from '@contract/session';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { PasswordRuleList, passwordRuleValidator, usePasswordRules } from '@/components/password-rules/PasswordRules';
import { AuthLayout } from './AuthLayout';
import { CaptchaField } from './CaptchaField';
import { useCaptcha } from '@/components/useCaptcha';

type RegisterValues = { username: string; password: string; confirm: string; code: string };

export function RegisterPage() {
  const { t, i18n } = useTranslation(['auth', 'shell']);
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const { message } = App.useApp();
  const [, navigate] = useLocation();
  const [form] = Form.useForm<RegisterValues>();
  const captcha = useCaptcha();
  const [submitting, setSubmitting] = useState(false);
  const rules = usePasswordRules(useCallback(() => client.signin.passwordRulesForRegister(), [client]));
  const password = Form.useWatch('password', form) ?? '';
  const username = Form.useWatch('username', form) ?? '';

  const submit = async (values: RegisterValues) => {
    setSubmitting(true);
    try {
      const user = await client.session.register({
        username: values.username.trim(),
        password: values.password,
        code: values.code.trim(),
        uuid: captcha.uuid,
      });
      void message.success(t('register.success'), 5);
      navigate(`/login?${new URLSearchParams({ username: user.name }).toString()}`);
    } catch {
      // The worker showed the reason (507 duplicate name, 508/509 captcha, 400 policy); the captcha is used up.
      form.setFieldValue('code', '');
      captcha.refresh();
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')}>
      <Form<RegisterValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} aria-label={t('register.title')}>
        <Form.Item
          name="username"
          label={t('login.username')}
          extra={catalogue('usernamePolicy', lang)}
          rules={[
            { required: true, whitespace: true, message: t('shell:common.required', { field: t('login.username') }) },
            { pattern: USERNAME_PATTERN, message: catalogue('usernamePolicy', lang) },
          ]}
        >
          <Input prefix={<UserOutlined />} placeholder={t('login.username')} autoComplete="username" size="large" maxLength={32} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          extra={<PasswordRuleList state={rules} password={password} lang={lang} subject={{ username: username.trim() }} />}
          dependencies={['username']}
          rules={[
            { required: true, message: t('shell:common.required', { field: t('login.password') }) },
            passwordRuleValidator(rules, lang, () => ({ username: String(form.getFieldValue('username') ?? '').trim() })),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} placeholder={t('login.password')} autoComplete="new-password" size="large" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('register.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('shell:common.required', { field: t('register.confirm') }) },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(t('register.mismatch'))),
            }),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} placeholder={t('register.confirm')} autoComplete="new-password" size="large" maxLength={64} />
        </Form.Item>
        <CaptchaField captcha={captcha} />
        <Button type="primary" htmlType="submit" size="large" block loading={submitting} disabled={!captcha.ready}>
          {t('register.submit')}
        </Button>
      </Form>
      <div className="auth-switch">
        {t('register.haveAccount')} <Link href="/login">{t('register.toLogin')}</Link>
      </div>
    </AuthLayout>
  );
}
