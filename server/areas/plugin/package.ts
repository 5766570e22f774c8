import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';
import { PLUGIN_PRODUCT_PAGES } from '../../../contract/pluginProtocol';

/**
 * The plugin as the user downloads it: the files `npm run build` put in dist/plugin (plugin/build.ts) plus a
 * manifest and an app.json written for the origin the user downloads from. The manifest's host permissions and the
 * bridge's content script name that origin and nothing else, so the plugin can only ever talk to this server.
 */

/** What plugin/build.ts writes beside the scripts. */
export const PLUGIN_BUILD_FILE = 'build.json';
export type PluginBuild = { version: string };

/** The built plugin's version, or null when there is no build in `dir`. */
export async function pluginBuild(dir: string): Promise<PluginBuild | null> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, PLUGIN_BUILD_FILE), 'utf8')) as Partial<PluginBuild>;
    return typeof parsed.version === 'string' ? { version: parsed.version } : null;
  } catch {
    return null;
  }
}

/** The match pattern of every page of an origin (`http://127.0.0.1:8080` → `http://127.0.0.1:8080/*`). */
const everyPageOf = (origin: string) => `${origin}/*`;

export function pluginManifest(version: string, origin: string) {
  const icons = { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' };
  return {
    manifest_version: 3,
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'zh_CN',
    version,
    icons,
    action: { default_popup: 'popup.html', default_title: '__MSG_extName__', default_icon: icons },
    background: { service_worker: 'background.js' },
    permissions: ['storage'],
    host_permissions: [everyPageOf(origin)],
    content_scripts: [
      { matches: Object.values(PLUGIN_PRODUCT_PAGES).flat(), js: ['collect.js'], run_at: 'document_idle' },
      { matches: [everyPageOf(origin)], js: ['bridge.js'], run_at: 'document_idle' },
    ],
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map(async (entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}

/** The zip for `origin`; null when `dir` holds no built plugin. */
export async function pluginZip(dir: string, origin: string): Promise<{ version: string; bytes: Uint8Array } | null> {
  const build = await pluginBuild(dir);
  if (!build) return null;
  const files: Record<string, Uint8Array> = {};
  for (const file of await filesUnder(dir)) {
    const name = relative(dir, file).split(sep).join('/');
    if (name !== PLUGIN_BUILD_FILE) files[name] = await readFile(file);
  }
  const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
  files['manifest.json'] = json(pluginManifest(build.version, origin));
  files['app.json'] = json({ origin });
  // A fixed time for every entry: the same build and origin give the same zip.
  const mtime = new Date('2025-01-01T00:00:00Z');
  return { version: build.version, bytes: zipSync(Object.fromEntries(Object.entries(files).map(([name, data]) => [name, [data, { mtime }]]))) };
}
