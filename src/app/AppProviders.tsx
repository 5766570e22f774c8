import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import esES from 'antd/locale/es_ES';
import jaJP from 'antd/locale/ja_JP';
import ptBR from 'antd/locale/pt_BR';
import zhCN from 'antd/locale/zh_CN';
import type { Locale } from 'antd/es/locale';
import type { i18n as I18n } from 'i18next';
import { StrictMode, useSyncExternalStore, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { DataClient } from '@workers/client';
import { AntdVars } from './AntdVars';
import { DataClientProvider } from './dataClient';
import { selectSize, selectTheme } from '@machines/settingsMachine';
import { SettingsContext, SettingsProvider } from './displaySettings';
import { toAppLang, type AppLang } from './i18n';
import { SessionProvider } from './session';

/** The theme colour of the spec (§2.3, §9); the settings panel changes it. */
export const THEME_COLOR = '#1890ff';

const ANTD_LOCALES: Record<AppLang, Locale> = { zh: zhCN, en: enUS, es: esES, ja: jaJP, pt: ptBR };
/** The global size (spec §2.3) as antd's component size. */
const COMPONENT_SIZES = { small: 'small', medium: 'middle', large: 'large' } as const;

type AppProvidersProps = { client: DataClient; i18n: I18n; children: ReactNode };

export function AppProviders({ client, i18n, children }: AppProvidersProps) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <SettingsProvider>
          <LocalizedAntd>
            <DataClientProvider client={client}>
              <SessionProvider client={client}>{children}</SessionProvider>
            </DataClientProvider>
          </LocalizedAntd>
        </SettingsProvider>
      </I18nextProvider>
    </StrictMode>
  );
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
function subscribeReducedMotion(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
/** Whether the person's system asks for less motion (an accessibility setting); followed live. */
function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribeReducedMotion, () => typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION).matches);
}

function LocalizedAntd({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const reducedMotion = useReducedMotion();
  const lang = toAppLang(i18n.language);
  const colorPrimary = SettingsContext.useSelector(selectTheme);
  const size = SettingsContext.useSelector(selectSize);
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[lang]}
      componentSize={COMPONENT_SIZES[size]}
      // Buttons read as written ("登录", not "登 录"): labels stay the same text everywhere, tests included.
      button={{ autoInsertSpace: false }}
      // Link buttons read colorLink, not colorPrimary: the chosen theme colour covers them too.
      // zeroRuntime: component styles come from antd's static sheet (main.tsx) instead of being generated and inserted
      // while components first render and commit, which made every first mount of a page or overlay a long task.
      // Tokens stay live as CSS variables, so the theme colour setting still applies at once.
      // A system that asks for less motion gets none: dialogs, drawers, menus and messages appear without zooms and slides.
      theme={{ zeroRuntime: true, algorithm: theme.defaultAlgorithm, token: { colorPrimary, colorLink: colorPrimary, borderRadius: 6, motion: !reducedMotion } }}
    >
      <AntdVars />
      <AntApp message={{ maxCount: 3 }}>{children}</AntApp>
    </ConfigProvider>
  );
}
