import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The import direction of the architecture, held by lint:
// contract imports nothing of ours; server and workers import contract only; machines import contract and the
// worker's API type; src imports machines, contract and the worker client; nothing imports server.
const noServer = { group: ['**/server/**', '@/../server/*'], message: 'Only the server and its tests import server/.' };
const noSrc = { group: ['**/src/**', '@/*'], message: 'Only src/ imports src/.' };
const noMachines = { group: ['**/machines/**', '@machines/*'], message: 'Only src/ imports machines/.' };
const noWorkers = { group: ['**/workers/**', '@workers/*'], message: 'This layer may not import workers/.' };

const root = dirname(fileURLToPath(import.meta.url));
const featuresDir = resolve(root, 'src/features');

/** The feature folder a file lies in (src/features/<feature>/...), or null. */
function featureOf(file) {
  const path = relative(featuresDir, file);
  if (path.startsWith('..') || path === '') return null;
  return path.split(sep)[0] ?? null;
}

/**
 * No feature imports another feature (src/features/<a> may not import src/features/<b>): what two features share
 * lives in src/components/, src/app/, machines/ or contract/. Relative and '@/' imports are resolved to find out.
 */
const featureBoundaries = {
  meta: { type: 'problem', schema: [], messages: { crossFeature: "Feature '{{from}}' may not import feature '{{to}}': move what both need to src/components/, src/app/, machines/ or contract/." } },
  create(context) {
    const from = featureOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const spec = node.source && node.source.type === 'Literal' ? node.source.value : null;
      if (typeof spec !== 'string') return;
      let target = null;
      if (spec.startsWith('.')) target = resolve(dirname(context.filename), spec);
      else if (spec.startsWith('@/')) target = resolve(root, 'src', spec.slice(2));
      const to = target ? featureOf(target) : null;
      if (to && to !== from) context.report({ node: node.source, messageId: 'crossFeature', data: { from, to } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

// UI texts live in i18next namespaces (src/features/<area>/locales.ts): an object with zh and en whose zh side holds
// Chinese text is a text table written inline. Data that merely has zh and en fields (empty form rows, locale codes)
// passes.
const CJK = '/[\\u3400-\\u9fff\\uff00-\\uffef]/';
const zhText = `:matches(Literal[value=${CJK}], TemplateElement[value.raw=${CJK}])`;
const inlineTexts = {
  selector: `ObjectExpression:has(> Property[key.name='en'], > Property[key.value='en']) > :matches(Property[key.name='zh'], Property[key.value='zh']):has(${zhText})`,
  message: "Write UI texts in the feature's locales.ts and read them with useTranslation('<area>') (docs/contributing.md).",
};

export default tseslint.config(
  { ignores: ['**/dist/**', '.dist-*/**', 'node_modules/**', 'data/**', 'coverage/**', 'server/db/migrations/**', 'tests/bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, boundaries: { rules: { features: featureBoundaries } } },
    rules: {
      'boundaries/features': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: [noServer] }],
      'no-restricted-syntax': ['error', inlineTexts],
    },
  },
  {
    // The one place texts are written: a namespace's locales (src/app/namespaces.ts registers them).
    files: ['src/**/locales.ts', 'src/**/*Locales.ts', 'src/app/locales/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['contract/**/*.ts'],
    ignores: ['contract/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noServer, noSrc, noMachines, noWorkers] }] },
  },
  {
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSrc, noMachines, noWorkers] }] },
  },
  {
    // The browser plugin runs in other people's pages and in the extension: it shares contract/ with the app, nothing else.
    files: ['plugin/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noServer, noSrc, noMachines, noWorkers] }] },
  },
  {
    files: ['workers/**/*.ts'],
    ignores: ['workers/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noServer, noSrc, noMachines] }] },
  },
  {
    files: ['machines/**/*.ts'],
    ignores: ['machines/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noServer, noSrc] }],
    },
  },
);
