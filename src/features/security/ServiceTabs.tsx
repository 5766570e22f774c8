import { Alert, App, Button, Card, Form, Input, InputNumber, Select, Slider, Space, Switch, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CAPTCHA_TYPES,
  SMS_PROVIDERS,
  SMTP_SECURITY,
  type CaptchaAnswer,
  type CaptchaSettings,
  type MailSettingsAnswer,
  type SaveMailBody,
  type SaveSmsBody,
  type SmsSettingsAnswer,
} from '@contract/signinServices';
import { useDataClient } from '@/app/dataClient';
import { useCaptcha } from '@/features/auth/useCaptcha';

/** The simulator's AccessKey (server/integrations/sms/simulator.ts), shown only while the app sends through it. */
const SIM_SMS_KEY = { id: 'LTAI5tSimulatorKey0001', secret: 'simulator-secret-0001' };

type Loaded<T> = { value: T | null; error: string | null; reload: () => Promise<void>; set: (value: T) => void };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'object' && error && 'message' in error ? String((error as { message: unknown }).message) : String(error);
}

function useLoaded<T>(load: () => Promise<T>): Loaded<T> {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setValue(await load());
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, [load]);
  useEffect(() => void reload(), [reload]);
  return { value, error, reload, set: setValue };
}

/** Runs one action at a time with its busy flag; a failure was already shown by the worker (the server's reason). */
function useAction(): [boolean, (work: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // Shown by the worker.
    } finally {
      setBusy(false);
    }
  }, []);
  return [busy, run];
}

function LoadError({ error, retry }: { error: string; retry: () => void }) {
  const { t } = useTranslation('security');
  return <Alert type="error" showIcon title={t('loadFailed', { reason: error })} action={<Button onClick={retry}>{t('retry')}</Button>} />;
}

type MailForm = Omit<SaveMailBody, 'orgId' | 'status'> & { status: boolean };

/** The organisation's mail server (the spec's e-mail server: smtp, pop, imap hosts and ports, status) and a test message. */
export function MailTab() {
  const { t } = useTranslation('securityServices');
  const { message } = App.useApp();
  const client = useDataClient();
  const [form] = Form.useForm<MailForm>();
  const [saving, runSave] = useAction();
  const [testTo, setTestTo] = useState('');
  const [testing, runTest] = useAction();
  const load = useCallback(() => client.signin.mailSettings(), [client]);
  const loaded = useLoaded<MailSettingsAnswer>(load);
  const answer = loaded.value;

  useEffect(() => {
    if (!answer) return;
    const s = answer.settings;
    form.setFieldsValue(
      s
        ? { ...s, status: s.status === 1, password: '' }
        : { smtpHost: '', smtpPort: 465, smtpSecurity: 'tls', popHost: '', popPort: 995, imapHost: '', imapPort: 993, username: '', password: '', fromAddress: '', status: true },
    );
  }, [answer, form]);

  if (loaded.error) return <LoadError error={loaded.error} retry={() => void loaded.reload()} />;
  const save = ({ status, password, ...values }: MailForm) =>
    runSave(async () => {
      loaded.set(await client.signin.saveMailSettings({ ...values, ...(password ? { password } : {}), status: status ? 1 : 0 }));
      void message.success(t('saved'));
    });
  const sendTest = () =>
    runTest(async () => {
      const sent = await client.signin.testMail(testTo);
      void message.success(t('mail.testSent', { to: sent.to, via: sent.via }));
    });
  const sim = answer?.simulator;
  return (
    <div className="security-mail">
      <Card title={t('mail.title')} size="small" style={{ marginBottom: 16 }} loading={!answer}>
        <Typography.Paragraph type="secondary">{t('mail.hint')}</Typography.Paragraph>
        {answer && <Alert style={{ marginBottom: 12 }} type="info" showIcon title={t(`fallback.${answer.fallback}`)} />}
        {sim && (
          <Typography.Paragraph>
            {t('mail.simulator', { host: sim.host, port: sim.port })}{' '}
            <Button size="small" onClick={() => form.setFieldsValue({ smtpHost: sim.host, smtpPort: sim.port, smtpSecurity: 'none', fromAddress: form.getFieldValue('fromAddress') || 'no-reply@seller.local' })}>
              {t('mail.useSimulator')}
            </Button>
          </Typography.Paragraph>
        )}
        <Form<MailForm> form={form} layout="vertical" onFinish={(values) => void save(values)} aria-label={t('mail.title')} style={{ maxWidth: 720 }}>
          <Space wrap align="start">
            <Form.Item name="smtpHost" label={t('mail.smtpHost')} rules={[{ required: true }]}>
              <Input style={{ width: 240 }} placeholder="smtp.exmail.qq.com" />
            </Form.Item>
            <Form.Item name="smtpPort" label={t('mail.smtpPort')} rules={[{ required: true }]}>
              <InputNumber min={1} max={65535} style={{ width: 110 }} />
            </Form.Item>
            <Form.Item name="smtpSecurity" label={t('mail.security')}>
              <Select style={{ width: 140 }} options={SMTP_SECURITY.map((value) => ({ value, label: t(`mail.securities.${value}`) }))} />
            </Form.Item>
          </Space>
          <Space wrap align="start">
            <Form.Item name="popHost" label={t('mail.popHost')}>
              <Input style={{ width: 240 }} placeholder="pop.exmail.qq.com" />
            </Form.Item>
            <Form.Item name="popPort" label={t('mail.popPort')}>
              <InputNumber min={1} max={65535} style={{ width: 110 }} />
            </Form.Item>
            <Form.Item name="imapHost" label={t('mail.imapHost')}>
              <Input style={{ width: 240 }} placeholder="imap.exmail.qq.com" />
            </Form.Item>
            <Form.Item name="imapPort" label={t('mail.imapPort')}>
              <InputNumber min={1} max={65535} style={{ width: 110 }} />
            </Form.Item>
          </Space>
          <Space wrap align="start">
            <Form.Item name="username" label={t('mail.username')}>
              <Input style={{ width: 240 }} autoComplete="off" />
            </Form.Item>
            <Form.Item name="password" label={t('mail.password')} extra={answer?.settings?.passwordSet ? t('keepSecret') : undefined}>
              <Input.Password style={{ width: 240 }} autoComplete="new-password" />
            </Form.Item>
            <Form.Item name="fromAddress" label={t('mail.from')} rules={[{ required: true, type: 'email' }]}>
              <Input style={{ width: 240 }} placeholder="no-reply@example.com" />
            </Form.Item>
          </Space>
          <Form.Item name="status" label={t('status')} valuePropName="checked">
            <Switch checkedChildren={t('on')} unCheckedChildren={t('off')} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('save')}
          </Button>
        </Form>
      </Card>
      <Card title={t('mail.testTitle')} size="small">
        <Space>
          <Input aria-label={t('mail.testTo')} placeholder={t('mail.testTo')} value={testTo} onChange={(event) => setTestTo(event.target.value.trim())} style={{ width: 260 }} />
          <Button onClick={() => void sendTest()} loading={testing} disabled={!/^[^\s@]+@[^\s@]+$/.test(testTo)}>
            {t('mail.testSend')}
          </Button>
        </Space>
      </Card>
    </div>
  );
}

type SmsForm = Omit<SaveSmsBody, 'orgId' | 'status'> & { status: boolean };

/** The organisation's SMS account (the spec's SMS: app_key, template, status) at Aliyun SMS, and a test code. */
export function SmsTab() {
  const { t } = useTranslation('securityServices');
  const { message } = App.useApp();
  const client = useDataClient();
  const [form] = Form.useForm<SmsForm>();
  const [saving, runSave] = useAction();
  const [phone, setPhone] = useState('');
  const [testing, runTest] = useAction();
  const load = useCallback(() => client.signin.smsSettings(), [client]);
  const loaded = useLoaded<SmsSettingsAnswer>(load);
  const answer = loaded.value;

  useEffect(() => {
    if (!answer) return;
    const s = answer.settings;
    form.setFieldsValue(s ? { ...s, status: s.status === 1, appSecret: '' } : { provider: 'aliyun', appKey: '', appSecret: '', signName: '', template: '', status: true });
  }, [answer, form]);

  if (loaded.error) return <LoadError error={loaded.error} retry={() => void loaded.reload()} />;
  const save = ({ status, appSecret, ...values }: SmsForm) =>
    runSave(async () => {
      loaded.set(await client.signin.saveSmsSettings({ ...values, ...(appSecret ? { appSecret } : {}), status: status ? 1 : 0 }));
      void message.success(t('saved'));
    });
  const sendTest = () =>
    runTest(async () => {
      const sent = await client.signin.testSms(phone);
      void message.success(t('sms.testSent', { to: sent.to, via: sent.via }));
    });
  return (
    <div className="security-sms">
      <Card title={t('sms.title')} size="small" style={{ marginBottom: 16 }} loading={!answer}>
        <Typography.Paragraph type="secondary">{t('sms.hint')}</Typography.Paragraph>
        {answer && <Alert style={{ marginBottom: 12 }} type="info" showIcon title={t(`fallback.${answer.fallback}`)} />}
        {answer?.fallback === 'simulator' && <Typography.Paragraph copyable>{t('sms.simulatorKey', SIM_SMS_KEY)}</Typography.Paragraph>}
        <Form<SmsForm> form={form} layout="vertical" onFinish={(values) => void save(values)} aria-label={t('sms.title')} style={{ maxWidth: 720 }}>
          <Space wrap align="start">
            <Form.Item name="provider" label={t('sms.provider')}>
              <Select style={{ width: 160 }} options={SMS_PROVIDERS.map((value) => ({ value, label: t(`sms.providers.${value}`) }))} />
            </Form.Item>
            <Form.Item name="appKey" label={t('sms.appKey')} rules={[{ required: true }]}>
              <Input style={{ width: 240 }} autoComplete="off" />
            </Form.Item>
            <Form.Item name="appSecret" label={t('sms.appSecret')} extra={answer?.settings?.secretSet ? t('keepSecret') : undefined} rules={answer?.settings?.secretSet ? [] : [{ required: true }]}>
              <Input.Password style={{ width: 240 }} autoComplete="new-password" />
            </Form.Item>
          </Space>
          <Space wrap align="start">
            <Form.Item name="signName" label={t('sms.signName')} rules={[{ required: true }]}>
              <Input style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="template" label={t('sms.template')} rules={[{ required: true, pattern: /^SMS_\d+$/ }]}>
              <Input style={{ width: 200 }} placeholder="SMS_123456789" />
            </Form.Item>
          </Space>
          <Form.Item name="status" label={t('status')} valuePropName="checked">
            <Switch checkedChildren={t('on')} unCheckedChildren={t('off')} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('save')}
          </Button>
        </Form>
      </Card>
      <Card title={t('sms.testTitle')} size="small">
        <Space>
          <Input aria-label={t('sms.testPhone')} placeholder={t('sms.testPhone')} value={phone} onChange={(event) => setPhone(event.target.value.trim())} style={{ width: 200 }} />
          <Button onClick={() => void sendTest()} loading={testing} disabled={!/^\+?\d{6,15}$/.test(phone)}>
            {t('sms.testSend')}
          </Button>
        </Space>
      </Card>
    </div>
  );
}

type CaptchaForm = Omit<CaptchaSettings, 'status'> & { status: boolean };

/** The app's captcha (the spec's type, complexity 1-10, app_key, status), with the captcha served next. */
export function CaptchaTab() {
  const { t } = useTranslation('securityServices');
  const { message } = App.useApp();
  const client = useDataClient();
  const [form] = Form.useForm<CaptchaForm>();
  const [saving, runSave] = useAction();
  const load = useCallback(() => client.signin.captchaSettings(), [client]);
  const loaded = useLoaded<CaptchaAnswer>(load);
  const preview = useCaptcha();
  const answer = loaded.value;

  useEffect(() => {
    if (answer) form.setFieldsValue({ ...answer.settings, status: answer.settings.status === 1 });
  }, [answer, form]);

  if (loaded.error) return <LoadError error={loaded.error} retry={() => void loaded.reload()} />;
  const save = ({ status, ...values }: CaptchaForm) =>
    runSave(async () => {
      loaded.set(await client.signin.saveCaptchaSettings({ ...values, status: status ? 1 : 0 }));
      void message.success(t('saved'));
      preview.refresh();
    });
  const editable = answer?.editable ?? false;
  return (
    <Card title={t('captcha.title')} size="small" loading={!answer} className="security-captcha">
      <Typography.Paragraph type="secondary">{t('captcha.hint')}</Typography.Paragraph>
      {answer && !editable && <Alert style={{ marginBottom: 12 }} type="info" showIcon title={t('captcha.readOnly')} />}
      <Form<CaptchaForm> form={form} layout="vertical" disabled={!editable} onFinish={(values) => void save(values)} aria-label={t('captcha.title')} style={{ maxWidth: 520 }}>
        <Form.Item name="type" label={t('captcha.type')}>
          <Select style={{ width: 160 }} options={CAPTCHA_TYPES.map((value) => ({ value, label: t(`captcha.types.${value}`) }))} />
        </Form.Item>
        <Form.Item name="complexity" label={t('captcha.complexity')} extra={t('captcha.complexityHint')}>
          <Slider min={1} max={10} marks={{ 1: '1', 5: '5', 10: '10' }} />
        </Form.Item>
        <Form.Item name="appKey" label={t('captcha.appKey')} extra={t('captcha.appKeyHint')}>
          <Input style={{ width: 280 }} autoComplete="off" />
        </Form.Item>
        <Form.Item name="status" label={t('status')} valuePropName="checked" extra={t('captcha.statusHint')}>
          <Switch checkedChildren={t('on')} unCheckedChildren={t('off')} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('save')}
        </Button>
      </Form>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('captcha.preview')}
      </Typography.Title>
      <Space>
        {preview.img && <img src={preview.img} alt={t('captcha.preview')} style={{ height: 48, border: '1px solid #eee' }} />}
        <Button size="small" onClick={preview.refresh}>
          {t('captcha.refresh')}
        </Button>
      </Space>
    </Card>
  );
}
