import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { useTranslation } from 'react-i18next';
import { createI18n, detectLanguage } from '@/app/i18n';
import { LanguageSwitch } from '@/app/LanguageSwitch';
import { renderWithApp } from '../renderApp';

beforeEach(() => {
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name);
});

describe('which language the app starts in (spec §2.3)', () => {
  it.each([
    // The cookie wins, whatever the browser says; pt is a shell language too.
    ['zh', 'en-US', 'zh'],
    ['ja', 'zh-CN', 'ja'],
    ['pt', 'en-US', 'pt'],
    // Without a cookie the browser language is matched against en, zh, es, ja and pt (which holds every text).
    [undefined, 'zh-CN', 'zh'],
    [undefined, 'zh', 'zh'],
    [undefined, 'es-MX', 'es'],
    [undefined, 'ja', 'ja'],
    [undefined, 'en-GB', 'en'],
    [undefined, 'pt-BR', 'pt'],
    // Anything else falls back to en.
    [undefined, 'fr-FR', 'en'],
    [undefined, '', 'en'],
    // A cookie naming no language of ours is ignored.
    ['klingon', 'es-ES', 'es'],
  ])('cookie %s, browser %s: %s', (cookie, browser, expected) => {
    expect(detectLanguage(cookie, browser)).toBe(expected);
  });

  it('reads the language cookie the switcher wrote', () => {
    Cookies.set('language', 'es');
    expect(detectLanguage()).toBe('es');
  });
});

describe('the shell texts in es, ja and pt; the pages in pt, English for es and ja', () => {
  it.each([
    ['es', 'Cerrar todas', 'Idioma', '¡Servicio actualizado! Haga clic para recargar', 'Add user'],
    ['ja', 'すべて閉じる', '言語', 'サービスが更新されました。クリックして再読み込みしてください', 'Add user'],
    ['pt', 'Fechar todas', 'Idioma', 'Serviço atualizado! Clique para recarregar', 'Adicionar usuário'],
  ] as const)('%s', (lang, closeAll, language, versionText, addUser) => {
    const i18n = createI18n(lang);
    expect(i18n.t('tagsView.closeAll')).toBe(closeAll);
    expect(i18n.t('common.language')).toBe(language);
    // The version check's notification speaks the user's language too (spec §2.4).
    expect(i18n.t('version.text')).toBe(versionText);
    // A page's texts: pt holds them all; es and ja read in English, never in Chinese.
    expect(i18n.t('admin:users.add')).toBe(addUser);
  });
});

function Label() {
  const { t } = useTranslation();
  return <h1>{t('tagsView.closeAll')}</h1>;
}

describe('the language switcher', () => {
  it('switches every label at once and saves the choice in the language cookie', async () => {
    const user = userEvent.setup();
    renderWithApp(
      <>
        <LanguageSwitch compact />
        <Label />
      </>,
    );
    expect(screen.getByRole('heading')).toHaveTextContent('关闭所有');
    await user.click(screen.getByRole('button', { name: '语言' }));
    // The spec's three languages; es and ja hold only the shell's labels and are not offered.
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['简体中文', 'English', 'Português']);
    await user.click(await screen.findByRole('menuitem', { name: 'English' }));
    expect(await screen.findByRole('heading')).toHaveTextContent('Close all');
    expect(screen.getByRole('button', { name: 'Language' })).toBeInTheDocument();
    expect(Cookies.get('language')).toBe('en');
    // The page's own language follows the UI's.
    expect(document.documentElement.lang).toBe('en');
  });
});
