import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { toLang } from '@/app/i18n';
import { DOCS } from './docsText';

/** The documentation the top bar's button opens: how to use the back office. */
export function DocsPage() {
  const { i18n } = useTranslation();
  const docs = DOCS[toLang(i18n.language)];
  return (
    <Card>
      <Typography>
        <Typography.Title level={2}>{docs.title}</Typography.Title>
        <Typography.Paragraph>{docs.intro}</Typography.Paragraph>
        {docs.sections.map((section) => (
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
