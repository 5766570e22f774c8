import i18next, { type i18n as I18n, type TFunction } from 'i18next';
import { useContext, useMemo } from 'react';
import { I18nContext, useTranslation } from 'react-i18next';
import { APP_LANGS, FALLBACK_LANGS, type AppLang } from '@/app/i18n';
import { components } from './locales';

let standalone: I18n | null = null;

/** The components' texts alone, for a component drawn outside the app's I18nextProvider (the chat widget on a host page). */
function standaloneI18n(): I18n {
  if (standalone) return standalone;
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(APP_LANGS.map((lang) => [lang, { components: components[lang] ?? {} }]));
  void instance.init({
    lng: 'zh',
    fallbackLng: FALLBACK_LANGS,
    resources,
    ns: ['components'],
    defaultNS: 'components',
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return (standalone = instance);
}

/**
 * `t` of the `components` namespace: in the language `lang` when the caller names one, else the app's language
 * (Chinese outside the app, as the components always defaulted to). A named language reads through a fixed `t`, not
 * useTranslation's `lng`, which renders the component once more after mounting.
 */
export function useComponentTexts(lang?: AppLang): TFunction<'components'> {
  const context = useContext(I18nContext);
  const i18n = context?.i18n ?? standaloneI18n();
  const { t } = useTranslation('components', { i18n });
  const fixed = useMemo(() => (lang ? i18n.getFixedT(lang, 'components') : null), [i18n, lang]);
  return fixed ?? t;
}

/** The `t` useComponentTexts gives: stable while the language stays, so memoised rows may take it as a prop. */
export type ComponentsT = TFunction<'components'>;
