import { Alert, App, Button, Checkbox, Descriptions, Drawer, Flex, Image, Input, InputNumber, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OZON_MAX_IMAGES, type CollectionItem, type CollectionUpdate, type CollectionVariant } from '@contract/collection';
import type { CategoryAttribute } from '@contract/create';
import { message as catalogue } from '@contract/errors';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { AttributeForm } from '@/components/attribute-form/AttributeForm';
import { useOzonCatalog } from '@/components/attribute-form/catalog';
import { attributeProblems, attributesUpdate, cardOf, itemAttributesOf, rowKeysOf, withCardChange } from './itemCard';
import { ProxiedImage } from '@/components/picture/ProxiedImage';

const messageOf = (error: unknown) => (isApiFailure(error) ? error.message : String(error));

type Dimensions = NonNullable<CollectionItem['dimensions']>;
const SIDES = ['depth', 'width', 'height', 'weight'] as const;

/** Grams the source gave (Ozon's weight attribute, pre-filled at collection), to start the weight field with. */
const sourceGrams = (item: CollectionItem) => Number(item.ozonAttributes.find((a) => a.id === 4383)?.values[0]?.value) || null;

type ItemEditorProps = { item: CollectionItem; onClose: () => void; onSaved: (item: CollectionItem) => void };

/** The card form's parts the editor shows: it edits the title, pictures, variants and package itself. */
const FORM_PARTS = ['category', 'attributes', 'variants'] as const;

/** A collected product's editor: title, description, pictures, variants, package, and its Ozon category and attributes. */
export function ItemEditor({ item, onClose, onSaved }: ItemEditorProps) {
  const { t, i18n } = useTranslation('collection');
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const catalog = useOzonCatalog();
  const { message } = App.useApp();
  const [title, setTitle] = useState(item.title);
  const [description, setDescription] = useState(item.description);
  const [images, setImages] = useState(item.images);
  const [variants, setVariants] = useState<CollectionVariant[]>(item.variants);
  const [dimensions, setDimensions] = useState<Partial<Dimensions>>(item.dimensions ?? { weight: sourceGrams(item) ?? undefined });
  const [newImage, setNewImage] = useState('');
  const [imageError, setImageError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [ozon, setOzon] = useState(() => itemAttributesOf(item));
  const [typeAttributes, setTypeAttributes] = useState<CategoryAttribute[] | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const rows = useMemo(() => rowKeysOf(item, variants.filter((v) => v.selected).map((v) => v.key)), [item, variants]);
  const card = useMemo(() => cardOf(ozon, rows), [ozon, rows]);
  const rowNames = useMemo(() => (item.variants.length ? rows.map((key) => variants.find((v) => v.key === key)?.name ?? key) : [t('editor.thisItem')]), [item, rows, variants, t]);

  const addImage = async () => {
    const link = newImage.trim();
    if (!link) return;
    try {
      const [normal] = await client.collection.formatUrls([link]);
      if (!normal) return setImageError(t('editor.imageInvalid'));
      setImages((current) => [...new Set([...current, normal])].slice(0, OZON_MAX_IMAGES));
      setNewImage('');
      setImageError(null);
    } catch (failure) {
      setImageError(messageOf(failure));
    }
  };

  const complete = SIDES.every((side) => (dimensions[side] ?? 0) > 0);
  const save = async () => {
    setSaving(true);
    const { variantAttributes, ...mapping } = attributesUpdate(ozon, item, typeAttributes);
    const body: CollectionUpdate = {
      id: item.id,
      title: title.trim(),
      description,
      ...(images.length ? { images } : {}),
      variants: variants.map((v) => ({ key: v.key, selected: v.selected, ozonAttributes: variantAttributes[v.key] ?? [] })),
      ...(complete ? { dimensions: dimensions as Dimensions } : {}),
      ...mapping,
    };
    try {
      const saved = await client.collection.update(body);
      setSaveError(null);
      // Saved as a draft either way; what the upload would still refuse is said, and shown against its fields.
      const problems = typeAttributes ? attributeProblems(ozon, rows, typeAttributes) : [];
      setMissing(problems.length ? problems.map((p) => catalogue(p.key, lang, p.params)).join('；') : null);
      void message.success(t('editor.saved'));
      onSaved(saved);
    } catch (failure) {
      setSaveError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open
      width={880}
      title={t('editor.title')}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>{t('editor.cancel')}</Button>
          <Button type="primary" loading={saving} disabled={!title.trim()} onClick={() => void save()}>
            {t('editor.save')}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {saveError && <Alert type="error" showIcon message={t('editor.saveFailed', { reason: saveError })} />}
        <section>
          <Typography.Title level={5}>{t('editor.basics')}</Typography.Title>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Input aria-label={t('editor.itemTitle')} addonBefore={t('editor.itemTitle')} value={title} maxLength={500} showCount onChange={(e) => setTitle(e.target.value)} />
            <Input.TextArea aria-label={t('editor.description')} placeholder={t('editor.description')} value={description} autoSize={{ minRows: 3, maxRows: 8 }} onChange={(e) => setDescription(e.target.value)} />
          </Space>
        </section>
        <section>
          <Typography.Title level={5}>{t('editor.images')}</Typography.Title>
          <Flex wrap gap={8}>
            <Image.PreviewGroup>
              {images.map((src, i) => (
                <Space key={src} direction="vertical" size={2} align="center" style={{ border: i === 0 ? '2px solid #1677ff' : '1px solid #eee', padding: 4, borderRadius: 4 }}>
                  <ProxiedImage src={src} width={88} height={88} />
                  <Space size={4}>
                    {i > 0 && (
                      <Typography.Link style={{ fontSize: 12 }} onClick={() => setImages([src, ...images.filter((x) => x !== src)])}>
                        {t('editor.moveFirst')}
                      </Typography.Link>
                    )}
                    <Typography.Link type="danger" style={{ fontSize: 12 }} onClick={() => setImages(images.filter((x) => x !== src))}>
                      {t('editor.removeImage')}
                    </Typography.Link>
                  </Space>
                </Space>
              ))}
            </Image.PreviewGroup>
          </Flex>
          <Space.Compact style={{ width: '100%', marginTop: 8 }}>
            <Input aria-label={t('editor.addImage')} placeholder={t('editor.imageLinkPlaceholder')} value={newImage} status={imageError ? 'error' : undefined} onChange={(e) => setNewImage(e.target.value)} onPressEnter={() => void addImage()} />
            <Button onClick={() => void addImage()} disabled={!newImage.trim() || images.length >= OZON_MAX_IMAGES}>
              {t('editor.addImage')}
            </Button>
          </Space.Compact>
          {imageError && <Typography.Text type="danger">{imageError}</Typography.Text>}
        </section>
        {variants.length > 0 && (
          <section>
            <Typography.Title level={5}>{t('editor.variants')}</Typography.Title>
            <Table<CollectionVariant>
              size="small"
              rowKey="key"
              pagination={false}
              dataSource={variants}
              columns={[
                {
                  key: 'selected',
                  width: 40,
                  render: (_, v) => (
                    <Checkbox aria-label={v.name} checked={v.selected} onChange={(e) => setVariants(variants.map((x) => (x.key === v.key ? { ...x, selected: e.target.checked } : x)))} />
                  ),
                },
                { key: 'image', width: 56, render: (_, v) => (v.image ? <ProxiedImage src={v.image} width={40} height={40} /> : null) },
                { key: 'name', title: t('editor.variantName'), dataIndex: 'name' },
                { key: 'price', title: t('editor.variantPrice'), render: (_, v) => `${v.price} ${item.currency}` },
                { key: 'stock', title: t('editor.variantStock'), render: (_, v) => v.stock ?? '—' },
              ]}
            />
          </section>
        )}
        <section>
          <Typography.Title level={5}>{t('editor.dimensions')}</Typography.Title>
          <Space wrap>
            {SIDES.map((side) => (
              <InputNumber
                key={side}
                aria-label={t(`editor.${side}`)}
                addonBefore={t(`editor.${side}`)}
                min={1}
                max={side === 'weight' ? 1_000_000 : 10_000}
                precision={0}
                value={dimensions[side] ?? null}
                onChange={(value) => setDimensions({ ...dimensions, [side]: value ?? undefined })}
                style={{ width: 170 }}
              />
            ))}
          </Space>
        </section>
        <section>
          <Typography.Title level={5}>{t('editor.ozon')}</Typography.Title>
          <Typography.Paragraph type="secondary">{t('editor.ozonHint')}</Typography.Paragraph>
          {missing && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('editor.stillMissing', { problems: missing })} />}
          <AttributeForm
            value={card}
            onChange={(next) => setOzon((current) => withCardChange(current, next, rows, item))}
            catalog={catalog}
            parts={FORM_PARTS}
            variantNames={rowNames}
            showAllProblems={missing !== null}
            onAttributes={setTypeAttributes}
          />
        </section>
        {item.attributes.length > 0 && (
          <section>
            <Typography.Title level={5}>{t('editor.sourceAttributes')}</Typography.Title>
            <Descriptions size="small" bordered column={2} items={item.attributes.map((a, i) => ({ key: `${a.name}-${i}`, label: a.name, children: a.value }))} />
          </section>
        )}
      </Space>
    </Drawer>
  );
}
