import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The documentation the top bar's button opens: how to use the back office. */
export function DocsPage() {
  const { t } = useTranslation('docs');
  return (
    <Card>
      <Typography>
        <Typography.Title level={2}>{t('title')}</Typography.Title>
        <Typography.Paragraph>{t('intro')}</Typography.Paragraph>
        {Object.values(t('sections')).map((section) => (
          <section key={section.heading}>
            <Typography.Title level={4}>{section.heading}</Typography.Title>
            <ul>
              {section.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
          </section>
        ))}
      </Typography>
    </Card>
  );
}
