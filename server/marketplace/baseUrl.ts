import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors';
import { SIMULATOR_PREFIX } from './simulator/plugin';

/** The hosts of Ozon's Seller API a shop's base URL may name without an administrator's say. */
export const OZON_API_HOSTS = ['api-seller.ozon.ru'] as const;

/** Loopback, private, link-local, carrier-grade NAT, unspecified, multicast and reserved ranges. */
const NOT_PUBLIC = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is checked as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return !NOT_PUBLIC.check(mapped, 'ipv4');
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type BaseUrlPolicy = {
  /** OZON_API_URL: its host is as good as Ozon's own. */
  ozonApiUrl: string | null;
  /** OZON_ALLOWED_HOSTS: `name` or `name:port`, lower case; these may be private addresses. */
  allowedHosts: readonly string[];
  /** The embedded simulator's own address on this server, when the simulator is on. */
  simulator: { port: number; prefix: string } | null;
  /** Resolves a host name to its addresses (tests give their own). */
  resolve?: (host: string) => Promise<string[]>;
};

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const defaultResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
const refuse = (key: 'baseUrlNotAllowed' | 'baseUrlPrivate' | 'baseUrlUnresolved') => new ApiError(400, key, 'baseUrl');

/**
 * Whether the server may call a shop's base URL: it must name one of Ozon's API hosts, OZON_API_URL's host, a host
 * of OZON_ALLOWED_HOSTS, or (with the simulator on) the simulator on this server. Outside OZON_ALLOWED_HOSTS the
 * host must resolve to public addresses only, so a name cannot point the server at its own network. Throws the
 * 400 to answer; a shop without a base URL uses the server's own setting and is not checked.
 */
export async function checkBaseUrl(policy: BaseUrlPolicy, baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  const hostname = url.hostname.toLowerCase();
  if (mayBePrivate(policy, url)) return;
  const configured = policy.ozonApiUrl ? new URL(policy.ozonApiUrl).hostname.toLowerCase() : null;
  if (!(OZON_API_HOSTS as readonly string[]).includes(hostname) && hostname !== configured) throw refuse('baseUrlNotAllowed');
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = isIP(bare) ? [bare] : await (policy.resolve ?? defaultResolve)(bare);
  } catch {
    throw refuse('baseUrlUnresolved');
  }
  if (addresses.length === 0) throw refuse('baseUrlUnresolved');
  if (!addresses.every(isPublicAddress)) throw refuse('baseUrlPrivate');
}

/** Whether an administrator (OZON_ALLOWED_HOSTS) or the embedded simulator lets this address be a private one. */
export function mayBePrivate(policy: BaseUrlPolicy, url: URL): boolean {
  const hostname = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (policy.allowedHosts.some((entry) => entry === hostname || entry === `${hostname}:${port}`)) return true;
  return !!policy.simulator && LOOPBACK_NAMES.has(hostname) && Number(port) === policy.simulator.port && url.pathname.startsWith(policy.simulator.prefix);
}

/**
 * The fetch for calls to a shop's base URL. A name checked when the shop was saved may resolve differently by the time
 * of a call (DNS rebinding: a public address for the check, 127.0.0.1 a minute later), so the check is made again on
 * the addresses the connection actually uses: this fetch's connections resolve the name once, refuse it when any
 * address is not public, and connect to the address that was checked. Addresses an administrator allowed, and the
 * embedded simulator, go through the plain fetch.
 */
export function baseUrlFetch(policy: BaseUrlPolicy, baseUrl: string): typeof fetch {
  if (mayBePrivate(policy, new URL(baseUrl))) return fetch;
  return async (input, init) => {
    // An address written as such is connected to without a lookup: it is checked here instead.
    const host = new URL(input instanceof Request ? input.url : String(input)).hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) && !isPublicAddress(host)) throw new TypeError(`fetch failed: ${host} is not a public address`);
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: publicAgent(policy) }) as unknown as Response;
  };
}

const agents = new WeakMap<BaseUrlPolicy['resolve'] & object, Agent>();
let defaultAgent: Agent | null = null;

/** One connection pool per resolver, whose every connection goes to a checked public address. */
function publicAgent(policy: BaseUrlPolicy): Agent {
  const make = () => new Agent({ connect: { lookup: publicLookup(policy.resolve ?? defaultResolve) } });
  if (!policy.resolve) return (defaultAgent ??= make());
  let agent = agents.get(policy.resolve);
  if (!agent) agents.set(policy.resolve, (agent = make()));
  return agent;
}

function publicLookup(resolve: (host: string) => Promise<string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const bare = hostname.replace(/^\[(.*)\]$/, '$1');
    (isIP(bare) ? Promise.resolve([bare]) : resolve(bare)).then(
      (addresses) => {
        const refused = addresses.find((address) => !isPublicAddress(address));
        if (addresses.length === 0 || refused) {
          callback(Object.assign(new Error(`${hostname} resolves to ${refused ?? 'nothing'}, not a public address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        const family = (address: string) => (isIP(address) === 6 ? 6 : 4);
        if (options.all) callback(null, addresses.map((address) => ({ address, family: family(address) })) as never);
        else callback(null, addresses[0]!, family(addresses[0]!));
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** This server's policy: its configuration, and the embedded simulator's address when the simulator is on. */
export function baseUrlPolicy(app: FastifyInstance): BaseUrlPolicy {
  return {
    ozonApiUrl: app.config.ozonApiUrl,
    allowedHosts: app.config.ozonAllowedHosts,
    simulator: app.marketplace.simulator ? { port: app.config.port, prefix: SIMULATOR_PREFIX } : null,
  };
}
