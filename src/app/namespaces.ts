import type { Texts } from './locales/define';
import { shell } from './locales';

/**
 * Every i18next namespace, one line each: `<area>` for `src/features/<area>/locales.ts`. Components read theirs with
 * `useTranslation('<area>')`; `shell` is the default namespace (`useTranslation()`).
 */
export const NAMESPACES = {
  shell,
};

export type Namespace = keyof typeof NAMESPACES;
export const DEFAULT_NAMESPACE = 'shell' satisfies Namespace;

/** Each namespace's keys (from its zh texts) with string values: what i18next's typed `t` checks keys against. */
export type NamespaceTexts = { [N in Namespace]: Texts<(typeof NAMESPACES)[N]['zh']> };

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof DEFAULT_NAMESPACE;
    resources: NamespaceTexts;
    returnObjects: true;
  }
}

/**
 * The shell's texts (spec §2.3: menu, navbar, login, table, tags view and settings), which es, ja and pt hold in full:
 * key prefixes per namespace. Everything else in those languages falls back to English.
 */
export const SHELL_KEYS: { readonly [N in Namespace]?: readonly string[] } = {
  shell: ['route', 'navbar', 'tagsView', 'settings', 'login.title', 'login.username', 'login.password', 'login.captcha', 'login.submit', 'login.thirdParty'],
};
