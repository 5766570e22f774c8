import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the UI (rsbuild) and the browser plugin into dist/, or reuses dist/ when it was built from the same inputs.
 *
 * A build goes to a folder of its own beside dist/ and is swapped in only once it is complete, so a build stopped
 * half-way leaves the previous dist/ as it was. dist/BUILD_STAMP records what it was built from: a hash of every
 * file the bundles can read (INPUTS, test files aside) and the environment the build reads (its mode, ENV_KEYS,
 * PUBLIC_*).
 *
 *   node --import tsx tools/build.ts             build
 *   node --import tsx tools/build.ts --if-stale  build unless dist/ is up to date (npm start, npm test)
 */
export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const DIST = join(ROOT, 'dist');
export const BUILD_STAMP = 'build-stamp.json';

/** What the two bundles are made from: folders and files, relative to the root. */
const INPUTS = [
  'src',
  'machines',
  'workers',
  'contract',
  'plugin',
  'rsbuild.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  // The installed tree, for an install that changed node_modules without changing the lock.
  'node_modules/.package-lock.json',
  'tools/build.ts',
];
/** Environment variables the build reads besides the mode (rsbuild also inlines every PUBLIC_* variable). */
const ENV_KEYS = ['MINIFY'];
/** Test files are never bundled: changing one does not make the build stale. */
const IGNORED = /\.test\.tsx?$/;
/** Temporary folders of builds under way (or stopped) and of builds being replaced. */
const TEMP_PREFIX = '.dist-';

function listFiles(path: string, into: string[]): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) listFiles(join(path, entry), into);
  } else if (!IGNORED.test(path)) {
    into.push(path);
  }
}

/**
 * The build's NODE_ENV: production unless development is asked for. Test runners set NODE_ENV=test (vitest does in the
 * e2e global setup), which rsbuild would take for a development build.
 */
function buildMode(): 'production' | 'development' {
  return process.env.NODE_ENV === 'development' ? 'development' : 'production';
}

/** A hash of every input file (path and content) and of the build's environment. */
export function inputsHash(): string {
  const hash = createHash('sha256');
  const files: string[] = [];
  for (const input of INPUTS) listFiles(join(ROOT, input), files);
  // rsbuild reads .env, .env.local, .env.production, ... from the root.
  for (const entry of readdirSync(ROOT).sort()) if (entry.startsWith('.env')) listFiles(join(ROOT, entry), files);
  for (const file of files) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  const env = Object.keys(process.env)
    .filter((key) => ENV_KEYS.includes(key) || key.startsWith('PUBLIC_'))
    .sort()
    .map((key) => `${key}=${process.env[key]}`);
  hash.update([`NODE_ENV=${buildMode()}`, ...env].join('\n'));
  return hash.digest('hex');
}

/** The hash dist/ was built from, or null when there is no complete build. */
function builtHash(): string | null {
  try {
    if (!existsSync(join(DIST, 'index.html')) || !existsSync(join(DIST, 'plugin', 'build.json'))) return null;
    return (JSON.parse(readFileSync(join(DIST, BUILD_STAMP), 'utf8')) as { inputs?: string }).inputs ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the temporary folders that builds no longer running left behind. */
function removeLeftovers(): void {
  for (const entry of readdirSync(ROOT)) {
    const pid = Number(/^\.dist-(?:build|old)-(\d+)-/.exec(entry)?.[1]);
    if (entry.startsWith(TEMP_PREFIX) && Number.isInteger(pid) && !alive(pid)) rmSync(join(ROOT, entry), { recursive: true, force: true });
  }
}

/** Puts the complete build in `dir` in dist/'s place (two renames: dist/ is never a half-written folder). */
function swapIn(dir: string, id: string): void {
  const old = join(ROOT, `${TEMP_PREFIX}old-${id}`);
  for (let attempt = 1; ; attempt++) {
    try {
      if (existsSync(DIST)) renameSync(DIST, old);
      renameSync(dir, DIST);
      break;
    } catch (error) {
      // Another build swapped its own in between the two renames: move that one aside too and try again.
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt === 5) throw error;
      rmSync(old, { recursive: true, force: true });
    }
  }
  rmSync(old, { recursive: true, force: true });
}

/**
 * rsbuild's own command line (it loads .env files as `rsbuild build` always did) in buildMode(), with its output in
 * `dir` (BUILD_DIST, read by rsbuild.config.ts). Stopping this process stops rsbuild too.
 */
async function rsbuildInto(dir: string): Promise<void> {
  const bin = join(dirname(createRequire(import.meta.url).resolve('@rsbuild/core/package.json')), 'bin', 'rsbuild.js');
  const child = spawn(process.execPath, [bin, 'build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: buildMode(), BUILD_DIST: dir } });
  const stop = (signal: NodeJS.Signals) => {
    child.kill(signal);
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.once('exit', (...result) => done(result)));
    if (code !== 0) throw new Error(`rsbuild build failed (${signal ?? `exit ${code}`})`);
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
  }
}

/** Builds into a temporary folder, then swaps it in. Throws when a step fails (dist/ is left as it was). */
export async function build(inputs = inputsHash()): Promise<void> {
  removeLeftovers();
  const id = `${process.pid}-${Date.now().toString(36)}`;
  const dir = join(ROOT, `${TEMP_PREFIX}build-${id}`);
  mkdirSync(dir);
  try {
    const started = Date.now();
    await rsbuildInto(dir);
    // Loaded here: a start that reuses dist/ does not load esbuild and sharp.
    const { buildPlugin } = await import('../plugin/build');
    await buildPlugin(join(dir, 'plugin'), { minify: process.env.MINIFY !== '0' });
    writeFileSync(join(dir, BUILD_STAMP), `${JSON.stringify({ inputs, builtAt: new Date().toISOString() })}\n`);
    swapIn(dir, id);
    console.log(`build: dist/ built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds unless dist/ holds a complete build of the current inputs; says which. */
export async function buildIfStale(): Promise<'reused' | 'built'> {
  const inputs = inputsHash();
  if (builtHash() === inputs) {
    console.log('build: dist/ is up to date, reused');
    return 'reused';
  }
  await build(inputs);
  return 'built';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes('--if-stale')) await buildIfStale();
    else await build();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
