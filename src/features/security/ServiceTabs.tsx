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
import { useCaptcha } from '@/components/useCaptcha';

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

/** A settings form's fields as the form holds them: the stored status (1/0) as a switch. */
type WithSwitch<T> = Omit<T, 'status'> & { status: boolean };

/**
 * One settings tab's data: its answer loaded (with the error and a retry), the form filled from it whenever it
 * arrives, and `save` sending the form (status back to 1/0) and keeping the answer the server gives back.
 */
function useSettingsForm<A, F extends { status: boolean }>(options: {
  load: () => Promise<A>;
  toForm: (answer: A) => F;
  send: (values: Omit<F, 'status'> & { status: 0 | 1 }) => Promise<A>;
  saved?: () => void;
}) {
  const { t } = useTranslation('securityServices');
  const { message } = App.useApp();
  const [form] = Form.useForm<F>();
  const [saving, runSave] = useAction();
  const loaded = useLoaded<A>(options.load);
  const { toForm, send, saved } = options;
  const answer = loaded.value;
  useEffect(() => {
    if (answer) form.setFieldsValue(toForm(answer) as Parameters<typeof form.setFieldsValue>[0]);
  }, [answer, form, toForm]);
  const save = ({ status, ...values }: F) =>
    runSave(async () => {
      loaded.set(await send({ ...values, status: status ? 1 : 0 }));
      void message.success(t('saved'));
      saved?.();
    });
  return { form, answer, loaded, saving, save };
}

/** The status switch and the save button every settings form ends with. */
function StatusAndSave({ saving, extra }: { saving: boolean; extra?: string }) {
  const { t } = useTranslation('securityServices');
  return (
    <>
      <Form.Item name="status" label={t('status')} valuePropName="checked" extra={extra}>
        <Switch checkedChildren={t('on')} unCheckedChildren={t('off')} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('save')}
      </Button>
    </>
  );
}

/** A test message to an address the administrator types (a mail address, a phone number), sent through the saved settings. */
function TestSendCard(props: { title: string; label: string; button: string; width: number; valid: RegExp; send: (to: string) => Promise<{ to: string; via: string }>; sentKey: 'mail.testSent' | 'sms.testSent' }) {
  const { t } = useTranslation('securityServices');
  const { message } = App.useApp();
  const [to, setTo] = useState('');
  const [testing, runTest] = useAction();
  const sendTest = () =>
    runTest(async () => {
      const sent = await props.send(to);
      void message.success(t(props.sentKey, { to: sent.to, via: sent.via }));
    });
  return (
    <Card title={props.title} size="small">
      <Space>
        <Input aria-label={props.label} placeholder={props.label} value={to} onChange={(event) => setTo(event.target.value.trim())} style={{ width: props.width }} />
        <Button onClick={() => void sendTest()} loading={testing} disabled={!props.valid.test(to)}>
          {props.button}
        </Button>
      </Space>
    </Card>
  );
}

type MailForm = WithSwitch<Omit<SaveMailBody, 'orgId'>>;
const NEW_MAIL: MailForm = { smtpHost: '', smtpPort: 465, smtpSecurity: 'tls', popHost: '', popPort: 995, imapHost: '', imapPort: 993, username: '', password: '', fromAddress: '', status: true };
const mailForm = ({ settings: s }: MailSettingsAnswer): MailForm => (s ? { ...s, status: s.status === 1, password: '' } : NEW_MAIL);

/** The organisation's mail server (the spec's e-mail server: smtp, pop, imap hosts and ports, status) and a test message. */
export function MailTab() {
  const { t } = useTranslation('securityServices');
  const client = useDataClient();
  const load = useCallback(() => client.signin.mailSettings(), [client]);
  const { form, answer, loaded, saving, save } = useSettingsForm({
    load,
    toForm: mailForm,
    // An empty password field keeps the stored one.
    send: ({ password, ...values }: Omit<MailForm, 'status'> & { status: 0 | 1 }) => client.signin.saveMailSettings({ ...values, ...(password ? { password } : {}) }),
  });
  if (loaded.error) return <LoadError error={loaded.error} retry={() => void loaded.reload()} />;
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
          <StatusAndSave saving={saving} />
        </Form>
      </Card>
      <TestSendCard title={t('mail.testTitle')} label={t('mail.testTo')} button={t('mail.testSend')} width={260} valid={/^[^\s@]+@[^\s@]+$/} send={(to) => client.signin.testMail(to)} sentKey="mail.testSent" />
    </div>
  );
}

type SmsForm = WithSwitch<Omit<SaveSmsBody, 'orgId'>>;
const NEW_SMS: SmsForm = { provider: 'aliyun', appKey: '', appSecret: '', signName: '', template: '', status: true };
const smsForm = ({ settings: s }: SmsSettingsAnswer): SmsForm => (s ? { ...s, status: s.status === 1, appSecret: '' } : NEW_SMS);

/** The organisation's SMS account (the spec's SMS: app_key, template, status) at Aliyun SMS, and a test code. */
export function SmsTab() {
  const { t } = useTranslation('securityServices');
  const client = useDataClient();
  const load = useCallback(() => client.signin.smsSettings(), [client]);
  const { form, answer, loaded, saving, save } = useSettingsForm({
    load,
    toForm: smsForm,
    // An empty secret field keeps the stored one.
    send: ({ appSecret, ...values }: Omit<SmsForm, 'status'> & { status: 0 | 1 }) => client.signin.saveSmsSettings({ ...values, ...(appSecret ? { appSecret } : {}) }),
  });
  if (loaded.error) return <LoadError error={loaded.error} retry={() => void loaded.reload()} />;
  return (
    <div className="security-sms">
      <Card title={t('sms.title')} size="small" style={{ marginBottom: 16 }} loading={!answer}>
        <Typography.Paragraph type="secondary">{t('sms.hint')}</Typography.Paragraph>
        {answer && <Alert style={{ marginBottom: 12 }} type="info" showIcon title={answer.fallback === 'simulator' ? t('sms.simulatorFallback') : t(`fallback.${answer.fallback}`)} />}
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
          <StatusAndSave saving={saving} />
        </Form>
      </Card>
      <TestSendCard title={t('sms.testTitle')} label={t('sms.testPhone')} button={t('sms.testSend')} width={200} valid={/^\+?\d{6,15}$/} send={(to) => client.signin.testSms(to)} sentKey="sms.testSent" />
    </div>
  );
}

type CaptchaForm = WithSwitch<CaptchaSettings>;
const captchaForm = ({ settings }: CaptchaAnswer): CaptchaForm => ({ ...settings, status: settings.status === 1 });

/** The app's captcha (the spec's type, complexity 1-10, app_key, status), with the captcha served next. */
export function CaptchaTab() {
  const { t } = useTranslation('securityServices');
  const client = useDataClient();
  const preview = useCaptcha();
  const load = useCallback(() => client.signin.captchaSettings(), [client]);
  const { form, answer, loaded, saving, save } = useSettingsForm({
    load,
    toForm: captchaForm,
    send: (values: CaptchaSettings) => client.signin.saveCaptchaSettings(values),
    // The next captcha follows the new settings.
    saved: preview.refresh,
  });
  if (loaded.error) return <LoadError error={loaded.error} retry={() => void loaded.reload()} />;
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
        <StatusAndSave saving={saving} extra={t('captcha.statusHint')} />
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
