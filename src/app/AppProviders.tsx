import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import type { i18n as I18n } from 'i18next';
import { StrictMode, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { DataClient } from '@workers/client';
import { DataClientProvider } from './dataClient';
import { toLang } from './i18n';
import { SessionProvider } from './session';

/** The theme colour of the spec (§2.3, §9). */
export const THEME_COLOR = '#1890ff';

type AppProvidersProps = { client: DataClient; i18n: I18n; children: ReactNode };

export function AppProviders({ client, i18n, children }: AppProvidersProps) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <LocalizedAntd>
          <DataClientProvider client={client}>
            <SessionProvider client={client}>{children}</SessionProvider>
          </DataClientProvider>
        </LocalizedAntd>
      </I18nextProvider>
    </StrictMode>
  );
}

function LocalizedAntd({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const lang = toLang(i18n.language);
  return (
    <ConfigProvider
      locale={lang === 'en' ? enUS : zhCN}
      // Buttons read as written ("登录", not "登 录"): labels stay the same text everywhere, tests included.
      button={{ autoInsertSpace: false }}
      theme={{ algorithm: theme.defaultAlgorithm, token: { colorPrimary: THEME_COLOR, borderRadius: 6 } }}
    >
      <AntApp message={{ maxCount: 3 }}>{children}</AntApp>
    </ConfigProvider>
  );
}
