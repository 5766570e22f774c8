import { Alert, Button, Card, Empty, Flex, Input, Select, Space, Tag, Typography } from 'antd';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { CardDraft, CategoryAttribute, CreateItem } from '@contract/create';
import { emptyCard } from '@contract/ozonCard';
import type { Store } from '@contract/store';
import { selectCreateProgress, selectCreateStep } from '@machines/createProductMachine';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { AttributeForm } from '@/components/attribute-form/AttributeForm';
import { useOzonCatalog } from '@/components/attribute-form/catalog';
import { importErrorsByField } from '@/components/attribute-form/fieldErrors';
import { createActionOn } from './createAction';

const STATUS_COLORS: Record<CreateItem['status'], string> = { importing: 'processing', moderating: 'warning', listed: 'success', failed: 'error' };

const reasonOf = (error: unknown) => (typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error));

type CreateProductPageProps = { mode: 'new' | 'template' };

/**
 * /create/create-product-1 (a new card from Ozon's category attributes) and /create/create-product-2 (the backup
 * listing: the same form filled from an existing product). The send runs in createProductMachine.
 */
function CreateProductPage({ mode }: CreateProductPageProps) {
  const { t } = useTranslation('create');
  const client = useDataClient();
  const [shops, setShops] = useState<Store[] | null>(null);
  const [shopId, setShopId] = useState<number | undefined>(undefined);
  const [card, setCard] = useState<CardDraft>(() => emptyCard());
  const [attributes, setAttributes] = useState<CategoryAttribute[] | null>(null);
  const [product, setProduct] = useState('');
  const [templateState, setTemplateState] = useState<{ loading: boolean; error: string | null; loaded: string | null }>({ loading: false, error: null, loaded: null });
  const machine = useMemo(() => createActionOn(client), [client]);
  const actor = useActorRef(machine, { ...appActorOptions(), input: {} });
  const step = useSelector(actor, selectCreateStep);
  const problems = useSelector(actor, (s) => s.context.problems);
  const error = useSelector(actor, (s) => s.context.error);
  const task = useSelector(actor, (s) => s.context.task);
  const progress = useSelector(actor, selectCreateProgress);
  const catalog = useOzonCatalog(shopId);
  // The products area's picture upload: the same checks, the same per-seller cap, an address Ozon fetches.
  const uploadImage = useCallback(async (file: File) => (await client.products.uploadImage(file, file.name)).url, [client]);

  useEffect(() => {
    void client.store.list().then(
      (list) => {
        setShops(list);
        setShopId((current) => current ?? list[0]?.id);
      },
      () => setShops([]),
    );
  }, [client]);

  // The first field Ozon would refuse comes into view, so the seller sees what to fix.
  useEffect(() => {
    if (step !== 'invalid' && step !== 'outcome') return;
    const first = document.querySelector('.ant-form-item-has-error, .ant-input-status-error, .ant-select-status-error');
    first?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [step, problems]);

  const fieldErrors = useMemo(() => (task ? importErrorsByField(task.items, card, attributes) : []), [task, card, attributes]);
  const general = fieldErrors.filter((e) => e.field === '');
  const busy = step === 'sending' || step === 'following';
  const send = useCallback(() => {
    if (shopId === undefined) return;
    if (step === 'failed' || step === 'outcome') actor.send({ type: 'action.retry', card, attributes });
    else actor.send({ type: 'action.start', shopId, card, attributes });
  }, [actor, step, shopId, card, attributes]);
  const startOver = () => {
    actor.send({ type: 'action.close' });
    setCard(emptyCard(card.currency));
    setTemplateState({ loading: false, error: null, loaded: null });
  };
  const loadTemplate = async () => {
    if (shopId === undefined || product.trim() === '') return;
    setTemplateState({ loading: true, error: null, loaded: null });
    try {
      const filled = await client.create.template({ shopId, product: product.trim() });
      actor.send({ type: 'action.close' });
      setCard(filled);
      setTemplateState({ loading: false, error: null, loaded: filled.name });
    } catch (failure) {
      setTemplateState({ loading: false, error: reasonOf(failure), loaded: null });
    }
  };

  if (shops !== null && shops.length === 0) {
    return (
      <Card>
        <Empty description={t('noShops')}>
          <Link href="/store/store-list">
            <Button type="primary">{t('goToShops')}</Button>
          </Link>
        </Empty>
      </Card>
    );
  }

  return (
    <Flex vertical gap={16} style={{ paddingBottom: 72 }}>
      <Card size="small">
        <Flex vertical gap={12}>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {mode === 'new' ? t('titleNew') : t('titleTemplate')}
            </Typography.Title>
            <Typography.Text type="secondary">{mode === 'new' ? t('introNew') : t('introTemplate')}</Typography.Text>
          </div>
          <Space wrap>
            <Typography.Text>{t('shop')}</Typography.Text>
            <Select
              aria-label={t('shop')}
              loading={shops === null}
              placeholder={t('shopPlaceholder')}
              value={shopId}
              onChange={setShopId}
              disabled={busy}
              options={(shops ?? []).map((s) => ({ value: s.id, label: s.name }))}
              style={{ width: 220 }}
            />
            {mode === 'template' ? (
              <>
                <Typography.Text>{t('template')}</Typography.Text>
                <Input
                  aria-label={t('template')}
                  placeholder={t('templatePlaceholder')}
                  value={product}
                  onChange={(e) => setProduct(e.target.value)}
                  onPressEnter={() => void loadTemplate()}
                  disabled={busy}
                  style={{ width: 220 }}
                />
                <Button onClick={() => void loadTemplate()} loading={templateState.loading} disabled={busy || shopId === undefined || product.trim() === ''}>
                  {t('loadTemplate')}
                </Button>
              </>
            ) : null}
          </Space>
          {templateState.error ? <Alert type="error" showIcon message={templateState.error} /> : null}
          {templateState.loaded ? <Alert type="success" showIcon message={t('templateLoaded', { name: templateState.loaded })} /> : null}
        </Flex>
      </Card>

      <AttributeForm
        value={card}
        onChange={setCard}
        catalog={catalog}
        showAllProblems={step !== 'idle'}
        fieldErrors={fieldErrors}
        onAttributes={setAttributes}
        onUpload={uploadImage}
        disabled={busy}
      />

      <Card size="small" style={{ position: 'sticky', bottom: 0, zIndex: 5, boxShadow: '0 -2px 8px rgba(0,0,0,0.06)' }}>
        <Flex vertical gap={8}>
          {step === 'invalid' ? <Alert type="warning" showIcon message={t('invalid', { count: problems.length })} /> : null}
          {step === 'failed' && error ? <Alert type="error" showIcon message={t('failed', { reason: error })} /> : null}
          {step === 'following' ? <Alert type="info" showIcon message={t('following')} /> : null}
          {step === 'outcome' ? (
            progress.failed === 0 ? (
              <Alert type="success" showIcon message={t('outcomeListed', { count: progress.listed })} />
            ) : (
              <Alert type="error" showIcon message={t('outcomeFailed', { failed: progress.failed, listed: progress.listed })} />
            )
          ) : null}
          {general.map((e) => (
            <Typography.Text key={e.message} type="danger">
              {t('general', { message: e.message })}
            </Typography.Text>
          ))}
          {task ? (
            <Space wrap aria-label={t('variantStatus')}>
              <Typography.Text type="secondary">{t('variantStatus')}:</Typography.Text>
              {task.items.map((item) => (
                <Tag key={item.offerId} color={STATUS_COLORS[item.status]} data-testid="create-variant-status">
                  {item.offerId} · {t(`statuses.${item.status}`)}
                </Tag>
              ))}
            </Space>
          ) : null}
          <Flex gap={8} justify="flex-end">
            <Button onClick={startOver} disabled={step === 'sending'}>
              {step === 'outcome' && progress.failed === 0 ? t('createAnother') : t('reset')}
            </Button>
            {step === 'outcome' && progress.failed === 0 ? null : (
              <Button type="primary" onClick={send} loading={busy} disabled={shopId === undefined}>
                {busy ? t('sending') : step === 'failed' || step === 'outcome' ? t('resubmit') : card.variants.length > 1 ? t('submitVariants', { count: card.variants.length }) : t('submit')}
              </Button>
            )}
          </Flex>
        </Flex>
      </Card>
    </Flex>
  );
}

export function CreateProductNewPage() {
  return <CreateProductPage mode="new" />;
}

export function CreateProductTemplatePage() {
  return <CreateProductPage mode="template" />;
}
