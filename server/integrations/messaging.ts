import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { simulatorControlGuard } from '../marketplace/plugin';
import { injectFetch } from '../marketplace/simulator/injectFetch';
import type { SmtpTarget } from './mail/mailer';
import { startMailSimulator, type MailSimulator } from './mail/simulator';
import { createSmsSimulator, SIM_SMS_ACCESS_KEY_ID, SIM_SMS_ACCESS_KEY_SECRET, smsSimulatorPlugin, type SmsSimulator } from './sms/simulator';

/**
 * Mail and SMS, the app's own services: what an organisation without its own mail server or SMS account sends
 * through. Configured (SMTP_URL, SMS_API_URL with its AccessKey) they are the real services; unconfigured outside
 * production, the in-process simulators: a local SMTP server (smtp-server) and Aliyun SMS's API at /sim/aliyun-sms.
 * What they receive is logged and listed at /sim/mail (this machine or an administrator only).
 */
export type Messaging = {
  mail: { fallback: SmtpTarget | null; fallbackKind: 'config' | 'simulator' | 'none'; simulator: MailSimulator | null };
  sms: {
    /** Where SendSms goes for every account: SMS_API_URL, or the simulator. Null: no SMS in this installation. */
    url: string | null;
    fetch: typeof fetch;
    /** The app's own account, for organisations without theirs. */
    fallback: { accessKeyId: string; accessKeySecret: string; signName: string; template: string } | null;
    fallbackKind: 'config' | 'simulator' | 'none';
    simulator: SmsSimulator | null;
  };
};

declare module 'fastify' {
  interface FastifyInstance {
    messaging: Messaging;
  }
}

export const SMS_SIMULATOR_PREFIX = '/sim/aliyun-sms';
export const MAIL_SIMULATOR_PATH = '/sim/mail';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const messagingPlugin = fp(
  async function messagingPlugin(app: FastifyInstance) {
    const { config } = app;
    let mail: Messaging['mail'];
    if (config.mail.url) mail = { fallback: { kind: 'url', url: config.mail.url, from: config.mail.from }, fallbackKind: 'config', simulator: null };
    else if (config.production) mail = { fallback: null, fallbackKind: 'none', simulator: null };
    else {
      const simulator = await startMailSimulator((received) => app.log.info({ to: received.to, subject: received.subject, text: received.text }, 'mail simulator received a message'));
      app.addHook('onClose', () => simulator.close());
      mail = {
        fallback: { kind: 'server', host: simulator.host, port: simulator.port, security: 'none', username: '', password: null, from: config.mail.from },
        fallbackKind: 'simulator',
        simulator,
      };
    }

    let sms: Messaging['sms'];
    const { sms: smsConfig } = config;
    if (smsConfig.url) {
      const fallback = smsConfig.accessKeyId && smsConfig.accessKeySecret ? { accessKeyId: smsConfig.accessKeyId, accessKeySecret: smsConfig.accessKeySecret, signName: smsConfig.signName, template: smsConfig.template } : null;
      sms = { url: smsConfig.url, fetch, fallback, fallbackKind: fallback ? 'config' : 'none', simulator: null };
    } else if (config.production) sms = { url: null, fetch, fallback: null, fallbackKind: 'none', simulator: null };
    else {
      const simulator = createSmsSimulator();
      await app.register(smsSimulatorPlugin, {
        prefix: SMS_SIMULATOR_PREFIX,
        simulator,
        now: () => app.now().getTime(),
        onSms: (received) => app.log.info({ phone: received.phone, text: received.text }, 'SMS simulator received a message'),
      });
      sms = {
        url: `http://embedded${SMS_SIMULATOR_PREFIX}/`,
        fetch: injectFetch(app),
        fallback: { accessKeyId: SIM_SMS_ACCESS_KEY_ID, accessKeySecret: SIM_SMS_ACCESS_KEY_SECRET, signName: smsConfig.signName, template: smsConfig.template },
        fallbackKind: 'simulator',
        simulator,
      };
    }

    if (mail.simulator || sms.simulator) {
      // A developer's inbox: the simulators' messages, newest first (they hold codes: this machine or an administrator only).
      const allowed = simulatorControlGuard(app);
      app.get(MAIL_SIMULATOR_PATH, async (request, reply) => {
        if (!(await allowed(request))) return reply.code(403).type('text/plain').send('Forbidden: this machine or an administrator only');
        const mails = [...(mail.simulator?.messages ?? [])].reverse();
        const texts = [...(sms.simulator?.received ?? [])].reverse();
        if (request.headers.accept?.includes('application/json')) return reply.send({ mails, sms: texts });
        const rows = mails
          .map((m) => `<article><h3>${escape(m.subject)}</h3><p><b>${escape(m.to.join(', '))}</b> · ${new Date(m.receivedAt).toISOString()}</p><pre>${escape(m.text)}</pre></article>`)
          .join('');
        const smsRows = texts.map((s) => `<li><b>${escape(s.phone)}</b> ${escape(s.text)} · ${new Date(s.at).toISOString()}</li>`).join('');
        return reply
          .type('text/html; charset=utf-8')
          .send(
            `<!doctype html><meta charset="utf-8"><title>Simulated mail and SMS</title><style>body{font:14px sans-serif;margin:24px;max-width:900px}article{border-bottom:1px solid #ddd}pre{white-space:pre-wrap}</style>` +
              `<h1>Mail received by the local SMTP server (${mail.simulator ? `${mail.simulator.host}:${mail.simulator.port}` : 'off'})</h1>${rows || '<p>None yet.</p>'}` +
              `<h1>SMS received by the Aliyun SMS simulator</h1><ul>${smsRows || '<li>None yet.</li>'}</ul>`,
          );
      });
    }
    app.decorate('messaging', { mail, sms });
  },
  { name: 'messaging' },
);
