import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { message } from '@contract/errors';
import type { Role } from '@contract/session';
import { toLang } from '@/app/i18n';

export type NoPermissionPageProps = {
  /** The roles that open the page (the route's). */
  roles: readonly Role[];
};

/**
 * A page the signed-in user's roles do not include: the catalogue's 401 text and which role opens it, with the way
 * home. The address stays, so a user given the role later reloads into the page.
 */
export function NoPermissionPage({ roles }: NoPermissionPageProps) {
  const { t, i18n } = useTranslation(['errors', 'shell']);
  const lang = toLang(i18n.language);
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
