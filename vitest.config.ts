import { defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { E2E_WORKERS } from './tests/e2e/workers';
import SlowestFirstSequencer from './tests/support/sequencer';

const alias = {
  '@/': fileURLToPath(new URL('./src/', import.meta.url)),
  '@contract/': fileURLToPath(new URL('./contract/', import.meta.url)),
  '@machines/': fileURLToPath(new URL('./machines/', import.meta.url)),
  '@workers/': fileURLToPath(new URL('./workers/', import.meta.url)),
  // Node resolves 'antd' to its CommonJS build: antd's own modules imported by path (AntdVars) must be the same
  // instances, or they read other contexts than the components do. The browser build uses the ES build for both.
  'antd/es/': fileURLToPath(new URL('./node_modules/antd/lib/', import.meta.url)),
};

/** antd's modules the app imports by path (AntdVars): bundled with antd itself, so they share its instances. */
const antdDeepImports = [...readFileSync(fileURLToPath(new URL('./src/app/AntdVars.tsx', import.meta.url)), 'utf8').matchAll(/^import \w+ from '(antd\/es\/[^']+)'/gm)].map((m) => m[1]!);

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    // Two files at a time on the CI's two cores (vitest's default leaves one core idle there). `npm test` runs the
    // browser suite as a process of its own beside the others, so its waits for Chromium and the app overlap their work.
    maxWorkers: 2,
    // The longest files of each project start first, so no worker is left running one after the others are done.
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          globals: true,
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'machines/**/*.test.ts', 'workers/**/*.test.ts', 'contract/**/*.test.ts'],
          // Plain modules without side effects at import: a worker keeps the modules it loaded for its next file
          // rather than loading them again for each (half the suite's CPU time).
          isolate: false,
          // The engines' reference tests do seconds of work on a loaded machine: the limit catches a hang, not speed.
          testTimeout: 20_000,
        },
      },
      {
        resolve: {
          alias: [
            ...Object.entries(alias).filter(([find]) => find !== 'antd/es/').map(([find, replacement]) => ({ find, replacement })),
            { find: /^antd$/, replacement: fileURLToPath(new URL('./node_modules/antd/es/index.js', import.meta.url)) },
            { find: /^@ant-design\/icons$/, replacement: fileURLToPath(new URL('./node_modules/@ant-design/icons/es/index.js', import.meta.url)) },
          ],
        },
        test: {
          // Each file in a fresh VM context of a long-lived process, with antd, its icons and React pre-bundled once
          // (one module each to evaluate instead of hundreds; docs/performance.md has the figures). Both need antd's
          // and the icons' ES builds: Node's import of the icons reaches a CommonJS build that requires an ES module,
          // which only Node's own loader accepts.
          pool: 'vmForks',
          server: { deps: { inline: [/node_modules\/(antd|@ant-design|@rc-component|rc-[a-z-]+)\//] } },
          deps: { optimizer: { client: { enabled: true, include: ['antd', ...antdDeepImports, '@ant-design/icons', 'react', 'react-dom', 'react-dom/client'] } } },
          name: 'component',
          globals: true,
          environment: 'jsdom',
          include: ['tests/component/**/*.test.tsx', 'src/**/*.test.tsx'],
          setupFiles: ['tests/component/setup.ts'],
          // A hang guard: beside the browser suite on two cores, a page that renders in 2 s alone took over 20.
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          globals: true,
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'server/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          // Each file builds its own app on its own database (harness.ts): nothing is shared through module state, so
          // a worker keeps the server's modules loaded for its next file. Importing them afresh for each file was
          // over half of the suite's time (import 512 s of 909 s).
          isolate: false,
          // After the unit and component files (one run of `vitest run --project unit --project component --project
          // server`), three at a time: the files wait on their databases and timers more than they compute.
          sequence: { groupOrder: 1 },
          maxWorkers: 3,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          globals: true,
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // A few files at a time, each on its own app server (tests/e2e/workers.ts).
          maxWorkers: E2E_WORKERS,
          // A poll without its own timeout waits up to 15 s (vitest's default is 1 s): on a loaded 2-core machine a
          // page's next answer can take longer than a second, which is not what such a poll asserts.
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
