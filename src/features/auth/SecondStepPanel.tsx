import { KeyOutlined, SafetyOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, QRCode, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectEnrolment, selectRecoveryCodes, selectSecondStep } from '@machines/sessionMachine';
import { SessionContext } from '@/app/session';

type CodeValues = { code: string };

/**
 * The login's second step (the session machine's `secondStep`): the one-time code or a recovery code; a required
 * set-up (QR code, the key in text, a first code); then the recovery codes, shown once.
 */
export function SecondStepPanel() {
  const { t } = useTranslation(['auth', 'shell']);
  const actor = SessionContext.useActorRef();
  const step = SessionContext.useSelector(selectSecondStep);
  const enrolment = SessionContext.useSelector(selectEnrolment);
  const recoveryCodes = SessionContext.useSelector(selectRecoveryCodes);
  const [recovery, setRecovery] = useState(false);
  const [form] = Form.useForm<CodeValues>();

  const submit = (values: CodeValues) => {
    actor.send({ type: 'session.otp', code: values.code.trim(), recovery: step === 'code' || step === 'verifying' ? recovery : false });
    form.setFieldValue('code', '');
  };
  const back = (
    <Button type="link" block onClick={() => actor.send({ type: 'session.cancelSecondStep' })}>
      {t('otp.back')}
    </Button>
  );
  const codeField = (label: string, isRecovery: boolean) => (
    <Form.Item name="code" label={label} rules={[{ required: true, whitespace: true, message: t('shell:common.required', { field: label }) }]}>
      <Input
        prefix={isRecovery ? <KeyOutlined /> : <SafetyOutlined />}
        placeholder={label}
        size="large"
        autoFocus
        autoComplete="one-time-code"
        inputMode={isRecovery ? 'text' : 'numeric'}
        maxLength={32}
      />
    </Form.Item>
  );

  if (step === 'recoveryCodes' && recoveryCodes) {
    return (
      <div className="auth-otp" data-testid="otp-recovery-codes">
        <Typography.Title level={4}>{t('otp.recoveryTitle')}</Typography.Title>
        <Alert type="warning" showIcon title={t('otp.recoverySubtitle')} style={{ marginBottom: 16 }} />
        <ol className="auth-otp__codes">
          {recoveryCodes.map((code) => (
            <li key={code}>
              <Typography.Text code>{code}</Typography.Text>
            </li>
          ))}
        </ol>
        <Typography.Paragraph copyable={{ text: recoveryCodes.join('\n'), tooltips: [t('otp.copy'), t('otp.copied')] }}>{t('otp.copy')}</Typography.Paragraph>
        <Button type="primary" size="large" block onClick={() => actor.send({ type: 'session.recoveryCodesSaved' })}>
          {t('otp.recoverySaved')}
        </Button>
      </div>
    );
  }

  if (step === 'enrolling' || step === 'enrolReady' || step === 'confirming') {
    return (
      <div className="auth-otp" data-testid="otp-enrol">
        <Typography.Title level={4}>{t('otp.enrolTitle')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('otp.enrolSubtitle')}</Typography.Paragraph>
        {enrolment ? (
          <>
            <Typography.Paragraph>{t('otp.enrolStep1')}</Typography.Paragraph>
            <div className="auth-otp__qr">
              <QRCode value={enrolment.uri} size={176} bordered={false} data-testid="otp-qr" />
            </div>
            <Typography.Paragraph>{t('otp.enrolStep2')}</Typography.Paragraph>
            <Typography.Paragraph>
              {t('otp.secret')}:{' '}
              <Typography.Text code copyable data-testid="otp-secret">
                {enrolment.secret}
              </Typography.Text>
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary">
              {t('otp.details', { type: enrolment.type.toUpperCase(), algorithm: enrolment.algorithm, digits: enrolment.digits })}
            </Typography.Paragraph>
            <Typography.Paragraph>{t('otp.enrolStep3')}</Typography.Paragraph>
            <Form<CodeValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} aria-label={t('otp.enrolTitle')}>
              {codeField(t('otp.code'), false)}
              <Button type="primary" htmlType="submit" size="large" block loading={step === 'confirming'}>
                {t('otp.confirm')}
              </Button>
            </Form>
          </>
        ) : (
          <Spin tip={t('otp.loading')}>
            <div style={{ height: 120 }} />
          </Spin>
        )}
        {back}
      </div>
    );
  }

  return (
    <div className="auth-otp" data-testid="otp-code">
      <Typography.Title level={4}>{t('otp.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('otp.subtitle')}</Typography.Paragraph>
      <Form<CodeValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} aria-label={t('otp.title')}>
        {codeField(recovery ? t('otp.recoveryCode') : t('otp.code'), recovery)}
        <Button type="primary" htmlType="submit" size="large" block loading={step === 'verifying'}>
          {t('otp.submit')}
        </Button>
      </Form>
      <Button type="link" block onClick={() => setRecovery(!recovery)}>
        {recovery ? t('otp.useCode') : t('otp.useRecovery')}
      </Button>
      {back}
    </div>
  );
}
