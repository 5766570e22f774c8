import { CbrFormatError, parseDaily, parseDynamic, requestDate, type CbrDaily, type CbrDynamic } from './format';

/** The Bank of Russia's public address; the rate services need no key. */
export const CBR_DEFAULT_URL = 'https://www.cbr.ru';

export type CbrClientOptions = {
  baseUrl: string;
  fetch?: typeof fetch;
  /** Per call; the service answers in well under a second when it is up. */
  timeoutMs?: number;
};

/** Why a call to the service failed: it could not be reached, it refused, or it answered something unreadable. */
export class CbrUnavailable extends Error {
  override name = 'CbrUnavailable';
  constructor(
    message: string,
    readonly reason: 'unreachable' | 'refused' | 'format',
  ) {
    super(message);
  }
}

export type CbrClient = {
  /** The rates set for `date` (ISO; the latest when absent). */
  daily(date?: string): Promise<CbrDaily>;
  /** One currency's rates (by the bank's id, e.g. R01375) on each working day from `from` to `to` (ISO dates). */
  dynamic(id: string, from: string, to: string): Promise<CbrDynamic>;
};

const decoder = new TextDecoder('windows-1251');

export function createCbrClient(options: CbrClientOptions): CbrClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function get<T>(path: string, params: Record<string, string>, parse: (xml: string) => T): Promise<T> {
    // The base may carry a path of its own (the embedded simulator's prefix): the service's paths hang below it.
    const url = new URL(path, options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await doFetch(url.toString(), { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new CbrUnavailable(`the Bank of Russia's service did not answer: ${(error as Error).message}`, 'unreachable');
    }
    if (!response.ok) throw new CbrUnavailable(`the Bank of Russia's service answered HTTP ${response.status}`, 'refused');
    const xml = decoder.decode(await response.arrayBuffer());
    try {
      return parse(xml);
    } catch (error) {
      if (error instanceof CbrFormatError) throw new CbrUnavailable(`the Bank of Russia's answer could not be read: ${error.message}`, 'format');
      throw error;
    }
  }

  return {
    daily: (date) => get('scripts/XML_daily.asp', date ? { date_req: requestDate(date) } : {}, parseDaily),
    dynamic: (id, from, to) => get('scripts/XML_dynamic.asp', { date_req1: requestDate(from), date_req2: requestDate(to), VAL_NM_RQ: id }, parseDynamic),
  };
}
