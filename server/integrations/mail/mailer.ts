import nodemailer from 'nodemailer';
import type { SmtpSecurity } from '../../../contract/signinServices';
import type { MailMessage } from './messages';

/** Where a mail goes out: a server's address and login, or an smtp(s):// URL from the configuration. */
export type SmtpTarget =
  | {
      kind: 'server';
      host: string;
      port: number;
      security: SmtpSecurity;
      username: string;
      password: string | null;
      from: string;
      /** The checked address to connect to (server/integrations/mail/smtpHost.ts); the host names the TLS certificate. */
      address?: string;
    }
  | { kind: 'url'; url: string; from: string };

/** Sends one mail by SMTP (nodemailer); throws with the server's reason when it is refused or unreachable. */
export async function sendSmtp(target: SmtpTarget, to: string, message: MailMessage): Promise<{ messageId: string }> {
  const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
  const transport =
    target.kind === 'url'
      ? nodemailer.createTransport({ url: target.url, ...timeouts })
      : nodemailer.createTransport({
          host: target.address ?? target.host,
          port: target.port,
          ...(target.address && target.address !== target.host ? { tls: { servername: target.host } } : {}),
          secure: target.security === 'tls',
          requireTLS: target.security === 'starttls',
          ignoreTLS: target.security === 'none',
          ...(target.username ? { auth: { user: target.username, pass: target.password ?? '' } } : {}),
          ...timeouts,
        });
  try {
    const info = await transport.sendMail({ from: target.from, to, subject: message.subject, text: message.text });
    return { messageId: String(info.messageId ?? '') };
  } finally {
    transport.close();
  }
}
