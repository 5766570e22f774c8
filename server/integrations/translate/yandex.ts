import type { TranslateLanguage } from '../../../contract/translate';
import { below, CarrierUnavailable } from '../tracking/types';

/**
 * Yandex Cloud Translate, API v2 (https://yandex.cloud/en/docs/translate/api-ref/Translation/translate):
 * POST `translate/v2/translate` with a service account's API key (`Authorization: Api-Key ...`) and the JSON body
 * `{ folderId?, sourceLanguageCode, targetLanguageCode, format: 'PLAIN_TEXT', texts: [...] }`; it answers
 * `{ translations: [{ text, detectedLanguageCode? }] }` in the order of `texts`, or an error `{ code, message, details }`
 * with the gRPC code (3 invalid argument, 16 unauthenticated, 8 quota). One request takes at most 10,000 characters.
 *
 * Why Yandex rather than Baidu or Youdao: its Russian is the strongest of the three (Russian is its home language and
 * ru↔zh is a direct pair), one request carries a list of texts answered in order (Baidu takes one `q` and splits by
 * line; Youdao's batch is a separate product), a plain API key in a header suffices (both others sign each request
 * with an MD5 or SHA-256 of app id, text and salt), and it is billed in roubles from Russia, where Ozon sellers'
 * companies are registered. The adapter is this one file, so another provider is another client of the same type.
 */

export const YANDEX_TRANSLATE_DEFAULT_URL = 'https://translate.api.cloud.yandex.net';
/** The service's limit on one request, all texts together. */
export const YANDEX_MAX_REQUEST_CHARS = 10_000;

/**
 * Why the provider gave no translation: not reached, refused the call (key, quota, input), or answered garbage. The
 * outside services' one failure type (the carriers' and the post office service's too).
 */
export const TranslateUnavailable = CarrierUnavailable;

export type TranslateClient = {
  /** Who answers, as the API says it (contract/translate.ts `provider`). */
  readonly provider: 'yandex' | 'simulator';
  /** Each text translated, in order. At most YANDEX_MAX_REQUEST_CHARS characters together. Throws TranslateUnavailable. */
  translate(texts: readonly string[], from: TranslateLanguage, to: TranslateLanguage): Promise<string[]>;
};

export type YandexTranslateOptions = {
  baseUrl: string;
  apiKey: string;
  /** Needed only with a user account's token; a service account's API key names its folder itself. */
  folderId?: string | null;
  provider?: 'yandex' | 'simulator';
  fetch?: typeof fetch;
  timeoutMs?: number;
};

type Answer = { translations?: unknown };
type Failure = { code?: unknown; message?: unknown };

export function createYandexTranslateClient(options: YandexTranslateOptions): TranslateClient {
  const doFetch = options.fetch ?? fetch;
  const service = 'Yandex Translate';
  return {
    provider: options.provider ?? 'yandex',
    async translate(texts, from, to) {
      const body = {
        ...(options.folderId ? { folderId: options.folderId } : {}),
        sourceLanguageCode: from,
        targetLanguageCode: to,
        format: 'PLAIN_TEXT',
        texts,
      };
      let response: Response;
      try {
        response = await doFetch(below(options.baseUrl, 'translate/v2/translate'), {
          method: 'POST',
          headers: { authorization: `Api-Key ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (error) {
        throw new TranslateUnavailable(`${service} did not answer: ${(error as Error).message}`, 'unreachable');
      }
      const json = (await response.json().catch(() => null)) as (Answer & Failure) | null;
      if (!response.ok) {
        const said = json && typeof json.message === 'string' ? `: ${json.message}` : '';
        throw new TranslateUnavailable(`${service} answered HTTP ${response.status}${said}`, response.status >= 500 ? 'unreachable' : 'refused');
      }
      const list = json?.translations;
      if (!Array.isArray(list) || list.length !== texts.length) {
        throw new TranslateUnavailable(`${service}'s answer has ${Array.isArray(list) ? list.length : 'no'} translations for ${texts.length} texts`, 'format');
      }
      return list.map((item: unknown) => {
        const text = (item as { text?: unknown } | null)?.text;
        if (typeof text !== 'string') throw new TranslateUnavailable(`${service}'s answer has a translation without text`, 'format');
        return text;
      });
    },
  };
}
