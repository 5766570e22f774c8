import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { chatWidget } from './locales';

/** The widget's languages; the host passes one as the widget's `lang` prop. */
export type ChatLang = 'zh' | 'en' | 'pt';

export type ChatTextKey = keyof (typeof chatWidget)['zh'];

export type Translate = (key: ChatTextKey, vars?: Record<string, string | number>) => string;

/** The widget's texts (namespace `chatWidget`) in the language the host asked for, whatever the app's language. */
export function useWidgetTranslate(lang: ChatLang): Translate {
  const { t } = useTranslation('chatWidget', { lng: lang });
  return useCallback<Translate>((key, vars) => t(key, vars ?? {}), [t]);
}
