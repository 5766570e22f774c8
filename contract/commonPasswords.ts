import { dictionary } from '@zxcvbn-ts/language-common';
import type { CommonCheck } from './passwordPolicy';

/**
 * The common passwords shipped with the app: zxcvbn-ts's list (about 49,000, lower case), kept by that project rather
 * than written here. Large (some 380 kB of source): the server loads it once, the pages import this module lazily.
 */
let common: Set<string> | null = null;

export function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common']);
  return common;
}

/** Whether the password, ignoring case, is one of the common ones. */
export const isCommonPassword: CommonCheck = (password) => commonPasswords().has(password.normalize('NFKC').toLowerCase());
