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
    const postings = { zh: 'A、B', en: 'A, B' };
    expect(message('labelsNeedShipping', 'en', { postings })).toBe('These postings are not shipped yet; labels exist only after shipping: A, B');
    expect(localized('postingsAndMore', { shown: 'A', count: '7', more: '6' })).toEqual({ zh: 'A 等7个', en: 'A and 6 more' });
    expect(message('labelsNeedShipping', 'zh', {})).toContain('{postings}');
    expect(Object.keys(MESSAGES)).toContain('labelsNotReady');
  });
});
