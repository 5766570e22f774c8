import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localized, message, MESSAGES } from '../../contract/errors';

const ROOT = resolve(import.meta.dirname, '../..');
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : []));

/** Code without its comments, so a comment may quote a message. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('server messages', () => {
  it('come from the error catalogue by key: no text for users written inline in server/areas', () => {
    const inline = filesUnder(join(ROOT, 'server/areas')).flatMap((file) =>
      code(readFileSync(file, 'utf8'))
        .split('\n')
        .map((line, index) => ({ line, at: `${relative(ROOT, file)}:${index + 1}` }))
        // A literal in both languages, or Chinese text in a string (the brand's name is not a message).
        .filter(({ line }) => /\bzh:\s*['"`]/.test(line) || (/['"`][^'"`]*\p{Script=Han}/u.test(line) && !/\b(name|siteTitle):/.test(line)))
        .map(({ at, line }) => `${at}  ${line.trim()}`),
    );
    expect(inline).toEqual([]);
  });

  it('fills placeholders in the language asked for', () => {
    const postings = { zh: 'A、B', en: 'A, B', pt: 'A, B' };
    expect(message('labelsNeedShipping', 'en', { postings })).toBe('These postings are not shipped yet; labels exist only after shipping: A, B');
    expect(localized('postingsAndMore', { shown: 'A', count: '7', more: '6' })).toEqual({ zh: 'A 等7个', en: 'A and 6 more', pt: 'A e mais 6' });
    expect(message('labelsNeedShipping', 'zh', {})).toContain('{postings}');
    expect(Object.keys(MESSAGES)).toContain('labelsNotReady');
  });
});

/** Every catalogue of texts the server sends (an exported record whose entries are { zh, en, ... }), by module. */
const CATALOGUE_FILES = [...readdirSync(join(ROOT, 'contract')).filter((name) => name.endsWith('.ts')).map((name) => `contract/${name}`), 'server/http/errors.ts'];
const CATALOGUE_MODULES: Record<string, Record<string, unknown>> = Object.fromEntries(
  await Promise.all(CATALOGUE_FILES.map(async (file) => [file, (await import(join(ROOT, file))) as Record<string, unknown>] as const)),
);
const isText = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { zh?: unknown }).zh === 'string' && typeof (value as { en?: unknown }).en === 'string';
const catalogues = Object.entries(CATALOGUE_MODULES).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).length > 0 && Object.values(value).every(isText))
    .map(([name, value]) => [`${file} ${name}`, value as Record<string, Record<string, unknown>>] as const),
);
const placeholders = (text: unknown) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the server messages in Portuguese (issue 31)', () => {
  it('finds the catalogues', () => {
    expect(catalogues.map(([name]) => name)).toEqual(expect.arrayContaining(['contract/errors.ts MESSAGES', 'server/http/errors.ts SERVER_MESSAGES']));
  });

  it.each(catalogues)('%s has every text in pt too, with the placeholders of en', (_name, catalogue) => {
    const lacking = Object.entries(catalogue)
      .filter(([, text]) => typeof text.pt !== 'string' || text.pt === '' || placeholders(text.pt).join() !== placeholders(text.en).join())
      .map(([key]) => key);
    expect(lacking).toEqual([]);
  });

  it('answers in the language the request prefers', () => {
    expect(message('shopNotFound', 'pt')).toBe('A loja não existe');
    expect(message('labelsNeedShipping', 'pt', { postings: { zh: 'A、B', en: 'A, B', pt: 'A, B' } })).toBe('Estes envios ainda não foram despachados; as etiquetas só existem após o envio: A, B');
  });
});
