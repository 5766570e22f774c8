import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { CHAT_UPLOAD_MESSAGES, EXTERNAL_IMAGE_MAX_BYTES } from '../../../contract/chatUpload';
import { ApiError } from '../../http/errors';
import { baseUrlFetch, isPublicAddress, mayBePrivate, type BaseUrlPolicy } from '../../marketplace/baseUrl';

/**
 * The one image proxy (contract/externalImage.ts): fetches a picture from another site, for a chat message (issue 27)
 * or a collected or copied product (issue 32), with the checks shop base URLs get: the host must resolve to public
 * addresses only (unless CHAT_IMAGE_ALLOWED_HOSTS names it), checked again on the address the connection uses and at
 * every redirect. Nothing of the seller's browser goes along (no cookie, no referrer, no address); only a raster
 * picture whose bytes say so, at most 5 MB, comes back.
 */
export type ExternalImagePolicy = {
  /** `name` or `name:port`, lower case: may be private addresses (tests' fixture server, an internal CDN). */
  allowedHosts: readonly string[];
  /** Resolves a host name to its addresses (tests give their own). */
  resolve?: (host: string) => Promise<string[]>;
  /**
   * Where a picture is answered in-process instead (the source sites' simulator outside production, whose saved
   * pages name pictures on 1688's and Ozon's hosts): the address to ask and the fetch that reaches it; null: the web.
   */
  simulated?: (url: URL) => { href: string; fetch: typeof fetch } | null;
  timeoutMs?: number;
};

export type ExternalImage = { bytes: Buffer; contentType: string };

const MAX_REDIRECTS = 3;
const REQUEST_HEADERS = {
  accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8',
  'user-agent': 'Mozilla/5.0 (compatible; image fetch)',
};

const refuse = (code: number, key: keyof typeof CHAT_UPLOAD_MESSAGES) => new ApiError(code, CHAT_UPLOAD_MESSAGES[key], 'url');
const defaultResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The picture types answered, by the bytes they start with; SVG is not among them (it can carry script). */
export function sniffImage(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, 'BM') && bytes.length > 26) return 'image/bmp';
  if (ascii(4, 'ftypavif') || ascii(4, 'ftypavis')) return 'image/avif';
  return null;
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.startsWith('//') ? `https:${raw}` : raw);
  } catch {
    throw refuse(400, 'externalBadUrl');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw refuse(400, 'externalBadUrl');
  return url;
}

/** Refuses an address outside the allowed hosts that is, or resolves to, a private one. */
async function checkAddress(policy: BaseUrlPolicy, url: URL): Promise<void> {
  if (mayBePrivate(policy, url)) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (policy.resolve ?? defaultResolve)(host);
  } catch {
    throw refuse(502, 'externalUnreachable');
  }
  if (addresses.length === 0) throw refuse(502, 'externalUnreachable');
  if (!addresses.every(isPublicAddress)) throw refuse(400, 'externalPrivate');
}

export async function fetchExternalImage(options: ExternalImagePolicy, raw: string): Promise<ExternalImage> {
  const policy: BaseUrlPolicy = { ozonApiUrl: null, allowedHosts: options.allowedHosts, simulator: null, ...(options.resolve ? { resolve: options.resolve } : {}) };
  const signal = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  let url = parseUrl(raw);
  for (let hop = 0; ; hop++) {
    const simulated = options.simulated?.(url) ?? null;
    if (!simulated) await checkAddress(policy, url);
    let response: Response;
    try {
      // Redirects are followed here, each new address checked like the first.
      response = simulated
        ? await simulated.fetch(simulated.href, { headers: REQUEST_HEADERS, redirect: 'manual', signal })
        : await baseUrlFetch(policy, url.href)(url.href, { headers: REQUEST_HEADERS, redirect: 'manual', signal });
    } catch {
      throw refuse(502, 'externalUnreachable');
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw refuse(502, 'externalUnreachable');
      url = parseUrl(new URL(location, url).href);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw refuse(502, 'externalUnreachable');
    }
    if (!(response.headers.get('content-type') ?? '').toLowerCase().startsWith('image/')) {
      await response.body?.cancel();
      throw refuse(400, 'externalNotImage');
    }
    if (Number(response.headers.get('content-length') ?? 0) > EXTERNAL_IMAGE_MAX_BYTES) {
      await response.body?.cancel();
      throw refuse(400, 'externalTooLarge');
    }
    const bytes = await readCapped(response);
    const contentType = sniffImage(bytes);
    if (!contentType) throw refuse(400, 'externalNotImage');
    return { bytes, contentType };
  }
}

/** The body, stopped as soon as it passes the limit (a missing or false content-length does not get past it). */
async function readCapped(response: Response): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > EXTERNAL_IMAGE_MAX_BYTES) {
        await reader.cancel();
        throw refuse(400, 'externalTooLarge');
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw refuse(502, 'externalUnreachable');
  }
  return Buffer.concat(chunks);
}
