import { useActorRef, useSelector } from '@xstate/react';
import { Alert, Button, Card, Drawer, Progress, Radio, Segmented, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductRow } from '@contract/products';
import type { Store } from '@contract/store';
import {
  cardMainPicture,
  PUBLISH_MAX_PRODUCTS,
  publishedPictureState,
  selectPublishOutcomes,
  selectPublishPicture,
  selectPublishProgress,
  selectPublishReason,
  selectPublishStep,
  type PublishFormat,
  type PublishOutcome,
  type PublishPlacement,
} from '@machines/designerPublishMachine';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { pictureUrl } from '@/components/pictureUrl';
import { publishOn, type DesignPicture } from './publishAction';
import { ProductName, ShopProductTable } from './ShopProductTable';

type PublishDrawerProps = {
  open: boolean;
  onClose: () => void;
  design: DesignPicture;
  /** A small picture of the design as it is now, for the seller to see what goes out. */
  thumbnail: string | null;
  /** Fonts still loading: the picture would go out with a fallback font, so the start waits. */
  fontsLoading: boolean;
};

const STATE_COLOURS = { waiting: 'default', sent: 'green', failed: 'red' } as const;
const OZON_COLOURS: Record<string, string> = { imported: 'green', uploading: 'processing', failed: 'red', unknown: 'orange' };

/**
 * The designer's picture put on a shop's products (/updateSkuImage): the seller chooses the shop, the products (by
 * name or offer id), the format and where the picture goes on the card; the publish machine stores it once and sends
 * it to each card, and this drawer shows each product's outcome with Ozon's answer.
 */
export function PublishDrawer({ open, onClose, design, thumbnail, fontsLoading }: PublishDrawerProps) {
  const { t } = useTranslation('edit');
  const client = useDataClient();
  const texts = useRef(() => ({ refusedSize: t('refusedSize'), refusedBytes: t('refusedBytes'), tooManyPictures: t('publish.tooManyPictures'), untitled: t('untitled') }));
  texts.current = () => ({ refusedSize: t('refusedSize'), refusedBytes: t('refusedBytes'), tooManyPictures: t('publish.tooManyPictures'), untitled: t('untitled') });
  const machine = useMemo(() => publishOn(client, design, () => texts.current()), [client, design]);
  const actor = useActorRef(machine, appActorOptions());
  const step = useSelector(actor, selectPublishStep);

  const [shops, setShops] = useState<Store[] | null>(null);
  const [shopId, setShopId] = useState<number | null>(null);
  const [chosen, setChosen] = useState<{ ids: string[]; rows: ProductRow[] }>({ ids: [], rows: [] });
  const [format, setFormat] = useState<PublishFormat>('jpeg');
  const [placement, setPlacement] = useState<PublishPlacement>('main');

  useEffect(() => {
    if (open && step === 'idle') actor.send({ type: 'action.start' });
  }, [open, step, actor]);
  useEffect(() => {
    if (!open) return;
    void client.store.list().then(
      (list) => {
        setShops(list);
        setShopId((current) => current ?? list[0]?.id ?? null);
      },
      () => setShops([]),
    );
  }, [open, client]);

  const close = () => {
    if (step === 'choosing' || step === 'done' || step === 'failed') actor.send({ type: step === 'choosing' ? 'action.cancel' : 'action.close' });
    onClose();
  };
  const tooMany = chosen.ids.length > PUBLISH_MAX_PRODUCTS;
  const canStart = shopId !== null && chosen.ids.length > 0 && !tooMany && !fontsLoading;

  return (
    <Drawer open={open} onClose={close} title={t('publish.title')} size={980} data-testid="publish-drawer">
      <div className="publish-layout">
        <Card size="small" title={t('publish.design')} className="publish-design">
          {thumbnail ? <img src={thumbnail} alt={t('publish.design')} className="publish-thumbnail" /> : <Spin />}
          <Typography.Text type="secondary">{t('publish.size', design.size())}</Typography.Text>
        </Card>
        <div className="publish-main">
          {step === 'choosing' && (
            <Card size="small">
              <Space direction="vertical" style={{ width: '100%' }}>
                {shops !== null && shops.length === 0 ? (
                  <Alert type="info" showIcon message={t('publish.noShops')} />
                ) : (
                  <Space wrap>
                    <span>{t('publish.shop')}</span>
                    <Select
                      style={{ minWidth: 220 }}
                      loading={shops === null}
                      placeholder={t('publish.chooseShop')}
                      value={shopId ?? undefined}
                      onChange={(id: number) => {
                        setShopId(id);
                        setChosen({ ids: [], rows: [] });
                      }}
                      options={(shops ?? []).map((s) => ({ value: s.id, label: s.name }))}
                      aria-label={t('publish.shop')}
                    />
                    <span>{t('publish.format')}</span>
                    <Segmented value={format} onChange={(v) => setFormat(v as PublishFormat)} options={[{ value: 'jpeg', label: 'JPG' }, { value: 'png', label: 'PNG' }]} />
                  </Space>
                )}
                <Space wrap>
                  <span>{t('publish.placement')}</span>
                  <Radio.Group value={placement} onChange={(e) => setPlacement(e.target.value as PublishPlacement)} options={(['main', 'extra'] as const).map((v) => ({ value: v, label: t(`publish.placements.${v}`) }))} />
                </Space>
                {shopId !== null && <ShopProductTable shopId={shopId} chosen={chosen.ids} onChosen={(ids, rows) => setChosen({ ids, rows })} />}
                <Typography.Text type={tooMany ? 'danger' : 'secondary'}>{t('publish.chosen', { count: chosen.ids.length, max: PUBLISH_MAX_PRODUCTS })}</Typography.Text>
                {fontsLoading && <Alert type="info" showIcon message={t('fontsLoading')} />}
                <Button
                  type="primary"
                  disabled={!canStart}
                  data-testid="publish-start"
                  onClick={() =>
                    actor.send({
                      type: 'action.confirm',
                      request: { shopId: shopId!, format, placement, products: chosen.rows.map((row) => ({ id: row.id, offerId: row.offerId, name: row.name, image: row.image })) },
                    })
                  }
                >
                  {t('publish.start', { count: chosen.ids.length })}
                </Button>
              </Space>
            </Card>
          )}
          {step === 'storing' && (
            <Card size="small">
              <Spin tip={t('publish.storing')}>
                <div style={{ height: 120 }} />
              </Spin>
            </Card>
          )}
          {step === 'failed' && <StoreFailed actor={actor} />}
          {(step === 'sending' || step === 'done') && <Outcomes actor={actor} />}
        </div>
      </div>
    </Drawer>
  );
}

type PublishActor = ReturnType<typeof useActorRef<ReturnType<typeof publishOn>>>;

function StoreFailed({ actor }: { actor: PublishActor }) {
  const { t } = useTranslation('edit');
  const reason = useSelector(actor, selectPublishReason);
  return (
    <Alert
      type="error"
      showIcon
      message={t('publish.storeFailed', { reason: reason ?? t('failed') })}
      action={
        <Space direction="vertical">
          <Button size="small" onClick={() => actor.send({ type: 'action.retry' })}>
            {t('wm.retry')}
          </Button>
          <Button size="small" onClick={() => actor.send({ type: 'action.cancel' })}>
            {t('publish.back')}
          </Button>
        </Space>
      }
    />
  );
}

function Outcomes({ actor }: { actor: PublishActor }) {
  const { t } = useTranslation('edit');
  const step = useSelector(actor, selectPublishStep);
  const outcomes = useSelector(actor, selectPublishOutcomes);
  const picture = useSelector(actor, selectPublishPicture);
  const progress = useSelector(actor, selectPublishProgress);
  const done = step === 'done';
  return (
    <Card
      size="small"
      data-testid="publish-outcomes"
      extra={
        done && (
          <Space>
            {progress.failed > 0 && <Button size="small" onClick={() => actor.send({ type: 'action.retry' })}>{t('publish.retryFailed')}</Button>}
            <Button size="small" onClick={() => actor.send({ type: 'action.start' })}>
              {t('publish.again')}
            </Button>
          </Space>
        )
      }
      title={done ? t('publish.summary', { sent: progress.settled - progress.failed, failed: progress.failed }) : t('publish.sending', progress)}
    >
      <Progress percent={progress.percent} status={done ? (progress.failed ? 'exception' : 'success') : 'active'} />
      {picture && (
        <Typography.Paragraph type="secondary" className="wm-template-meta" copyable={{ text: picture.url }}>
          {t('publish.publicPicture')}: <a href={picture.url} target="_blank" rel="noreferrer">{picture.url}</a>
        </Typography.Paragraph>
      )}
      <Table<PublishOutcome>
        size="small"
        rowKey={(o) => o.product.id}
        dataSource={outcomes}
        pagination={{ pageSize: 10, size: 'small', hideOnSinglePage: true }}
        columns={[
          {
            key: 'image',
            width: 56,
            render: (_, o) => {
              const image = cardMainPicture(o);
              return image ? <img src={pictureUrl(image)} alt="" className="wm-thumb" data-testid="publish-outcome-picture" /> : null;
            },
          },
          { key: 'product', title: t('publish.columns.product'), render: (_, o) => <ProductName row={o.product} /> },
          { key: 'state', title: t('publish.columns.state'), width: 100, render: (_, o) => <Tag color={STATE_COLOURS[o.state]}>{t(`publish.states.${o.state}`)}</Tag> },
          { key: 'ozon', title: t('publish.columns.ozon'), width: 260, render: (_, o) => <OzonAnswer outcome={o} url={picture?.url ?? null} /> },
        ]}
      />
    </Card>
  );
}

function OzonAnswer({ outcome, url }: { outcome: PublishOutcome; url: string | null }) {
  const { t } = useTranslation('edit');
  if (outcome.state === 'failed') return <Typography.Text type="danger">{outcome.reason ?? t('failed')}</Typography.Text>;
  if (outcome.state !== 'sent') return null;
  const state = publishedPictureState(outcome, url) ?? 'unknown';
  const known = ['imported', 'uploading', 'failed'].includes(state) ? state : 'unknown';
  return (
    <Space direction="vertical" size={0}>
      <Tag color={OZON_COLOURS[known]}>{t(`publish.ozonStates.${known as 'imported'}`)}</Tag>
      <Typography.Text type="secondary" className="wm-template-meta">
        {t('publish.cardPictures', { n: outcome.pictures.length })}
      </Typography.Text>
    </Space>
  );
}

