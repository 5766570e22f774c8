import type { Resources } from './zh';

type DeepPartial<T> = T extends string | readonly string[] ? T : { [K in keyof T]?: DeepPartial<T[K]> };

/**
 * The shell namespace's texts in a further language (spec §2.3: menu, navbar, tags view and settings; the login and
 * the table are namespaces `auth` and `components`). What a language leaves out falls back to English (i18n.ts).
 */
export type ShellResources = DeepPartial<Resources> & {
  route: Resources['route'];
  navbar: Resources['navbar'];
  /** The navbar shows the user's role. */
  role: Resources['role'];
  tagsView: Resources['tagsView'];
  settings: Resources['settings'];
};
