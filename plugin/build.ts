import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import sharp from 'sharp';
import { PLUGIN_TEXTS } from './extension/locales';

/**
 * Builds the browser plugin (a Chromium extension, Manifest V3) into `outDir` (dist/plugin with `npm run build`):
 * each script one self-contained file (content scripts cannot load modules), the popup, Chromium's _locales, the
 * icons and build.json with the version. The manifest is not written here: the server writes it into each download
 * with the origin it was downloaded from (server/areas/plugin/package.ts).
 */
const SOURCE = fileURLToPath(new URL('./extension/', import.meta.url));
const ICON_SIZES = [16, 32, 48, 128] as const;
/** Chromium's locale folder names for the plugin's languages. */
const CHROMIUM_LOCALES = { zh: 'zh_CN', en: 'en' } as const;

export async function buildPlugin(outDir: string, options: { minify?: boolean } = {}): Promise<void> {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, 'icons'), { recursive: true });
  await build({
    entryPoints: ['background', 'collect', 'bridge', 'popup'].map((name) => join(SOURCE, `${name}.ts`)),
    outdir: outDir,
    bundle: true,
    format: 'iife',
    target: 'chrome116',
    minify: options.minify ?? true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await copyFile(join(SOURCE, 'popup.html'), join(outDir, 'popup.html'));
  for (const [lang, folder] of Object.entries(CHROMIUM_LOCALES)) {
    const texts = PLUGIN_TEXTS[lang as keyof typeof CHROMIUM_LOCALES];
    const messages = Object.fromEntries(Object.entries(texts).map(([key, message]) => [key, { message }]));
    await mkdir(join(outDir, '_locales', folder), { recursive: true });
    await writeFile(join(outDir, '_locales', folder, 'messages.json'), `${JSON.stringify(messages, null, 2)}\n`);
  }
  const icon = await readFile(join(SOURCE, 'icon.svg'));
  for (const size of ICON_SIZES) await sharp(icon, { density: 300 }).resize(size, size).png().toFile(join(outDir, 'icons', `${size}.png`));
  await writeFile(join(outDir, 'build.json'), `${JSON.stringify({ version: pkg.version })}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(process.argv[2] ?? 'dist/plugin');
  await buildPlugin(outDir, { minify: process.env.MINIFY !== '0' });
  console.log(`plugin built into ${outDir}`);
}
