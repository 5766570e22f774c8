import type { FastifyInstance } from 'fastify';
import { VOCABULARY } from './dictionary';
import { YANDEX_MAX_REQUEST_CHARS } from './yandex';

/**
 * Yandex Cloud Translate v2 simulated in-process for the demo and the tests: `POST translate/v2/translate` with the
 * service's body, answer and errors (`{ code, message, details }` with gRPC codes), its API-key header and its
 * 10,000-character limit. It translates deterministically with the demo's vocabulary (./dictionary.ts): a whole
 * known sentence, else phrase by phrase, keeping Latin words, digits and punctuation; when some source-language words
 * are not in the vocabulary they stay as they are and the translation starts with a mark saying it is a guess.
 */

export const SIM_YANDEX_TRANSLATE_KEY = 'AQVN-simulator-translate-key';

/** The mark of a translation the vocabulary did not fully cover, per target language. */
export const SIMULATOR_GUESS_MARK = { zh: '[模拟翻译] ', ru: '[имитация перевода] ' } as const;

export type TranslateSimulator = {
  /** While set, every call answers 503 (the service down). */
  down: boolean;
  /** Translate calls answered (authorised, whatever their outcome), and the characters they carried. */
  calls: number;
  chars: number;
};

export function createTranslateSimulator(): TranslateSimulator {
  return { down: false, calls: 0, chars: 0 };
}

const fold = (text: string) => text.toLowerCase().replaceAll('ё', 'е');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CYRILLIC = /\p{Script=Cyrillic}/u;
const HAN = /\p{Script=Han}/u;

type Direction = { table: Map<string, string>; pattern: RegExp; leftover: RegExp; mark: string };

/** One regular expression of every known phrase, longest first, so a phrase wins over the words inside it. */
function direction(pairs: readonly (readonly [string, string])[], wordBounded: boolean, leftover: RegExp, mark: string): Direction {
  const table = new Map<string, string>();
  for (const [from, to] of pairs) if (!table.has(fold(from))) table.set(fold(from), to);
  const alternatives = [...table.keys()].sort((a, b) => b.length - a.length).map(escape).join('|');
  const pattern = wordBounded ? new RegExp(`(?<![\\p{L}\\d])(?:${alternatives})(?![\\p{L}\\d])`, 'giu') : new RegExp(`(?:${alternatives})`, 'giu');
  return { table, pattern, leftover, mark };
}

const RU_TO_ZH = direction(VOCABULARY, true, CYRILLIC, SIMULATOR_GUESS_MARK.zh);
const ZH_TO_RU = direction(
  VOCABULARY.map(([ru, zh]) => [zh, ru] as const),
  false,
  HAN,
  SIMULATOR_GUESS_MARK.ru,
);

export function simulateTranslation(text: string, from: 'ru' | 'zh', to: 'ru' | 'zh'): string {
  if (from === to) return text;
  const { table, pattern, leftover, mark } = from === 'ru' ? RU_TO_ZH : ZH_TO_RU;
  const whole = table.get(fold(text.trim()));
  if (whole !== undefined) return whole;
  const input = from === 'ru' ? text.replaceAll('ё', 'е').replaceAll('Ё', 'Е') : text;
  const result = input.replace(pattern, (phrase) => table.get(fold(phrase)) ?? phrase);
  return leftover.test(result) ? `${mark}${result}` : result;
}

type Body = { texts?: unknown; sourceLanguageCode?: unknown; targetLanguageCode?: unknown; format?: unknown; folderId?: unknown };

const LANGUAGES = new Set(['ru', 'zh']);

export async function translateSimulatorPlugin(app: FastifyInstance, options: { simulator: TranslateSimulator }) {
  const sim = options.simulator;
  const fail = (code: number, message: string) => ({ code, message, details: [] });

  app.post<{ Body: Body }>('/translate/v2/translate', async (request, reply) => {
    if (sim.down) return reply.code(503).send(fail(14, 'Service is unavailable'));
    if (request.headers.authorization !== `Api-Key ${SIM_YANDEX_TRANSLATE_KEY}`) return reply.code(401).send(fail(16, 'Unknown api key'));
    sim.calls++;
    const body = request.body ?? {};
    const { texts, sourceLanguageCode: source, targetLanguageCode: target } = body;
    if (!Array.isArray(texts) || texts.length === 0 || !texts.every((text) => typeof text === 'string')) return reply.code(400).send(fail(3, 'texts: must be a non-empty list of strings'));
    const chars = texts.reduce((sum: number, text: string) => sum + text.length, 0);
    sim.chars += chars;
    if (chars > YANDEX_MAX_REQUEST_CHARS) return reply.code(400).send(fail(3, `texts: total length ${chars} exceeds ${YANDEX_MAX_REQUEST_CHARS}`));
    if (typeof target !== 'string' || !LANGUAGES.has(target)) return reply.code(400).send(fail(3, `unsupported target language: ${String(target)}`));
    if (source !== undefined && (typeof source !== 'string' || !LANGUAGES.has(source))) return reply.code(400).send(fail(3, `unsupported source language: ${String(source)}`));
    const detected = (text: string) => (HAN.test(text) && !CYRILLIC.test(text) ? 'zh' : 'ru');
    return {
      translations: (texts as string[]).map((text) => {
        const from = (source as 'ru' | 'zh' | undefined) ?? detected(text);
        const translated = { text: simulateTranslation(text, from, target as 'ru' | 'zh') };
        return source === undefined ? { ...translated, detectedLanguageCode: from } : translated;
      }),
    };
  });
}
