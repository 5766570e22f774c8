import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { SERVICE_MESSAGES } from '../../../contract/signinServices';
import { ApiError } from '../../http/errors';
import { isPublicAddress } from '../../marketplace/baseUrl';

/**
 * Which SMTP servers an organisation's mail settings may name. An owner types the host, and the server connects to
 * it: a name or address on the server's own network (127.0.0.1, 10.x, 169.254.169.254 ...) would let them probe or
 * talk to internal services through the "send a test message" button (SSRF). So the host must resolve to public
 * addresses only, unless the operator allowed it (SMTP_ALLOWED_HOSTS: `name` or `name:port`, e.g. the company's own
 * mail relay) or it is the in-process mail simulator. The app's own SMTP_URL is the operator's and is not checked.
 */
export type SmtpHostPolicy = {
  allowedHosts: readonly string[];
  /** The in-process simulator's address, when it runs. */
  simulator: { host: string; port: number } | null;
  /** Resolves a name to its addresses (tests give their own). */
  resolve?: (host: string) => Promise<string[]>;
};

const defaultResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** Whether the operator or the simulator lets this host be a private one. */
function allowed(policy: SmtpHostPolicy, host: string, port: number): boolean {
  const name = host.toLowerCase();
  if (policy.allowedHosts.some((entry) => entry === name || entry === `${name}:${port}`)) return true;
  return !!policy.simulator && policy.simulator.host === name && policy.simulator.port === port;
}

/**
 * The address to connect to for an organisation's SMTP host, checked: the name resolved once and every address
 * public (or the host allowed). Connecting to the checked address, not the name again, keeps a name that resolves
 * differently a moment later (DNS rebinding) from reaching the server's own network. Throws the 400 to answer.
 */
export async function checkedSmtpAddress(policy: SmtpHostPolicy, host: string, port: number): Promise<string> {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (allowed(policy, bare, port)) return bare;
  let addresses: string[];
  try {
    addresses = isIP(bare) ? [bare] : await (policy.resolve ?? defaultResolve)(bare);
  } catch {
    throw new ApiError(400, SERVICE_MESSAGES.smtpHostUnresolved, 'smtpHost');
  }
  if (addresses.length === 0) throw new ApiError(400, SERVICE_MESSAGES.smtpHostUnresolved, 'smtpHost');
  if (!addresses.every(isPublicAddress)) throw new ApiError(400, SERVICE_MESSAGES.smtpHostPrivate, 'smtpHost');
  return addresses[0]!;
}
