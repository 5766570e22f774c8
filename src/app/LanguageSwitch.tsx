import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Lang } from '@contract/errors';
import { saveLanguage, toLang } from './i18n';

const LANGUAGES: { key: Lang; label: string }[] = [
  { key: 'zh', label: '简体中文' },
  { key: 'en', label: 'English' },
];

export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = toLang(i18n.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map(({ key, label }) => ({ key, label })),
        onClick: ({ key }) => {
          saveLanguage(key as Lang);
          void i18n.changeLanguage(key);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} className={className} aria-label={t('common.language')}>
        {LANGUAGES.find((language) => language.key === current)?.label}
      </Button>
    </Dropdown>
  );
}
