import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** The benchmark's peer pages only (AG Grid, our table on the main thread): the product bundle is not touched. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [pluginReact()],
  source: {
    entry: { ag: './pages/ag.ts', 'main-thread': './pages/main-thread.tsx' },
  },
  resolve: {
    alias: { '@': resolve(root, 'src'), '@contract': resolve(root, 'contract'), '@machines': resolve(root, 'machines'), '@workers': resolve(root, 'workers') },
  },
  html: { title: 'bench' },
  output: { distPath: { root: resolve(import.meta.dirname, 'dist') }, assetPrefix: '/bench/' },
  performance: { chunkSplit: { strategy: 'all-in-one' } },
});
