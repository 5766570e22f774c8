import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveLanguage, toAppLang, type AppLang } from './i18n';

const LANGUAGES: { key: AppLang; label: string }[] = [
  { key: 'zh', label: '简体中文' },
  { key: 'en', label: 'English' },
  { key: 'es', label: 'Español' },
  { key: 'ja', label: '日本語' },
  { key: 'pt', label: 'Português' },
];
/**
 * The languages the picker offers: the spec's supported locales (zh, en, pt). es and ja hold only the shell's labels
 * (the spec's browser-language match still reaches them), so they are not offered as a choice; a user already in one
 * sees it listed to know where they are.
 */
const OFFERED: readonly AppLang[] = ['zh', 'en', 'pt'];

export function LanguageSwitch({ className, compact = false }: { className?: string; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = toAppLang(i18n.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.filter(({ key }) => OFFERED.includes(key) || key === current).map(({ key, label }) => ({ key, label })),
        onClick: ({ key }) => {
          saveLanguage(key as AppLang);
          void i18n.changeLanguage(key);
        },
      }}
    >
      {/* A native title, not an antd Tooltip: the tooltip would sit over the opened menu and swallow its clicks. */}
      <Button type="text" icon={<GlobalOutlined />} className={className} aria-label={t('common.language')} title={t('common.language')}>
        {compact ? null : LANGUAGES.find((language) => language.key === current)?.label}
      </Button>
    </Dropdown>
  );
}
