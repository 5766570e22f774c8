import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormats } from '@/app/formats';

/** One shop's line: how many of the batch go to it against what its daily quota leaves today. */
export type QuotaLine = {
  shopId: number;
  shopName: string;
  need: number;
  usage: number;
  limit: number;
  /** null: no limit, or not known (`error` says why). */
  left: number | null;
  resetAt: string;
  error: string | null;
};

type QuotaTableProps = { title: string; lines: QuotaLine[] };

/** Ozon's daily quota per shop before a batch is sent: this batch, used today, left, and when it starts again. */
export function QuotaTable({ title, lines }: QuotaTableProps) {
  const { t } = useTranslation('products');
  const { time } = useFormats();
  const resetAt = (iso: string) => (iso ? time.format(Date.parse(iso)) : '—');
  return (
    <>
      <Typography.Title level={5} style={{ margin: 0 }}>{title}</Typography.Title>
      <Table<QuotaLine>
        size="small"
        rowKey="shopId"
        pagination={false}
        dataSource={lines}
        data-testid="quota-table"
        columns={[
          { key: 'shop', title: t('reupload.quotaShop'), render: (_, l) => l.shopName },
          { key: 'selected', title: t('reupload.quotaSelected'), align: 'right', render: (_, l) => l.need },
          { key: 'used', title: t('reupload.quotaUsed'), align: 'right', render: (_, l) => (l.error ? '—' : l.limit < 0 ? l.usage : `${l.usage} / ${l.limit}`) },
          { key: 'left', title: t('reupload.quotaLeft'), align: 'right', render: (_, l) => (l.error ? '—' : l.left === null ? t('quota.unlimited') : l.left) },
          {
            key: 'reset',
            title: t('reupload.quotaReset'),
            render: (_, l) => (l.error ? <Typography.Text type="warning">{t('reupload.quotaUnknown', { reason: l.error })}</Typography.Text> : resetAt(l.resetAt)),
          },
        ]}
      />
    </>
  );
}
