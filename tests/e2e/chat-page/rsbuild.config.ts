import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');

/** A page with the chat widget alone, for browser checks that need the host's hand (100,000 messages): not the product bundle. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [pluginReact()],
  source: { entry: { index: './index.tsx' } },
  resolve: {
    alias: { '@': resolve(root, 'src'), '@contract': resolve(root, 'contract'), '@machines': resolve(root, 'machines'), '@workers': resolve(root, 'workers') },
  },
  html: { title: 'chat widget' },
  output: { distPath: { root: resolve(import.meta.dirname, 'dist') } },
  performance: { chunkSplit: { strategy: 'all-in-one' } },
});
