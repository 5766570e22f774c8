import { ToolOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { findRoute, HOME_PATH } from '@/app/routes';
import { usePageRoute } from '@/app/RoutePage';

/**
 * The honest page of an area whose own issue has not landed: it names the area and says what it will do, instead of
 * an empty screen or a fake list. The area's issue replaces the route's page.
 */
export function ConstructionPage() {
  const { t } = useTranslation(['construction', 'shell']);
  const [path] = useLocation();
  const route = usePageRoute() ?? findRoute(path);
  const area = route?.titleKey ? t(route.titleKey, { ns: 'shell' }) : path;
  return (
    <Result
      className="construction-page"
      icon={<ToolOutlined />}
      title={t('title', { area })}
      subTitle={
        <>
          <p>{t('text')}</p>
          {route?.construction && <p className="construction-page__plan">{t(`area.${route.construction}`)}</p>}
        </>
      }
      extra={
        <Link href={HOME_PATH}>
          <Button type="primary">{t('back')}</Button>
        </Link>
      }
    />
  );
}
