import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const apiPort = Number(process.env.PORT ?? 8080);

export default defineConfig({
  plugins: [pluginReact()],
  source: {
    entry: { index: './src/main.tsx' },
    define: {
      'import.meta.env.APP_VERSION': JSON.stringify(pkg.version),
    },
  },
  resolve: {
    alias: {
      '@': './src',
      '@contract': './contract',
      '@machines': './machines',
      '@workers': './workers',
    },
  },
  html: {
    title: 'Ozon 跨境卖家后台',
    template: './src/index.html',
  },
  output: {
    // tools/build.ts builds into a folder of its own and swaps it in for dist/ once complete.
    distPath: { root: process.env.BUILD_DIST ?? 'dist' },
    // `MINIFY=0 npm run build`: readable function names in a CPU profile of the built app.
    minify: process.env.MINIFY !== '0',
  },
  // The start-up chunk of libraries was one 1.4 MB script (antd with its rc-components, icons, i18next, xstate, zod).
  // Pieces of a few hundred kB download and compile in parallel, off the main thread, and a release that touches one
  // library leaves the others cached.
  splitChunks: {
    preset: 'default',
    minSize: 100_000,
    maxSize: 500_000,
    // Not the data worker's chunk: split, it loaded its shared libraries (zod, Dexie) with blocking importScripts
    // calls one after another before it could answer; one script of its own (268 kB) brought a warm open's first
    // rows from a median of 750 ms to 618 ms (five reloads each, a million cached rows).
    chunks: (chunk) => chunk.name !== 'data',
  },
  server: {
    // `npm run dev`: the UI on its own port, the API proxied to the server that tsx watches.
    port: Number(process.env.UI_PORT ?? 3000),
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, ws: true },
      // The copy and history calls' alternate bases (contract/endpoint.ts ALTERNATE_BASES).
      '/e-api': `http://127.0.0.1:${apiPort}`,
      '/x-api': `http://127.0.0.1:${apiPort}`,
      '/version.json': `http://127.0.0.1:${apiPort}`,
    },
  },
});
