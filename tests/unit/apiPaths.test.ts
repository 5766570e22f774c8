import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_BASE, routePath } from '../../contract/endpoint';
import { listEndpoints } from '../../contract/endpoints';

/**
 * API paths are written once, in the endpoint objects of contract/. Everywhere else code names the endpoint
 * (`ORDER_ENDPOINTS.ship`), so a reader can jump from any call to its route and back by name.
 *
 * Scanned: the product code of workers/, machines/, src/, server/ and plugin/. Not scanned: contract/ (where the paths
 * live), server/marketplace/ (Ozon's paths are Ozon's contract, not ours), tests and test fakes (they assert on
 * what goes over the wire).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['workers', 'machines', 'src', 'server', 'plugin'];
const SKIPPED = [join('server', 'marketplace'), join('workers', 'testing')];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (SKIPPED.some((skipped) => relative(ROOT, path) === skipped)) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** Comments blanked out (line breaks kept, so lines still count right): what they mention is not code. */
function withoutComments(text: string): string {
  const blank = (comment: string) => comment.replace(/[^\n]/g, ' ');
  return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|[^:'"`\\])(\/\/[^\n]*)/gm, (_, before: string, comment: string) => before + blank(comment));
}

/** The text of every string literal, and of every template literal up to its first `${`, with its line. */
function literals(source: string): { value: string; line: number }[] {
  const text = withoutComments(source);
  const found: { value: string; line: number }[] = [];
  const pattern = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
  for (const match of text.matchAll(pattern)) {
    const value = match[1] ?? match[2] ?? (match[3] ?? '').split('${')[0] ?? '';
    found.push({ value, line: text.slice(0, match.index).split('\n').length });
  }
  return found;
}

/**
 * A literal that is an API path: anything under API_BASE, a registered endpoint's full path, or (outside src/, whose
 * page routes such as '/login' share names with API calls) an endpoint's path relative to the base.
 */
export function apiPathLiterals(file: string, text: string): string[] {
  const endpoints = listEndpoints().map(({ endpoint }) => endpoint);
  const full = new Set(endpoints.map(routePath));
  const relativePaths = new Set(endpoints.filter((endpoint) => !endpoint.site).map((endpoint) => endpoint.path));
  const inSrc = relative(ROOT, file).startsWith(`src`);
  return literals(text)
    .filter(({ value }) => value === API_BASE || value.startsWith(`${API_BASE}/`) || full.has(value) || (!inSrc && relativePaths.has(value)))
    .map(({ value, line }) => `${relative(ROOT, file)}:${line}: '${value}'`);
}

describe('API paths outside contract/', () => {
  it('appear in no code of workers/, machines/, src/ or server/', () => {
    const offenders = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir))).flatMap((file) => apiPathLiterals(file, readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('are found when written as a string, a template or a relative endpoint path', () => {
    const file = join(ROOT, 'workers', 'example.ts');
    const code = [
      `client.request('/order/list', {});`,
      'fetch(`/api/${area}/list`);',
      `const url = "/api/shipOrder";`,
      `const label = 'orders'; // not a path`,
    ].join('\n');
    expect(apiPathLiterals(file, code)).toEqual([
      "workers/example.ts:1: '/order/list'",
      "workers/example.ts:2: '/api/'",
      "workers/example.ts:3: '/api/shipOrder'",
    ]);
  });
});
