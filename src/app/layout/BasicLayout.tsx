import { DownOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Breadcrumb, Button, Dropdown, Layout, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { selectRealRole, selectUserName, selectViewRole } from '@machines/sessionMachine';
import { LanguageSwitch } from '../LanguageSwitch';
import { Logo } from '../Logo';
import { HOME_PATH, type AppRoute } from '../routes';
import { SessionContext } from '../session';
import './layout.css';

type BasicLayoutProps = { route: AppRoute; children: ReactNode };

/**
 * The minimal frame of logged-in pages: a top bar with the logo, the user and logout. The full shell (sidebar, tabs,
 * settings) replaces this file later.
 */
export function BasicLayout({ route, children }: BasicLayoutProps) {
  const { t } = useTranslation();
  return (
    <Layout className="basic-layout">
      <Layout.Header className="basic-layout__header">
        <Link href={HOME_PATH} className="basic-layout__brand" aria-label={t('site.title')}>
          <Logo size={28} />
          <span className="basic-layout__site">{t('site.title')}</span>
        </Link>
        <div className="basic-layout__spacer" />
        <Space size={4} className="basic-layout__actions">
          <LanguageSwitch />
          <UserMenu />
        </Space>
      </Layout.Header>
      <Layout.Content className="basic-layout__content">
        <Breadcrumb
          className="basic-layout__breadcrumb"
          items={[{ title: <Link href={HOME_PATH}>{t('route.home')}</Link> }, ...(route.titleKey ? [{ title: t(route.titleKey) }] : [])]}
        />
        {children}
      </Layout.Content>
      <Layout.Footer className="basic-layout__footer">
        {t('site.title')} · {t('site.tagline')}
      </Layout.Footer>
    </Layout>
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
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'psw', icon: <KeyOutlined />, label: t('route.modifyPsw') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('common.logout'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'psw') navigate('/profile/modify-psw');
          if (key === 'logout') actor.send({ type: 'session.logout' });
        },
      }}
    >
      <Button type="text" className="basic-layout__user" data-testid="user-menu">
        <Avatar size={28} icon={<UserOutlined />} className="basic-layout__avatar" />
        <Typography.Text className="basic-layout__username" ellipsis>
          {name}
        </Typography.Text>
        <Tag color={role === 'admin' ? 'gold' : 'blue'} className="basic-layout__role">
          {t(`role.${isKnownRole(role) ? role : 'common'}`)}
        </Tag>
        <DownOutlined className="basic-layout__caret" />
      </Button>
    </Dropdown>
  );
}

const KNOWN_ROLES = ['admin', 'follow', 'search', 'keyword', 'common'] as const;
function isKnownRole(role: string): role is (typeof KNOWN_ROLES)[number] {
  return (KNOWN_ROLES as readonly string[]).includes(role);
}
