import { createHash } from 'node:crypto';
import { sourceOf, type TranslateAnswer, type TranslateLanguage } from '../../../contract/translate';
import type { Database } from '../../db/database';
import { YANDEX_MAX_REQUEST_CHARS, type TranslateClient } from '../../integrations/translate/yandex';

/**
 * Translation with a memory: each text is looked up by its SHA-256 in `translations` first, and only the texts never
 * translated before go to the provider, in requests within its size limit. Each request's translations are stored as
 * soon as it answers, so when a later request of the same batch fails, a retry pays only for what is still missing.
 * A text with no letter of the source language (a number, an emoji, a model code) is answered as it is, unpaid.
 */

export type TranslateDeps = { database: Database; client: TranslateClient };

const SCRIPT: Record<TranslateLanguage, RegExp> = { ru: /\p{Script=Cyrillic}/u, zh: /\p{Script=Han}/u };

const hashOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The texts in requests of at most `limit` characters each, in order. */
function requests(texts: readonly string[], limit: number): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const text of texts) {
    if (current.length > 0 && size + text.length > limit) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(text);
    size += text.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Translates `texts` into `to` (from the other language), in order. Throws the client's TranslateUnavailable. */
export async function translateTexts(deps: TranslateDeps, texts: readonly string[], to: TranslateLanguage): Promise<TranslateAnswer> {
  const from = sourceOf(to);
  const provider = deps.client.provider;
  const translatable = [...new Set(texts.filter((text) => SCRIPT[from].test(text)))];
  const hashes = new Map(translatable.map((text) => [text, hashOf(text)]));
  const known = new Map<string, string>();
  if (translatable.length > 0) {
    const rows = await deps.database.query<{ hash: string; translation: string }>(
      'select hash, translation from translations where provider = $1 and source = $2 and target = $3 and hash = any($4::text[])',
      [provider, from, to, [...hashes.values()]],
    );
    for (const row of rows) known.set(row.hash, row.translation);
  }
  const stored = new Set(known.keys());
  const missing = translatable.filter((text) => !known.has(hashes.get(text) ?? ''));
  for (const batch of requests(missing, YANDEX_MAX_REQUEST_CHARS)) {
    const answers = await deps.client.translate(batch, from, to);
    const params: unknown[] = [provider, from, to];
    const rows = batch.map((text, i) => {
      const hash = hashes.get(text) ?? hashOf(text);
      const translation = answers[i] ?? text;
      known.set(hash, translation);
      params.push(hash, translation, text.length);
      const at = params.length - 3;
      return `($1, $2, $3, $${at + 1}, $${at + 2}, $${at + 3}::int)`;
    });
    await deps.database.query(`insert into translations (provider, source, target, hash, translation, chars) values ${rows.join(', ')} on conflict do nothing`, params);
  }
  return {
    translations: texts.map((text) => known.get(hashes.get(text) ?? '') ?? text),
    from,
    to,
    provider,
    cached: texts.filter((text) => stored.has(hashes.get(text) ?? '')).length,
  };
}
