import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The import direction of the architecture, held by lint:
// contract imports nothing of ours; server and workers import contract only; machines import contract and the
// worker's API type; src imports machines, contract and the worker client; nothing imports server.
const noServer = { group: ['**/server/**', '@/../server/*'], message: 'Only the server and its tests import server/.' };
const noSrc = { group: ['**/src/**', '@/*'], message: 'Only src/ imports src/.' };
const noMachines = { group: ['**/machines/**', '@machines/*'], message: 'Only src/ imports machines/.' };
const noWorkers = { group: ['**/workers/**', '@workers/*'], message: 'This layer may not import workers/.' };

export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'server/db/migrations/**', 'tests/bench/results/**'] },
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
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: [noServer] }],
    },
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
