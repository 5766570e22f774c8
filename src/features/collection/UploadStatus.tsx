import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UploadRecord } from '@contract/collection';

const COLORS: Record<UploadRecord['status'], string> = { importing: 'processing', moderating: 'warning', listed: 'success', failed: 'error' };

/** Where an upload stands on Ozon, and Ozon's reasons when it failed (each on its own line, in the seller's language). */
export function UploadOutcome({ record }: { record: Pick<UploadRecord, 'status' | 'errors'> }) {
  const { t } = useTranslation('collection');
  return (
    <Space direction="vertical" size={0}>
      <Tag color={COLORS[record.status]}>{t(`history.statuses.${record.status}`)}</Tag>
      {record.errors.map((error, i) => (
        <Typography.Text key={`${error.code}-${i}`} type="danger" data-testid="upload-reason" style={{ fontSize: 12 }}>
          {error.message}
        </Typography.Text>
      ))}
    </Space>
  );
}
