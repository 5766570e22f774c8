import {
  AppstoreOutlined,
  BarChartOutlined,
  CloudDownloadOutlined,
  CopyOutlined,
  CustomerServiceOutlined,
  GiftOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import { Card, Col, Descriptions, Row, Space, Tag, Typography } from 'antd';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { AREA_ROLES, isPermitted } from '@contract/access';
import type { ValidityTimes } from '@contract/session';
import { selectRoleTime, selectUser, selectViewRole } from '@machines/sessionMachine';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import './introduction.css';

type AreaKey = 'store' | 'copy' | 'collection' | 'orders' | 'products' | 'actions' | 'service' | 'research' | 'tools';

/** Each functional area and the roles that open it (from the one access table). */
const AREAS: { key: AreaKey; icon: ComponentType; roles: readonly string[] }[] = [
  { key: 'store', icon: ShopOutlined, roles: AREA_ROLES.store },
  { key: 'copy', icon: CopyOutlined, roles: AREA_ROLES.copy },
  { key: 'collection', icon: CloudDownloadOutlined, roles: AREA_ROLES.collection },
  { key: 'orders', icon: ShoppingCartOutlined, roles: AREA_ROLES.orders },
  { key: 'products', icon: AppstoreOutlined, roles: AREA_ROLES.products },
  { key: 'actions', icon: GiftOutlined, roles: AREA_ROLES.actions },
  { key: 'service', icon: CustomerServiceOutlined, roles: [...new Set([...AREA_ROLES.returns, ...AREA_ROLES.chat])] },
  {
    key: 'research',
    icon: BarChartOutlined,
    roles: [...new Set([...AREA_ROLES.analyze, ...AREA_ROLES.hotProductPro, ...AREA_ROLES.research, ...AREA_ROLES.dataAnalysis])],
  },
  { key: 'tools', icon: ToolOutlined, roles: AREA_ROLES.open },
];

const VALIDITY_KEYS: (keyof ValidityTimes)[] = ['followValidTime', 'plugValidTime', 'searchWordValidTime', 'keyWordValidTime'];
const DAY_MS = 24 * 60 * 60 * 1000;
const KNOWN_ROLES = ['admin', 'follow', 'search', 'keyword', 'common'];

export function IntroductionPage() {
  const { t, i18n } = useTranslation();
  const lang = toLang(i18n.language);
  const user = SessionContext.useSelector(selectUser);
  const viewRole = SessionContext.useSelector(selectViewRole);
  const roleTime = SessionContext.useSelector(selectRoleTime);
  const permissions = viewRole ? [viewRole] : user.rolePermissions;
  const roleName = (role: string) => t(`role.${KNOWN_ROLES.includes(role) ? role : 'common'}` as 'role.common');

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('home.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0, fontSize: 15 }}>
          {t('home.intro')}
        </Typography.Paragraph>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('home.account')} style={{ height: '100%' }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('home.userName')}>
                <span data-testid="intro-user-name">{user.name}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('home.realRole')}>
                <Tag color={user.realRole === 'admin' ? 'gold' : 'blue'}>{roleName(user.realRole)}</Tag>
              </Descriptions.Item>
              {viewRole ? (
                <Descriptions.Item label={t('home.viewRole')}>
                  <Tag color="purple">{roleName(viewRole)}</Tag>
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('home.roles')}>
                <Space size={4} wrap>
                  {user.roles.map((role) => (
                    <Tag key={role}>{roleName(role)}</Tag>
                  ))}
                </Space>
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('home.validity')} style={{ height: '100%' }}>
            <Descriptions column={1} size="small">
              {VALIDITY_KEYS.map((key) => (
                <Descriptions.Item key={key} label={t(`home.${key}`)}>
                  <Validity time={roleTime[key]} lang={lang} />
                </Descriptions.Item>
              ))}
            </Descriptions>
          </Card>
        </Col>
      </Row>
      <Card title={t('home.areas')}>
        <Row gutter={[16, 16]}>
          {AREAS.map(({ key, icon: Icon, roles }) => {
            const [title, text] = t(`home.area.${key}`, { returnObjects: true }) as readonly [string, string];
            const available = isPermitted(roles, permissions);
            return (
              <Col key={key} xs={24} sm={12} xl={8}>
                <div className={`intro-area${available ? '' : ' intro-area--off'}`}>
                  <div className="intro-area__icon">
                    <Icon />
                  </div>
                  <div className="intro-area__body">
                    <div className="intro-area__title">
                      {title}
                      <Tag color={available ? 'success' : 'default'} className="intro-area__tag">
                        {available ? t('home.available') : t('home.unavailable')}
                      </Tag>
                    </div>
                    <div className="intro-area__text">{text}</div>
                    <div className="intro-area__roles">
                      {roles.length === 0 ? t('home.openToAll') : t('home.needsRoles', { roles: roles.map(roleName).join(' / ') })}
                    </div>
                  </div>
                </div>
              </Col>
            );
          })}
        </Row>
      </Card>
    </Space>
  );
}

function Validity({ time, lang }: { time: number | null; lang: 'zh' | 'en' }) {
  const { t } = useTranslation();
  if (time === null) return <Typography.Text type="secondary">{t('common.notSet')}</Typography.Text>;
  const date = new Date(time).toLocaleDateString(lang === 'zh' ? 'zh-CN' : 'en-GB');
  const days = Math.ceil((time - Date.now()) / DAY_MS);
  if (days <= 0)
    return (
      <Space size={6}>
        <span>{t('common.validUntil', { date })}</span>
        <Tag color="error">{t('common.expired')}</Tag>
      </Space>
    );
  return (
    <Space size={6}>
      <span>{t('common.validUntil', { date })}</span>
      <Tag color={days <= 7 ? 'warning' : 'success'}>{t('common.daysLeft', { days })}</Tag>
    </Space>
  );
}
