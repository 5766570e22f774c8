import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CopyRecord } from '@contract/copy';

const COLORS: Record<CopyRecord['status'], string> = { importing: 'processing', moderating: 'warning', listed: 'success', failed: 'error' };

/** A copy's standing on Ozon, as a tag. */
export function CopyStatusTag({ status }: { status: CopyRecord['status'] }) {
  const { t } = useTranslation('copy');
  return <Tag color={COLORS[status]}>{t(`statuses.${status}`)}</Tag>;
}

/** Ozon's reasons for a failed copy, each on its own line, in the seller's language. */
export function CopyReasons({ errors }: { errors: CopyRecord['errors'] }) {
  if (errors.length === 0) return null;
  return (
    <Space direction="vertical" size={0}>
      {errors.map((error, i) => (
        <Typography.Text key={`${error.code}-${i}`} type="danger" data-testid="copy-reason">
          {error.message}
        </Typography.Text>
      ))}
    </Space>
  );
}
