import i18next, { type Resource, type ResourceLanguage } from 'i18next';
import { readCookie, writeCookie } from './cookieJar';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '@contract/errors';
import { DEFAULT_NAMESPACE, NAMESPACES, type Namespace } from './namespaces';

/** The spec keeps the chosen language in a cookie (§2.3). */
export const LANGUAGE_COOKIE = 'language';

/** zh, en and pt hold every text; es and ja the shell's (menu, navbar, login, table, tags view, settings). */
export const APP_LANGS = ['zh', 'en', 'es', 'ja', 'pt'] as const;
export type AppLang = (typeof APP_LANGS)[number];

/**
 * What the browser's language is matched against when no cookie says otherwise: the spec's en, zh, es and ja
 * (§2.3), and pt, which holds every text (a pt-BR browser reads Portuguese, not English).
 */
const BROWSER_LANGS = ['en', 'zh', 'es', 'ja', 'pt'] as const;

/** `<html lang>` per app language (screen readers, hyphenation, the browser's translate offer). */
const HTML_LANGS: Record<AppLang, string> = { zh: 'zh-CN', en: 'en', es: 'es', ja: 'ja', pt: 'pt-BR' };

/** Sets `<html lang>` to the UI's language. */
export function markDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANGS[toAppLang(language)];
}

export function isAppLang(value: unknown): value is AppLang {
  return typeof value === 'string' && (APP_LANGS as readonly string[]).includes(value);
}

/** The language cookie when set, else the browser language matched against en, zh, es, ja and pt, else en. */
export function detectLanguage(cookie: string | undefined = readCookie(LANGUAGE_COOKIE), browser = typeof navigator === 'undefined' ? '' : navigator.language): AppLang {
  if (isAppLang(cookie)) return cookie;
  const wanted = browser.toLowerCase();
  return BROWSER_LANGS.find((lang) => wanted === lang || wanted.startsWith(`${lang}-`)) ?? 'en';
}

/** es and ja hold the shell only: the rest reads in English (pt is complete; English would only cover a slip). */
export const FALLBACK_LANGS = { es: ['en'], ja: ['en'], pt: ['en'], default: ['zh'] };

export function createI18n(lang: AppLang = detectLanguage()) {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: FALLBACK_LANGS,
    supportedLngs: [...APP_LANGS],
    resources: resourcesOf(NAMESPACES),
    ns: Object.keys(NAMESPACES),
    defaultNS: DEFAULT_NAMESPACE,
    interpolation: { escapeValue: false },
    returnObjects: true,
    initAsync: false,
    showSupportNotice: false,
  });
  markDocumentLanguage(instance.language);
  instance.on('languageChanged', markDocumentLanguage);
  return instance;
}

/** i18next's resources, language first: each namespace under each language it holds texts in. */
function resourcesOf(namespaces: typeof NAMESPACES): Resource {
  const resources: Resource = {};
  for (const lang of APP_LANGS) {
    const bundles: Record<string, ResourceLanguage[string]> = {};
    for (const [ns, locales] of Object.entries(namespaces) as [Namespace, (typeof namespaces)[Namespace]][]) {
      const texts = locales[lang];
      if (texts) bundles[ns] = texts;
    }
    resources[lang] = bundles;
  }
  return resources;
}

export function saveLanguage(lang: AppLang): void {
  writeCookie(LANGUAGE_COOKIE, lang, { expires: 365 });
}

/** The app language of an i18next language tag. */
export function toAppLang(language: string): AppLang {
  return APP_LANGS.find((lang) => language.startsWith(lang)) ?? 'en';
}

/** The language of the server's messages, dates and amounts: zh, en or pt; es and ja read English. */
export function toLang(language: string): Lang {
  return language.startsWith('zh') ? 'zh' : language.startsWith('pt') ? 'pt' : 'en';
}
