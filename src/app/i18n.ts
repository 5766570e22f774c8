import i18next from 'i18next';
import Cookies from 'js-cookie';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '@contract/errors';
import { en } from './locales/en';
import { zh } from './locales/zh';

/** The spec keeps the chosen language in a cookie (§2.3). */
export const LANGUAGE_COOKIE = 'language';

export function detectLanguage(): Lang {
  const saved = Cookies.get(LANGUAGE_COOKIE);
  if (saved === 'zh' || saved === 'en') return saved;
  // A Chinese-first product: only a browser that asks for English gets it.
  const browser = typeof navigator === 'undefined' ? '' : navigator.language.toLowerCase();
  return browser.startsWith('en') ? 'en' : 'zh';
}

export function createI18n(lang: Lang = detectLanguage()) {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: 'zh',
    resources: { zh: { translation: zh }, en: { translation: en } },
    interpolation: { escapeValue: false },
    returnObjects: true,
    initAsync: false,
    showSupportNotice: false,
  });
  return instance;
}

export function saveLanguage(lang: Lang): void {
  Cookies.set(LANGUAGE_COOKIE, lang, { expires: 365 });
}

export function toLang(language: string): Lang {
  return language.startsWith('en') ? 'en' : 'zh';
}
