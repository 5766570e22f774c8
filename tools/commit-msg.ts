import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The commit-msg hook (.githooks/commit-msg, installed by `npm install`'s prepare script): a commit subject is at most
 * MAX_SUBJECT characters; the why and any measurement go in the body. `git commit --no-verify` skips it.
 */
export const MAX_SUBJECT = 72;

/** The subject git will keep: the first line that is neither empty nor a comment (`commentChar`, `#` by default). */
export function subjectOf(message: string, commentChar = '#'): string {
  for (const line of message.split('\n')) {
    if (line.startsWith(commentChar)) continue;
    if (line.trim() !== '') return line.trimEnd();
  }
  return '';
}

/** Why the message is refused, or null. Subjects git writes itself (merges) and autosquash's are let through. */
export function subjectProblem(message: string, commentChar = '#'): string | null {
  const subject = subjectOf(message, commentChar);
  if (/^(Merge |fixup! |squash! |amend! )/.test(subject)) return null;
  const length = [...subject].length;
  if (length <= MAX_SUBJECT) return null;
  return [
    `commit-msg: the subject is ${length} characters; keep it to ${MAX_SUBJECT} (the why and any measurement go in the body):`,
    `  ${subject}`,
    `  ${' '.repeat(MAX_SUBJECT)}^`,
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: commit-msg.ts <message file>');
    process.exit(2);
  }
  const commentChar = process.env.GIT_COMMENT_CHAR || '#';
  const problem = subjectProblem(readFileSync(file, 'utf8'), commentChar);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
