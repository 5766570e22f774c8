import {
  CloudDownloadOutlined,
  FontSizeOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  ReadOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Breadcrumb, Button, Dropdown, Layout, Space, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { selectRealRole, selectUserName, selectViewRole } from '@machines/sessionMachine';
import { selectSettings, selectSidebarOpened, selectSize, SIZES } from '@machines/settingsMachine';
import { SettingsContext } from '../displaySettings';
import { LanguageSwitch } from '../LanguageSwitch';
import { Logo } from '../Logo';
import { HOME_PATH, type AppRoute } from '../routes';
import { SessionContext } from '../session';
import { ErrorLogButton } from './ErrorLogButton';

/** `notice`: what takes the bar's free space between the breadcrumb and the tools (the shell's notice banner). */
type TopBarProps = { route: AppRoute; onOpenSettings: () => void; notice?: ReactNode };

/** Top bar and navbar in one row (spec §2.3): logo, sidebar toggle, where you are, then the tools and the user. */
export function TopBar({ route, onOpenSettings, notice }: TopBarProps) {
  const { t } = useTranslation();
  const settingsActor = SettingsContext.useActorRef();
  const opened = SettingsContext.useSelector(selectSidebarOpened);
  const { sidebarLogo } = SettingsContext.useSelector(selectSettings);
  const size = SettingsContext.useSelector(selectSize);
  const [, navigate] = useLocation();
  return (
    <Layout.Header className="shell-header">
      {!sidebarLogo && (
        <Link href={HOME_PATH} className="shell-header__brand" aria-label={t('site.title')}>
          <Logo size={28} />
          <span className="shell-header__site">{t('site.title')}</span>
        </Link>
      )}
      <Button
        type="text"
        className="shell-header__toggle"
        icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        aria-label={t('navbar.toggleSidebar')}
        aria-expanded={opened}
        onClick={() => settingsActor.send({ type: 'sidebar.toggle' })}
      />
      <Breadcrumb
        className="shell-header__breadcrumb"
        items={[{ title: <Link href={HOME_PATH}>{t('route.home')}</Link> }, ...(route.titleKey && route.path !== HOME_PATH ? [{ title: t(route.titleKey) }] : [])]}
      />
      {notice ?? <div className="shell-header__spacer" />}
      <Space size={2} className="shell-header__actions">
        <ErrorLogButton />
        <Button type="text" icon={<CloudDownloadOutlined />} onClick={() => navigate('/plugin/download')}>
          <span className="shell-header__label">{t('navbar.plugin')}</span>
        </Button>
        <Button type="text" icon={<ReadOutlined />} onClick={() => navigate('/docs')}>
          <span className="shell-header__label">{t('navbar.docs')}</span>
        </Button>
        <Dropdown
          trigger={['click']}
          menu={{
            selectable: true,
            selectedKeys: [size],
            items: SIZES.map((key) => ({ key, label: t(`navbar.sizes.${key}`) })),
            onClick: ({ key }) => settingsActor.send({ type: 'size.set', size: key as (typeof SIZES)[number] }),
          }}
        >
          {/* A native title: under the top edge an antd Tooltip flips below the button, over the opened menu. */}
          <Button type="text" icon={<FontSizeOutlined />} aria-label={t('navbar.size')} title={t('navbar.size')} />
        </Dropdown>
        <LanguageSwitch compact />
        <Tooltip title={t('navbar.settings')}>
          <Button type="text" icon={<SettingOutlined />} aria-label={t('navbar.settings')} onClick={onOpenSettings} />
        </Tooltip>
        <UserMenu />
      </Space>
    </Layout.Header>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const actor = SessionContext.useActorRef();
  const name = SessionContext.useSelector(selectUserName);
  const realRole = SessionContext.useSelector(selectRealRole);
  const viewRole = SessionContext.useSelector(selectViewRole);
  const role = viewRole ?? realRole;
  return (
    <Space size={0}>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'profile', icon: <UserOutlined />, label: t('navbar.profile') },
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: t('common.logout'), danger: true },
          ],
          onClick: ({ key }) => {
            if (key === 'profile') navigate('/profile/modify-psw');
            if (key === 'logout') actor.send({ type: 'session.logout' });
          },
        }}
      >
        <Button type="text" className="shell-header__user" data-testid="user-menu">
          <Avatar size={26} icon={<UserOutlined />} className="shell-header__avatar" />
          <Typography.Text className="shell-header__username" ellipsis>
            {name}
          </Typography.Text>
          <Tag color={role === 'admin' ? 'gold' : 'blue'} className="shell-header__role">
            {t(`role.${isKnownRole(role) ? role : 'common'}`)}
          </Tag>
        </Button>
      </Dropdown>
      <Tooltip title={t('common.logout')}>
        <Button type="text" icon={<LogoutOutlined />} aria-label={t('common.logout')} onClick={() => actor.send({ type: 'session.logout' })} />
      </Tooltip>
    </Space>
  );
}

const KNOWN_ROLES = ['admin', 'follow', 'search', 'keyword', 'common'] as const;
function isKnownRole(role: string): role is (typeof KNOWN_ROLES)[number] {
  return (KNOWN_ROLES as readonly string[]).includes(role);
}
