import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { areaGranted, isPermitted, type Area } from '@contract/access';
import { message } from '@contract/errors';
import type { Role } from '@contract/session';
import { selectUser, selectViewRole } from '@machines/sessionMachine';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import { AccessHint } from '@/components/access/AccessHint';

export type NoPermissionPageProps = {
  /** The roles that open the page (the route's). */
  roles: readonly Role[];
  /** The route's area: a member whose organisation role grants nothing in it is told to ask the owner. */
  area?: Area;
};

/**
 * A page the signed-in user's roles do not include: the catalogue's 401 text, which role opens it, the paid period
 * that role needs (or that the user's own ended, and when) and who to ask, with the way home. The address stays, so
 * a user given the role later reloads into the page.
 */
export function NoPermissionPage({ roles, area }: NoPermissionPageProps) {
  const { t, i18n } = useTranslation(['errors', 'shell']);
  const lang = toLang(i18n.language);
  const user = SessionContext.useSelector(selectUser);
  const viewRole = SessionContext.useSelector(selectViewRole);
  // An administrator viewing the tool as another role is told what that role lacks.
  const holder = viewRole ? { roles: [viewRole], roleTime: null } : user;
  const member = !viewRole && user.permissions !== null && isPermitted(roles, user.rolePermissions) && !areaGranted(user.permissions, area);
  const names = roles.map((role) => t(`shell:role.${role}`)).join(t('noPermission.or'));
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Result
        status="403"
        title={t('noPermission.title')}
        subTitle={
          <>
            <div>{message('unauthorized', lang)}</div>
            {names && <div>{t('noPermission.roles', { roles: names })}</div>}
            <AccessHint roles={roles} holder={holder} member={member} />
          </>
        }
        extra={
          <Link href="/">
            <Button type="primary">{t('shell:common.backHome')}</Button>
          </Link>
        }
      />
    </div>
  );
}
