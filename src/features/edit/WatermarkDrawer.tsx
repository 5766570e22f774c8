import { DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined, UndoOutlined, UploadOutlined } from '@ant-design/icons';
import { useActorRef, useSelector } from '@xstate/react';
import {
  Alert,
  App as AntApp,
  Button,
  Card,
  Checkbox,
  ColorPicker,
  Drawer,
  Empty,
  Image,
  Input,
  List,
  Modal,
  Popconfirm,
  Progress,
  Radio,
  Segmented,
  Select,
  Slider,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
  Upload,
} from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductRow } from '@contract/products';
import type { Store } from '@contract/store';
import {
  WATERMARK_POSITIONS,
  type WatermarkJob,
  type WatermarkJobProduct,
  type WatermarkPosition,
  type WatermarkSettingsInput,
  type WatermarkTemplate,
} from '@contract/watermark';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { pictureUrl } from '@/components/pictureUrl';
import {
  selectWatermarkDetail,
  selectWatermarkError,
  selectWatermarkProgress,
  selectWatermarkRequest,
  selectWatermarkStep,
  type WatermarkRequest,
} from '@machines/watermarkJobMachine';
import { ProductName, ShopProductTable } from './ShopProductTable';
import { failureText } from './useDesigner';
import { watermarkJobOn } from './watermarkAction';

type Settings = Required<WatermarkSettingsInput>;
const NEW_TEMPLATE: Settings = { name: '', kind: 'text', text: '', color: '#ffffff', position: 'bottom-right', opacity: 0.6, scale: 0.3, margin: 0.03, tile: false };

/**
 * Watermarking a shop's pictures (/waterMarker/*): the seller's templates, a preview on one of the shop's products,
 * and the job that runs on the server, followed by the watermark job machine to each product's outcome on Ozon.
 */
export function WatermarkDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('edit');
  const client = useDataClient();
  const { message } = AntApp.useApp();
  const machine = useMemo(() => watermarkJobOn(client), [client]);
  const actor = useActorRef(machine, { ...appActorOptions(), input: {} });
  const step = useSelector(actor, selectWatermarkStep);

  const [templates, setTemplates] = useState<WatermarkTemplate[] | null>(null);
  const [templatesError, setTemplatesError] = useState<string | null>(null);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [editing, setEditing] = useState<{ id: number | null; settings: Settings; hasPicture: boolean } | null>(null);
  const [shops, setShops] = useState<Store[]>([]);
  const [shopId, setShopId] = useState<number | null>(null);
  const [scope, setScope] = useState<'all' | 'chosen'>('all');
  const [chosen, setChosen] = useState<string[]>([]);
  const [send, setSend] = useState(true);
  const [jobs, setJobs] = useState<WatermarkJob[]>([]);

  const loadTemplates = useCallback(() => {
    setTemplatesError(null);
    client.edit.watermarkTemplates().then(
      (list) => {
        setTemplates(list);
        setTemplateId((current) => (current !== null && list.some((x) => x.id === current) ? current : (list[0]?.id ?? null)));
      },
      (e: unknown) => setTemplatesError(failureText(e) ?? t('failed')),
    );
  }, [client, t]);
  const loadJobs = useCallback(() => void client.edit.watermarkJobs().then(setJobs, () => undefined), [client]);

  useEffect(() => {
    if (!open) return;
    loadTemplates();
    loadJobs();
    void client.store.list().then((list) => {
      setShops(list);
      setShopId((current) => current ?? list[0]?.id ?? null);
    }, () => setShops([]));
  }, [open, client, loadTemplates, loadJobs]);

  useEffect(() => {
    const subscription = actor.on('action.finished', () => {
      void message.success(t('wm.finishedToast'));
      loadJobs();
    });
    return () => subscription.unsubscribe();
  }, [actor, message, t, loadJobs]);

  const template = templates?.find((x) => x.id === templateId) ?? null;
  const shop = shops.find((s) => s.id === shopId) ?? null;
  const busy = step === 'starting' || step === 'running';
  const canStart = template !== null && shop !== null && (scope === 'all' || chosen.length > 0) && !busy;

  const start = () => {
    if (!template || !shop) return;
    actor.send({
      type: 'action.start',
      request: { kind: 'watermark', templateId: template.id, shopId: shop.id, send, products: scope === 'all' ? 0 : chosen.length, ...(scope === 'chosen' ? { productIds: chosen } : {}) },
    });
  };

  return (
    <Drawer open={open} onClose={onClose} title={t('wm.title')} size={1180} destroyOnHidden={false} data-testid="watermark-drawer">
      <div className="wm-layout">
        <Card size="small" title={t('wm.templates')} className="wm-templates" extra={<Button size="small" icon={<PlusOutlined />} onClick={() => setEditing({ id: null, settings: NEW_TEMPLATE, hasPicture: false })}>{t('wm.newTemplate')}</Button>}>
          {templatesError ? (
            <Alert type="error" message={templatesError} action={<Button onClick={loadTemplates}>{t('wm.retry')}</Button>} />
          ) : templates === null ? (
            <Spin />
          ) : templates.length === 0 ? (
            <Empty description={t('wm.noTemplates')} />
          ) : (
            <Radio.Group value={templateId} onChange={(e) => setTemplateId(e.target.value as number)} className="wm-template-list">
              {templates.map((x) => (
                <TemplateRow
                  key={x.id}
                  template={x}
                  onEdit={() => setEditing({ id: x.id, settings: { ...NEW_TEMPLATE, ...x }, hasPicture: x.hasPicture })}
                  onDelete={() => void client.edit.deleteWatermarkTemplate(x.id).then(loadTemplates, (e: unknown) => void message.error(failureText(e) ?? t('failed')))}
                />
              ))}
            </Radio.Group>
          )}
        </Card>

        <div className="wm-main">
          <Card size="small" title={t('wm.apply')}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <span>{t('wm.shop')}</span>
                <Select
                  style={{ minWidth: 220 }}
                  placeholder={t('wm.chooseShop')}
                  value={shopId ?? undefined}
                  onChange={(id: number) => {
                    setShopId(id);
                    setChosen([]);
                  }}
                  options={shops.map((s) => ({ value: s.id, label: s.name }))}
                  aria-label={t('wm.shop')}
                />
                <Segmented value={scope} onChange={(v) => setScope(v as 'all' | 'chosen')} options={(['all', 'chosen'] as const).map((v) => ({ value: v, label: t(`wm.scopes.${v}`) }))} />
                <Checkbox checked={send} onChange={(e) => setSend(e.target.checked)}>
                  {t('wm.sendToOzon')}
                </Checkbox>
              </Space>
              {shop && <ProductPicker shopId={shop.id} selectable={scope === 'chosen'} chosen={chosen} onChosen={setChosen} templateId={template?.id ?? null} />}
              <Space>
                <Button type="primary" disabled={!canStart} loading={step === 'starting'} onClick={start} data-testid="watermark-start">
                  {scope === 'all' ? t('wm.startAll') : t('wm.startChosen', { count: chosen.length })}
                </Button>
                {!template && <Typography.Text type="secondary">{t('wm.needTemplate')}</Typography.Text>}
              </Space>
            </Space>
          </Card>
          <JobPanel actor={actor} />
          <Card size="small" title={t('wm.history')}>
            {jobs.length === 0 ? (
              <Typography.Text type="secondary">{t('wm.noHistory')}</Typography.Text>
            ) : (
              <List
                size="small"
                dataSource={jobs.slice(0, 8)}
                renderItem={(job) => (
                  <List.Item actions={[<Button key="view" size="small" type="link" disabled={busy} onClick={() => actor.send({ type: 'job.watch', id: job.id })}>{t('wm.view')}</Button>]}>
                    <Space wrap>
                      <Tag color={job.kind === 'restore' ? 'purple' : 'blue'}>{t(`wm.jobKinds.${job.kind}`)}</Tag>
                      <Tag color={job.state === 'done' ? 'green' : job.state === 'running' ? 'processing' : 'red'}>{t(`wm.jobStates.${job.state}`)}</Tag>
                      <span>{t('wm.jobLine', { shop: job.shopName, template: job.templateName, products: job.products })}</span>
                      <Typography.Text type="secondary">{new Date(job.createdAt).toLocaleString()}</Typography.Text>
                    </Space>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </div>
      </div>
      <ConfirmDialog actor={actor} templateName={template?.name ?? ''} shopName={shop?.name ?? ''} />
      {editing && (
        <TemplateEditor
          initial={editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setTemplateId(saved.id);
            loadTemplates();
            void message.success(t('wm.saved'));
          }}
        />
      )}
    </Drawer>
  );
}

type WatermarkActor = ReturnType<typeof useActorRef<ReturnType<typeof watermarkJobOn>>>;

function TemplateRow({ template, onEdit, onDelete }: { template: WatermarkTemplate; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation('edit');
  return (
    <div className="wm-template" data-testid="watermark-template">
      <Radio value={template.id}>
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{template.name}</Typography.Text>
          <Typography.Text type="secondary" className="wm-template-meta">
            {t(`wm.kinds.${template.kind}`)}
            {template.kind === 'text' ? `「${template.text}」` : ''} · {t(`wm.positions.${template.position}`)}
            {template.tile ? ` · ${t('wm.tile')}` : ''} · {Math.round(template.opacity * 100)}%
          </Typography.Text>
        </Space>
      </Radio>
      <Space size={0}>
        <Tooltip title={t('wm.editTemplate')}>
          <Button type="text" size="small" icon={<EditOutlined />} onClick={onEdit} aria-label={t('wm.editTemplate')} />
        </Tooltip>
        <Popconfirm title={t('wm.deleteTemplateConfirm')} onConfirm={onDelete}>
          <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('delete')} />
        </Popconfirm>
      </Space>
    </div>
  );
}

function PositionPicker({ value, onChange }: { value: WatermarkPosition; onChange: (position: WatermarkPosition) => void }) {
  const { t } = useTranslation('edit');
  return (
    <div className="wm-positions" role="radiogroup" aria-label={t('wm.position')}>
      {WATERMARK_POSITIONS.map((position) => (
        <Tooltip key={position} title={t(`wm.positions.${position}`)}>
          <button
            type="button"
            role="radio"
            aria-checked={value === position}
            aria-label={t(`wm.positions.${position}`)}
            className={value === position ? 'wm-position wm-position-on' : 'wm-position'}
            onClick={() => onChange(position)}
          />
        </Tooltip>
      ))}
    </div>
  );
}

function TemplateEditor({ initial, onClose, onSaved }: { initial: { id: number | null; settings: Settings; hasPicture: boolean }; onClose: () => void; onSaved: (template: WatermarkTemplate) => void }) {
  const { t } = useTranslation('edit');
  const client = useDataClient();
  const [settings, setSettings] = useState<Settings>(initial.settings);
  const [picture, setPicture] = useState<File | null>(null);
  const [pictureShown, setPictureShown] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => setSettings((current) => ({ ...current, [key]: value }));

  useEffect(() => {
    if (picture) {
      const url = URL.createObjectURL(picture);
      setPictureShown(url);
      return () => URL.revokeObjectURL(url);
    }
    if (initial.id !== null && initial.hasPicture) {
      let url: string | null = null;
      void client.edit.watermarkPicture(initial.id).then((blob) => setPictureShown((url = URL.createObjectURL(blob))), () => undefined);
      return () => {
        if (url) URL.revokeObjectURL(url);
      };
    }
    setPictureShown(null);
  }, [picture, client, initial.id, initial.hasPicture]);

  const valid = settings.name.trim() !== '' && (settings.kind === 'text' ? settings.text.trim() !== '' : picture !== null || initial.hasPicture);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      onSaved(await client.edit.saveWatermarkTemplate(settings, settings.kind === 'image' ? picture : null, initial.id ?? undefined));
    } catch (e) {
      setError(failureText(e) ?? t('failed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={initial.id === null ? t('wm.newTemplate') : t('wm.editTemplate')} onCancel={onClose} onOk={() => void save()} okText={t('wm.save')} okButtonProps={{ disabled: !valid, loading: saving }} width={560}>
      <div className="wm-form">
        <label>{t('wm.name')}</label>
        <Input value={settings.name} maxLength={40} onChange={(e) => set('name', e.target.value)} aria-label={t('wm.name')} />
        <label>{t('wm.kind')}</label>
        <Segmented value={settings.kind} onChange={(v) => set('kind', v as Settings['kind'])} options={(['text', 'image'] as const).map((v) => ({ value: v, label: t(`wm.kinds.${v}`) }))} />
        {settings.kind === 'text' ? (
          <>
            <label>{t('wm.text')}</label>
            <Input value={settings.text} maxLength={60} placeholder={t('wm.textPlaceholder')} onChange={(e) => set('text', e.target.value)} aria-label={t('wm.text')} />
            <label>{t('wm.color')}</label>
            <ColorPicker value={settings.color} disabledAlpha onChange={(c) => set('color', c.toHexString().slice(0, 7))} showText />
          </>
        ) : (
          <>
            <label>{t('wm.picture')}</label>
            <Space align="start">
              <Upload
                accept="image/png,image/jpeg"
                showUploadList={false}
                beforeUpload={(file) => {
                  setPicture(file);
                  return false;
                }}
              >
                <Button icon={<UploadOutlined />}>{t('wm.choosePicture')}</Button>
              </Upload>
              {pictureShown && <img src={pictureShown} alt={t('wm.picture')} className="wm-picture" />}
            </Space>
            <span />
            <Typography.Text type="secondary">{t('wm.pictureHint')}</Typography.Text>
          </>
        )}
        <label>{t('wm.position')}</label>
        <PositionPicker value={settings.position} onChange={(p) => set('position', p)} />
        <label>{t('wm.opacity')}</label>
        <Slider min={5} max={100} value={Math.round(settings.opacity * 100)} onChange={(v) => set('opacity', v / 100)} tooltip={{ formatter: (v) => `${v}%` }} />
        <label>{t('wm.scale')}</label>
        <Slider min={5} max={100} value={Math.round(settings.scale * 100)} onChange={(v) => set('scale', v / 100)} tooltip={{ formatter: (v) => `${v}%` }} />
        <label>{t('wm.margin')}</label>
        <Slider min={0} max={25} value={Math.round(settings.margin * 100)} onChange={(v) => set('margin', v / 100)} tooltip={{ formatter: (v) => `${v}%` }} />
        <label>{t('wm.tile')}</label>
        <Switch checked={settings.tile} onChange={(v) => set('tile', v)} aria-label={t('wm.tile')} />
      </div>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}

/** A shop's products a page at a time: chosen ones (when the seller picks) and the one previewed. */
function ProductPicker({ shopId, selectable, chosen, onChosen, templateId }: { shopId: number; selectable: boolean; chosen: string[]; onChosen: (ids: string[]) => void; templateId: number | null }) {
  const { t } = useTranslation('edit');
  const client = useDataClient();
  const [preview, setPreview] = useState<{ row: ProductRow; url: string | null; error: string | null } | null>(null);

  useEffect(() => () => void (preview?.url && URL.revokeObjectURL(preview.url)), [preview]);

  const showPreview = (row: ProductRow) => {
    if (templateId === null) return;
    setPreview({ row, url: null, error: null });
    client.edit.watermarkPreview(templateId, row.id).then(
      (blob) => setPreview({ row, url: URL.createObjectURL(blob), error: null }),
      (e: unknown) => setPreview({ row, url: null, error: failureText(e) ?? t('failed') }),
    );
  };

  return (
    <div className="wm-picker">
      <div>
        <ShopProductTable
          shopId={shopId}
          {...(selectable ? { chosen, onChosen } : {})}
          extraColumns={[
            {
              key: 'preview',
              width: 90,
              render: (_, row) => (
                <Button size="small" icon={<EyeOutlined />} disabled={templateId === null} onClick={() => showPreview(row)} data-testid="watermark-preview">
                  {t('wm.preview')}
                </Button>
              ),
            },
          ]}
        />
        {selectable && <Typography.Text type="secondary">{t('wm.chosen', { count: chosen.length })}</Typography.Text>}
      </div>
      <div className="wm-preview">
        {preview ? (
          <>
            <Typography.Text strong ellipsis>{t('wm.previewOf', { name: preview.row.name || preview.row.offerId })}</Typography.Text>
            <div className="wm-preview-pair">
              <figure>
                <Image src={pictureUrl(preview.row.image)} alt={t('wm.original')} />
                <figcaption>{t('wm.original')}</figcaption>
              </figure>
              <figure>
                {preview.error ? <Alert type="error" message={t('wm.previewFailed', { reason: preview.error })} /> : preview.url ? <Image src={preview.url} alt={t('wm.watermarked')} data-testid="watermark-preview-image" /> : <Spin />}
                <figcaption>{t('wm.watermarked')}</figcaption>
              </figure>
            </div>
          </>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={templateId === null ? t('wm.needTemplate') : t('wm.preview')} />
        )}
      </div>
    </div>
  );
}

function ConfirmDialog({ actor, templateName, shopName }: { actor: WatermarkActor; templateName: string; shopName: string }) {
  const { t } = useTranslation('edit');
  const step = useSelector(actor, selectWatermarkStep);
  const request = useSelector(actor, selectWatermarkRequest);
  const text = (r: WatermarkRequest | null) =>
    !r
      ? ''
      : r.kind === 'restore'
        ? t('wm.confirmRestore', { count: r.products })
        : `${r.productIds ? t('wm.confirmChosen', { count: r.products, template: templateName }) : t('wm.confirmAll', { shop: shopName, template: templateName })}${r.send ? ` ${t('wm.confirmSend')}` : ''}`;
  return (
    <Modal
      open={step === 'confirming'}
      title={request?.kind === 'restore' ? t('wm.restoreTitle') : t('wm.confirmTitle')}
      onOk={() => actor.send({ type: 'action.confirm' })}
      onCancel={() => actor.send({ type: 'action.cancel' })}
    >
      {text(request)}
    </Modal>
  );
}

function JobPanel({ actor }: { actor: WatermarkActor }) {
  const { t } = useTranslation('edit');
  const step = useSelector(actor, selectWatermarkStep);
  const detail = useSelector(actor, selectWatermarkDetail);
  const error = useSelector(actor, selectWatermarkError);
  const progress = useSelector(actor, selectWatermarkProgress);
  if (step === 'idle' || step === 'confirming') return null;
  if (step === 'failed') {
    return (
      <Alert
        type="error"
        showIcon
        message={t('wm.startFailed', { reason: error ?? t('failed') })}
        action={
          <Space>
            <Button onClick={() => actor.send({ type: 'action.retry' })}>{t('wm.retry')}</Button>
            <Button onClick={() => actor.send({ type: 'action.close' })}>{t('wm.close')}</Button>
          </Space>
        }
      />
    );
  }
  const job = detail?.job;
  const summary = !job
    ? t('wm.running')
    : step === 'finished'
      ? job.kind === 'restore'
        ? t('wm.restoreSummary', { sent: job.productsSent, sendFailed: job.productsFailed })
        : t('wm.summary', { done: job.picturesDone, failed: job.picturesFailed, sent: job.productsSent, sendFailed: job.productsFailed })
      : job.send
        ? t('wm.progress', { done: job.picturesDone + job.picturesFailed, pictures: job.pictures, sent: job.productsSent + job.productsFailed, products: job.products })
        : t('wm.progressNoSend', { done: job.picturesDone + job.picturesFailed, pictures: job.pictures });
  return (
    <Card
      size="small"
      title={job ? `${t(`wm.jobKinds.${job.kind}`)} · ${job.shopName} · ${job.templateName}` : t('wm.running')}
      extra={
        <Space>
          {step === 'finished' && job && job.kind === 'watermark' && job.productsSent > 0 && (
            <Button size="small" icon={<UndoOutlined />} onClick={() => actor.send({ type: 'action.start', request: { kind: 'restore', jobId: job.id, products: job.productsSent } })}>
              {t('wm.restore')}
            </Button>
          )}
          {step === 'finished' && (
            <Button size="small" onClick={() => actor.send({ type: 'action.close' })}>
              {t('wm.close')}
            </Button>
          )}
        </Space>
      }
      data-testid="watermark-job"
    >
      <Progress percent={progress.percent} status={step === 'finished' ? (job && (job.picturesFailed || job.productsFailed) ? 'exception' : 'success') : 'active'} />
      <Typography.Paragraph data-testid="watermark-summary">{summary}</Typography.Paragraph>
      {error && <Alert type="warning" showIcon message={t('wm.readFailed', { reason: error })} style={{ marginBottom: 8 }} />}
      {detail && detail.products.length > 0 && (
        <Table<WatermarkJobProduct>
          size="small"
          rowKey="productId"
          dataSource={detail.products}
          pagination={{ pageSize: 8, size: 'small', hideOnSinglePage: true }}
          columns={[
            { key: 'product', title: t('wm.columns.product'), render: (_, p) => <ProductName row={p} /> },
            { key: 'pictures', title: t('wm.columns.pictures'), render: (_, p) => <JobPictures product={p} /> },
            { key: 'ozon', title: t('wm.columns.ozon'), width: 220, render: (_, p) => <SendOutcome product={p} /> },
          ]}
        />
      )}
    </Card>
  );
}

function JobPictures({ product }: { product: WatermarkJobProduct }) {
  const { t } = useTranslation('edit');
  return (
    <Space size={4} wrap>
      {product.pictures.map((p) =>
        p.state === 'done' && p.output ? (
          <Image key={p.index} src={pictureUrl(p.output)} width={44} height={44} className="wm-thumb" alt="" />
        ) : p.state === 'failed' ? (
          <Tooltip key={p.index} title={p.message}>
            <Tag color="red">{t('wm.pictureFailed')}</Tag>
          </Tooltip>
        ) : (
          <div key={p.index} className="wm-thumb wm-thumb-pending" />
        ),
      )}
    </Space>
  );
}

function SendOutcome({ product }: { product: WatermarkJobProduct }) {
  const { t } = useTranslation('edit');
  const color = { pending: 'default', sent: 'green', failed: 'red', skipped: 'default' }[product.send];
  return (
    <Space direction="vertical" size={0}>
      <Tag color={color}>{t(`wm.sendStates.${product.send}`)}</Tag>
      {product.send === 'sent' && (
        <Typography.Text type="secondary" className="wm-template-meta">
          {t('wm.ozonImported', { n: product.ozon.filter((p) => p.state === 'imported').length })}
        </Typography.Text>
      )}
      {product.sendMessage && product.send !== 'sent' && (
        <Typography.Text type={product.send === 'failed' ? 'danger' : 'secondary'} className="wm-template-meta">
          {product.sendMessage}
        </Typography.Text>
      )}
    </Space>
  );
}
