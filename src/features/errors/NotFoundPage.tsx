import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

export function NotFoundPage() {
  const { t } = useTranslation(['errors', 'shell']);
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.text')}
        extra={
          <Link href="/">
            <Button type="primary">{t('shell:common.backHome')}</Button>
          </Link>
        }
      />
    </div>
  );
}
