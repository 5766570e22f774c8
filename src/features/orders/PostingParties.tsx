import { Alert, Button, Descriptions, Skeleton, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderRow, PostingDetail } from '@contract/orders';

export type PostingDetailState = { status: 'loading' } | { status: 'ready'; detail: PostingDetail } | { status: 'failed' } | { status: 'none' };

/**
 * Ozon's details of the drawer's posting, asked for when the drawer opens on an Ozon row (an entered order has none);
 * `retry` asks again after a failure.
 */
export function usePostingDetail(row: OrderRow | null, load: (id: string) => Promise<PostingDetail>): { state: PostingDetailState; retry: () => void } {
  const [state, setState] = useState<{ of: string; state: PostingDetailState } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const wanted = row && row.source === 'ozon' && row.postingNumber ? row.id : null;
  useEffect(() => {
    if (wanted === null) return;
    let live = true;
    setState({ of: wanted, state: { status: 'loading' } });
    load(wanted).then(
      (detail) => live && setState({ of: wanted, state: { status: 'ready', detail } }),
      () => live && setState({ of: wanted, state: { status: 'failed' } }),
    );
    return () => {
      live = false;
    };
  }, [wanted, load, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  if (wanted === null) return { state: { status: 'none' }, retry };
  return { state: state?.of === wanted ? state.state : { status: 'loading' }, retry };
}

type PostingPartiesProps = { state: PostingDetailState; onRetry: () => void };

/**
 * Who the posting goes to: the buyer, phone and address when Ozon gives them (postings the seller delivers, rFBS),
 * else the city and region Ozon names and why there is no more; how it is delivered; Ozon's cancel reason.
 */
export function PostingParties({ state, onRetry }: PostingPartiesProps) {
  const { t } = useTranslation('orders');
  if (state.status === 'none') return null;
  return (
    <section aria-label={t('parties.title')}>
      <Typography.Title level={5}>{t('parties.title')}</Typography.Title>
      {state.status === 'loading' && <Skeleton active paragraph={{ rows: 2 }} title={false} />}
      {state.status === 'failed' && (
        <Alert type="warning" showIcon title={t('parties.failed')} action={<Button size="small" onClick={onRetry}>{t('retry')}</Button>} />
      )}
      {state.status === 'ready' && <PartiesOf detail={state.detail} />}
    </section>
  );
}

function PartiesOf({ detail }: { detail: PostingDetail }) {
  const { t } = useTranslation('orders');
  const { buyer, address, destination, deliveryMethod, cancellation } = detail;
  return (
    <Descriptions column={1} bordered size="small" data-testid="posting-parties">
      {buyer ? (
        <>
          <Descriptions.Item label={t('parties.buyer')}>{buyer.name}</Descriptions.Item>
          <Descriptions.Item label={t('parties.phone')}>{buyer.phone ? <Typography.Text copyable>{buyer.phone}</Typography.Text> : '—'}</Descriptions.Item>
        </>
      ) : (
        <Descriptions.Item label={t('parties.buyer')}>
          <Typography.Text type="secondary">{t('parties.keptByOzon')}</Typography.Text>
        </Descriptions.Item>
      )}
      {address ? (
        <Descriptions.Item label={t('parties.address')}>
          <Typography.Text copyable={{ text: [address.zipCode, address.region, address.text].filter(Boolean).join(', ') }}>
            {[address.zipCode, address.region, address.text].filter(Boolean).join(', ')}
          </Typography.Text>
          {address.comment && <div className="order-parties__comment">{t('parties.comment', { comment: address.comment })}</div>}
        </Descriptions.Item>
      ) : destination ? (
        <Descriptions.Item label={t('parties.destination')}>{[destination.city, destination.region].filter(Boolean).join(', ')}</Descriptions.Item>
      ) : null}
      {deliveryMethod && <Descriptions.Item label={t('parties.deliveryMethod')}>{deliveryMethod}</Descriptions.Item>}
      {cancellation && (
        <Descriptions.Item label={t('parties.cancelReason')}>
          {t(`actions.cancelReasons.${cancellation.reasonId ?? 0}` as 'actions.cancelReasons.352', { defaultValue: cancellation.reason })}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
