import { APP_LANGS } from '@/app/i18n';
import type { TextTree } from '@/app/locales/define';
import { NAMESPACES, SHELL_KEYS, type Namespace } from '@/app/namespaces';

/** Every text's key path with what it holds: a text with its interpolated names, or a list of n texts. */
function entries(tree: TextTree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, `text ${[...value.matchAll(/{{\s*(\w+)/g)].map((m) => m[1]).sort().join(',')}`);
    else if (Array.isArray(value)) found.set(path, `list of ${value.length}`);
    else for (const [inner, kind] of entries(value as TextTree, path)) found.set(inner, kind);
  }
  return found;
}

const namespaces = Object.entries(NAMESPACES) as [Namespace, (typeof NAMESPACES)[Namespace]][];

describe.each(namespaces)('namespace %s', (_ns, locales) => {
  const zh = entries(locales.zh);

  // en and pt (Brazilian Portuguese, the spec's third language) are complete: a key zh has and they lack fails here.
  it.each(['en', 'pt'] as const)('has the same texts in %s as in zh, with the same interpolated names', (lang) => {
    expect(Object.fromEntries(entries(locales[lang]))).toEqual(Object.fromEntries(zh));
  });

  it.each(APP_LANGS.filter((lang) => lang === 'es' || lang === 'ja'))('holds in %s only keys that zh has', (lang) => {
    const texts = locales[lang];
    for (const [path, kind] of texts ? entries(texts as TextTree) : []) expect([path, zh.get(path)]).toEqual([path, kind]);
  });
});

describe('the shell in further languages (spec §2.3)', () => {
  const required = Object.entries(SHELL_KEYS) as [Namespace, readonly string[]][];
  const cases = required.flatMap(([ns, prefixes]) => (['es', 'ja', 'pt'] as const).map((lang) => [ns, lang, prefixes] as const));

  it.each(cases)('%s holds every shell text in %s', (ns, lang, prefixes) => {
    const zhPaths = [...entries(NAMESPACES[ns].zh).keys()].filter((path) => prefixes.some((p) => path === p || path.startsWith(`${p}.`)));
    const texts = NAMESPACES[ns][lang];
    const held = texts ? entries(texts as TextTree) : new Map<string, string>();
    expect(zhPaths.length).toBeGreaterThan(0);
    expect(zhPaths.filter((path) => !held.has(path))).toEqual([]);
  });
});
