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

export function LanguageSwitch({ className, compact = false }: { className?: string; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = toAppLang(i18n.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map(({ key, label }) => ({ key, label })),
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
