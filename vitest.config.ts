import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = {
  '@/': fileURLToPath(new URL('./src/', import.meta.url)),
  '@contract/': fileURLToPath(new URL('./contract/', import.meta.url)),
  '@machines/': fileURLToPath(new URL('./machines/', import.meta.url)),
  '@workers/': fileURLToPath(new URL('./workers/', import.meta.url)),
  // Node resolves 'antd' to its CommonJS build: antd's own modules imported by path (AntdVars) must be the same
  // instances, or they read other contexts than the components do. The browser build uses the ES build for both.
  'antd/es/': fileURLToPath(new URL('./node_modules/antd/lib/', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    // Two files at a time on the CI's two cores (vitest's default leaves one core idle there). The browser suite runs
    // its files one by one; `npm test` runs it as a process of its own beside the server project, so its waits for
    // the browser and the app overlap the server suite's work.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          globals: true,
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'machines/**/*.test.ts', 'workers/**/*.test.ts', 'contract/**/*.test.ts'],
          // The engines' reference tests do seconds of work on a loaded machine: the limit catches a hang, not speed.
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'component',
          globals: true,
          environment: 'jsdom',
          include: ['tests/component/**/*.test.tsx', 'src/**/*.test.tsx'],
          setupFiles: ['tests/component/setup.ts'],
          testTimeout: 20_000,
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
          fileParallelism: false,
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
