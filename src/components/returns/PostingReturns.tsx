import { Alert, Button, List, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Lang } from '@contract/errors';
import type { ReturnRow } from '@contract/returns';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { timeFormat } from '@/app/formats';
import { Money } from '@/components/money/Money';
import { getHref } from '@/app/routes';

type PostingReturnsProps = { shopId: number; postingNumber: string; lang: Lang };

const RETURNS_PATH = '/return/return-list-new';
type Loaded = { key: string; rows: ReturnRow[] } | { key: string; error: string };

/**
 * A posting's returns (any scheme), for the order drawer: status, reason, amount and when, each opening the return
 * list at that posting. Nothing when the posting has none. Texts of the `returns` namespace.
 */
export function PostingReturns({ shopId, postingNumber, lang }: PostingReturnsProps) {
  const { t } = useTranslation('returns');
  const client = useDataClient();
  const [, navigate] = useLocation();
  const key = `${shopId}:${postingNumber}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    let current = true;
    client.returns.listNew({ shopIds: [shopId], postingNumber, rows: 20 }).then(
      (page) => current && setLoaded({ key, rows: page.list }),
      (failure: unknown) => current && setLoaded({ key, error: isApiFailure(failure) ? failure.message : String(failure) }),
    );
    return () => {
      current = false;
    };
  }, [client, key, shopId, postingNumber]);
  const shown = loaded?.key === key ? loaded : null;
  if (!shown || ('rows' in shown && shown.rows.length === 0)) return null;
  if ('error' in shown) return <Alert type="warning" showIcon title={shown.error} style={{ marginBottom: 16 }} />;
  const loose = t as unknown as (key: string, options: { defaultValue: string }) => string;
  const time = timeFormat(lang);
  return (
    <section data-testid="order-returns" style={{ marginBottom: 16 }}>
      <Typography.Title level={5}>{t('orderReturns')}</Typography.Title>
      <List
        size="small"
        bordered
        dataSource={shown.rows}
        renderItem={(row) => (
          <List.Item actions={[<Button key="open" type="link" onClick={() => navigate(getHref(RETURNS_PATH, { search: row.postingNumber }))}>{t('openReturn')}</Button>]}>
            <Space direction="vertical" size={0}>
              <Typography.Text strong>{loose(`statusNames.${row.status}`, { defaultValue: row.statusName || row.status })} · {row.scheme}</Typography.Text>
              <Typography.Text type="secondary">
                {loose(`reasonNames.${row.reason}`, { defaultValue: row.reason })} · <Money amount={row.amount} currency={row.currency} /> · {time.format(row.returnedAt)}
              </Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </section>
  );
}
