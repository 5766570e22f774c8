import { AlipayCircleOutlined, LockOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { Alert, Button, Divider, Form, Input, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'wouter';
import { selectIsLoggingIn, selectPasswordChangeStep, selectPhase, selectSecondStep, selectUserName } from '@machines/sessionMachine';
import { SessionContext } from '@/app/session';
import { AuthLayout } from './AuthLayout';
import { CaptchaField } from './CaptchaField';
import { PasswordChangePanel } from './PasswordChangePanel';
import { SecondStepPanel } from './SecondStepPanel';
import { useCaptcha } from '@/components/useCaptcha';

type LoginValues = { username: string; password: string; code: string };

export function LoginPage() {
  const { t } = useTranslation(['auth', 'shell']);
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginValues>();
  const captcha = useCaptcha();
  const actor = SessionContext.useActorRef();
  const phase = SessionContext.useSelector(selectPhase);
  const loggingIn = SessionContext.useSelector(selectIsLoggingIn);
  const userName = SessionContext.useSelector(selectUserName);
  const secondStep = SessionContext.useSelector(selectSecondStep);
  const passwordChange = SessionContext.useSelector(selectPasswordChangeStep);
  const attempted = useRef(false);
  const redirect = params.get('redirect') || '/';

  // A failed attempt used up the captcha: show a new one and clear the old answer.
  const { refresh } = captcha;
  useEffect(() => {
    if (attempted.current && phase === 'loggedOut' && !loggingIn && !secondStep && !passwordChange) {
      attempted.current = false;
      form.setFieldValue('code', '');
      refresh();
    }
  }, [phase, loggingIn, secondStep, passwordChange, form, refresh]);

  const submit = (values: LoginValues) => {
    attempted.current = true;
    actor.send({
      type: 'session.login',
      username: values.username.trim(),
      password: values.password,
      code: values.code.trim(),
      uuid: captcha.uuid,
      redirect,
    });
  };

  if (passwordChange) {
    return (
      <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
        <PasswordChangePanel />
      </AuthLayout>
    );
  }

  if (secondStep) {
    return (
      <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
        <SecondStepPanel />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      {phase === 'loggedIn' && !attempted.current ? (
        <Alert
          className="auth-logged-in"
          type="info"
          showIcon
          style={{ marginBottom: 20 }}
          title={t('login.loggedInAs', { name: userName })}
          action={
            <Link href={redirect}>
              <Button size="small" type="primary">
                {t('login.continue')}
              </Button>
            </Link>
          }
        />
      ) : null}
      <Form<LoginValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        initialValues={{ username: params.get('username') ?? '', password: '', code: '' }}
        aria-label={t('login.title')}
      >
        <Form.Item
          name="username"
          label={t('login.username')}
          rules={[{ required: true, whitespace: true, message: t('shell:common.required', { field: t('login.username') }) }]}
        >
          <Input prefix={<UserOutlined />} placeholder={t('login.username')} autoComplete="username" size="large" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          rules={[{ required: true, message: t('shell:common.required', { field: t('login.password') }) }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('login.password')}
            autoComplete="current-password"
            size="large"
            maxLength={128}
          />
        </Form.Item>
        <CaptchaField captcha={captcha} />
        <Button type="primary" htmlType="submit" size="large" block loading={loggingIn} disabled={!captcha.ready}>
          {t('login.submit')}
        </Button>
      </Form>
      <Divider plain>{t('login.thirdParty')}</Divider>
      <div className="auth-third">
        <Tooltip title={t('login.thirdPartySoon')}>
          <Button shape="circle" size="large" icon={<WechatOutlined />} disabled aria-label="WeChat" />
        </Tooltip>
        <Tooltip title={t('login.thirdPartySoon')}>
          <Button shape="circle" size="large" icon={<AlipayCircleOutlined />} disabled aria-label="Alipay" />
        </Tooltip>
      </div>
      <div className="auth-switch">
        <Link href="/forgot" className="auth-forgot-link">
          {t('forgot.link')}
        </Link>
        {' · '}
        {t('login.noAccount')} <Link href="/register">{t('login.toRegister')}</Link>
      </div>
    </AuthLayout>
  );
}
