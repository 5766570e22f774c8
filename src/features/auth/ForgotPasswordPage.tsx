import { LockOutlined, NumberOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Radio, Result } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { useActorRef, useSelector } from '@xstate/react';
import { Link, useSearchParams } from 'wouter';
import type { ResetChannel } from '@contract/passwordReset';
import { passwordResetMachine, selectResetError, selectResetSent, selectResetState, selectResetUsername } from '@machines/passwordResetMachine';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { AuthLayout } from './AuthLayout';
import { CaptchaField } from './CaptchaField';
import { useCaptcha } from '@/components/useCaptcha';

type AskValues = { username: string; channel: ResetChannel; code: string };
type ResetValues = { code: string; password: string; confirm: string };

/** /forgot: a code to the account's e-mail or phone, then a new password (machines/passwordResetMachine.ts). */
export function ForgotPasswordPage() {
  const { t } = useTranslation(['auth', 'shell']);
  const client = useDataClient();
  const [params] = useSearchParams();
  const logic = useMemo(
    () =>
      passwordResetMachine.provide({
        actors: {
          sendCode: fromPromise(({ input }) => client.signin.forgotSend(input)),
          resetPassword: fromPromise(({ input }) => client.signin.forgotReset(input)),
        },
      }),
    [client],
  );
  const actor = useActorRef(logic, appActorOptions());
  const state = useSelector(actor, selectResetState);
  const error = useSelector(actor, selectResetError);
  const sent = useSelector(actor, selectResetSent);
  const username = useSelector(actor, selectResetUsername);
  const captcha = useCaptcha();
  const [askForm] = Form.useForm<AskValues>();
  const [resetForm] = Form.useForm<ResetValues>();

  // A send, refused or not, used up the captcha: a new one for the next, the old answer cleared.
  const { refresh } = captcha;
  useEffect(() => {
    if (state === 'entering' || (state === 'asking' && error)) {
      askForm.setFieldValue('code', '');
      refresh();
    }
  }, [state, error, askForm, refresh]);

  if (state === 'done') {
    return (
      <AuthLayout title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
        <Result
          status="success"
          title={t('forgot.done')}
          extra={
            <Link href={`/login?${new URLSearchParams({ username }).toString()}`}>
              <Button type="primary">{t('forgot.toLogin')}</Button>
            </Link>
          }
        />
      </AuthLayout>
    );
  }

  const entering = state === 'entering' || state === 'resetting';
  return (
    <AuthLayout title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      {error && <Alert className="auth-forgot-error" type="error" showIcon style={{ marginBottom: 16 }} title={error} />}
      {!entering ? (
        <Form<AskValues>
          form={askForm}
          layout="vertical"
          requiredMark={false}
          initialValues={{ username: params.get('username') ?? '', channel: 'email', code: '' }}
          onFinish={(values) => actor.send({ type: 'reset.send', body: { username: values.username.trim(), channel: values.channel, code: values.code.trim(), uuid: captcha.uuid } })}
          aria-label={t('forgot.title')}
        >
          <Form.Item name="username" label={t('login.username')} rules={[{ required: true, whitespace: true, message: t('shell:common.required', { field: t('login.username') }) }]}>
            <Input prefix={<UserOutlined />} placeholder={t('login.username')} autoComplete="username" size="large" maxLength={64} />
          </Form.Item>
          <Form.Item name="channel" label={t('forgot.channel')}>
            <Radio.Group optionType="button" options={[{ value: 'email', label: t('forgot.email') }, { value: 'sms', label: t('forgot.sms') }]} />
          </Form.Item>
          <CaptchaField captcha={captcha} />
          <Button type="primary" htmlType="submit" size="large" block loading={state === 'sending'} disabled={!captcha.ready}>
            {t('forgot.send')}
          </Button>
        </Form>
      ) : (
        <Form<ResetValues>
          form={resetForm}
          layout="vertical"
          requiredMark={false}
          onFinish={(values) => actor.send({ type: 'reset.submit', code: values.code, password: values.password })}
          aria-label={t('forgot.submit')}
        >
          {sent && <Alert type="success" showIcon style={{ marginBottom: 16 }} title={t('forgot.sentTo', { to: sent.sentTo, minutes: Math.round(sent.ttl / 60) })} />}
          <Form.Item name="code" label={t('forgot.code')} rules={[{ required: true, pattern: /^\d{6}$/, message: t('forgot.codeHint') }]}>
            <Input prefix={<NumberOutlined />} placeholder={t('forgot.codeHint')} inputMode="numeric" autoComplete="one-time-code" size="large" maxLength={6} />
          </Form.Item>
          <Form.Item name="password" label={t('forgot.newPassword')} rules={[{ required: true, message: t('shell:common.required', { field: t('forgot.newPassword') }) }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" size="large" maxLength={64} />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('forgot.confirm')}
            dependencies={['password']}
            rules={[
              { required: true, message: t('shell:common.required', { field: t('forgot.confirm') }) },
              ({ getFieldValue }) => ({ validator: (_, value) => (!value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(t('forgot.mismatch')))) }),
            ]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" size="large" maxLength={64} />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={state === 'resetting'}>
            {t('forgot.submit')}
          </Button>
          <Button type="link" block onClick={() => actor.send({ type: 'reset.back' })} style={{ marginTop: 8 }}>
            {t('forgot.back')}
          </Button>
        </Form>
      )}
      <div className="auth-switch">
        <Link href="/login">{t('forgot.toLogin')}</Link>
      </div>
    </AuthLayout>
  );
}
