import { Card, Col, Descriptions, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isPermitted } from '@contract/access';
import type { ValidityTimes } from '@contract/session';
import { selectRoleTime, selectUser, selectViewRole } from '@machines/sessionMachine';
import { dateFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import type { Lang } from '@contract/errors';
import { SessionContext } from '@/app/session';
import { AccessHint } from '@/components/access/AccessHint';
import { roleNeeds } from '@/components/access/roleNeeds';
import { areaStatus, HOME_AREAS } from './areas';
import './introduction.css';

/** A built area reads as usable, one partly built as in progress, one not built as under construction. */
const STATUS_COLORS = { built: 'success', partial: 'processing', building: 'warning' } as const;

const VALIDITY_KEYS: (keyof ValidityTimes)[] = ['followValidTime', 'plugValidTime', 'searchWordValidTime', 'keyWordValidTime'];
const DAY_MS = 24 * 60 * 60 * 1000;
const KNOWN_ROLES = ['admin', 'follow', 'search', 'keyword', 'common'];

export function IntroductionPage() {
  const { t, i18n } = useTranslation(['home', 'shell']);
  const lang = toLang(i18n.language);
  const user = SessionContext.useSelector(selectUser);
  const viewRole = SessionContext.useSelector(selectViewRole);
  const roleTime = SessionContext.useSelector(selectRoleTime);
  const permissions = viewRole ? [viewRole] : user.rolePermissions;
  // Viewing as a role (an administrator's change-role) holds that role fully; periods are the user's own otherwise.
  const holder = viewRole ? { roles: [viewRole], roleTime: null } : user;
  const roleName = (role: string) => t(`shell:role.${KNOWN_ROLES.includes(role) ? role : 'common'}` as 'shell:role.common');

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0, fontSize: 15 }}>
          {t('intro')}
        </Typography.Paragraph>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('account')} style={{ height: '100%' }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('userName')}>
                <span data-testid="intro-user-name">{user.name}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('realRole')}>
                <Tag color={user.realRole === 'admin' ? 'gold' : 'blue'}>{roleName(user.realRole)}</Tag>
              </Descriptions.Item>
              {viewRole ? (
                <Descriptions.Item label={t('viewRole')}>
                  <Tag color="purple">{roleName(viewRole)}</Tag>
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('roles')}>
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
          <Card title={t('validity')} style={{ height: '100%' }}>
            <Descriptions column={1} size="small">
              {VALIDITY_KEYS.map((key) => (
                <Descriptions.Item key={key} label={t(`shell:validity.${key}`)}>
                  <Validity time={roleTime[key]} lang={lang} />
                </Descriptions.Item>
              ))}
            </Descriptions>
          </Card>
        </Col>
      </Row>
      <Card title={t('areas')}>
        <Row gutter={[16, 16]}>
          {HOME_AREAS.map((area) => {
            const { key, icon: Icon, roles } = area;
            const [title, text] = t(`area.${key}`, { returnObjects: true }) as readonly [string, string];
            const permitted = isPermitted(roles, permissions);
            const { status, building } = areaStatus(area);
            const available = permitted && status !== 'building';
            // A module the user cannot open says so (opened, or the period ended), never how far it is built.
            const expired = !permitted && roleNeeds(roles, holder).some((need) => need.state === 'expired');
            return (
              <Col key={key} xs={24} sm={12} xl={8}>
                <div className={`intro-area${available ? '' : ' intro-area--off'}`}>
                  <div className="intro-area__icon">
                    <Icon />
                  </div>
                  <div className="intro-area__body">
                    <div className="intro-area__title">
                      {title}
                      {permitted ? (
                        <Tag color={STATUS_COLORS[status]} className="intro-area__tag" data-testid={`intro-area-status-${key}`}>
                          {t(`status.${status}`)}
                        </Tag>
                      ) : (
                        <Tag color={expired ? 'error' : 'default'} className="intro-area__tag" data-testid={`intro-area-status-${key}`}>
                          {t(expired ? 'expired' : 'unavailable')}
                        </Tag>
                      )}
                    </div>
                    <div className="intro-area__text">{text}</div>
                    {status === 'partial' && (
                      <div className="intro-area__building">
                        {t('buildingPages', { pages: new Intl.ListFormat(i18n.language).format(building.map((page) => (page.titleKey ? t(page.titleKey, { ns: 'shell' }) : page.path))) })}
                      </div>
                    )}
                    <div className="intro-area__roles">
                      {roles.length === 0 ? t('openToAll') : t('needsRoles', { roles: roles.map(roleName).join(' / ') })}
                    </div>
                    {!permitted && <AccessHint roles={roles} holder={holder} className="intro-area__hint" />}
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

function Validity({ time, lang }: { time: number | null; lang: Lang }) {
  const { t } = useTranslation(['home', 'shell']);
  if (time === null) return <Typography.Text type="secondary">{t('shell:common.notSet')}</Typography.Text>;
  const date = dateFormat(lang).format(time);
  const days = Math.ceil((time - Date.now()) / DAY_MS);
  if (days <= 0)
    return (
      <Space size={6}>
        <span>{t('shell:common.validUntil', { date })}</span>
        <Tag color="error">{t('shell:common.expired')}</Tag>
      </Space>
    );
  return (
    <Space size={6}>
      <span>{t('shell:common.validUntil', { date })}</span>
      <Tag color={days <= 7 ? 'warning' : 'success'}>{t('shell:common.daysLeft', { days })}</Tag>
    </Space>
  );
}
