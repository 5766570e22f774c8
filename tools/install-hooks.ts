import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm install`'s prepare step: points git at the project's hooks (.githooks: the commit-msg subject check) when this
 * folder is a git checkout of its own. Without git, in a tarball, or inside somebody else's repository it does
 * nothing; a hooks path the developer set to something else is left as it is. It never fails the install.
 */
const ROOT = realpathSync(resolve(fileURLToPath(new URL('..', import.meta.url))));
const HOOKS = '.githooks';

function git(...args: string[]): string | null {
  const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

const top = git('rev-parse', '--show-toplevel');
if (top !== null && realpathSync(top) === ROOT) {
  const current = git('config', '--get', 'core.hooksPath');
  if (current === null || current === '') {
    if (git('config', 'core.hooksPath', HOOKS) !== null) console.log(`git hooks: core.hooksPath set to ${HOOKS} (commit subjects up to 72 characters)`);
  } else if (current !== HOOKS) {
    console.log(`git hooks: core.hooksPath is ${current}; ${HOOKS}/commit-msg (subjects up to 72 characters) not installed`);
  }
}
