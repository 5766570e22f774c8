import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the local SMTP server received. */
export type ReceivedMail = { id: number; from: string; to: string[]; subject: string; text: string; receivedAt: number; user: string | null };

export type MailSimulator = {
  host: string;
  port: number;
  /** The newest last; at most KEPT. */
  messages: ReceivedMail[];
  /** The first message (received already or still to come) that `match` accepts, within `timeoutMs`. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

const KEPT = 200;

/**
 * A real SMTP server (the smtp-server package) on a loopback port, for the demo and the tests: whatever the app
 * sends by SMTP arrives here, is parsed (mailparser) and kept in memory, and is told to `onMail` (the server logs it,
 * and /sim/mail lists it). It accepts any login, without TLS.
 */
export async function startMailSimulator(onMail: (mail: ReceivedMail) => void = () => undefined): Promise<MailSimulator> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<{ match: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }>();
  let next = 1;
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    size: 5 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? '' });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: ReceivedMail = {
            id: next++,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            receivedAt: Date.now(),
            user: typeof session.user === 'string' && session.user ? session.user : null,
          };
          messages.push(mail);
          if (messages.length > KEPT) messages.shift();
          onMail(mail);
          for (const waiter of waiters) {
            if (waiter.match(mail)) {
              waiters.delete(waiter);
              waiter.resolve(mail);
            }
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => undefined);
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    messages,
    waitFor(match, timeoutMs = 5000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (mail: ReceivedMail) => (clearTimeout(timer), resolve(mail)) };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${messages.map((m) => `${m.to.join(',')} "${m.subject}"`).join('; ') || 'none'})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
