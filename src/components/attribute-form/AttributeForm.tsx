/**
 * The Ozon card form, generated from Ozon's category tree and the chosen type's attributes. Used by the create
 * pages and the collection pages (fill a collected item's attributes before uploading).
 *
 * Props (a small, stable API):
 * - `value: CardDraft` / `onChange(card)`: the card, controlled (contract/create.ts; `emptyCard()` in
 *   contract/ozonCard.ts starts one). Category, name, attributes, variants, pictures (first = main), size, VAT.
 * - `catalog: OzonCatalog`: where the tree, attributes and dictionary values come from; in the app
 *   `useOzonCatalog(shopId)` from ./catalog.
 * - `showAllProblems?`: show Ozon's rule problems on every field, not only the ones the seller has touched (set it
 *   when the seller presses send and `checkCard` found problems).
 * - `fieldErrors?: FieldMessage[]`: messages from outside against their field (Ozon's import errors after sending;
 *   `importErrorsByField` in ./fieldErrors turns a create task's items into them).
 * - `onAttributes?(attributes | null)`: the chosen type's attributes once loaded (null while none), for the
 *   caller's own `checkCard(card, attributes)` before sending.
 * - `onUpload?(file) => Promise<url>`: stores a picked picture and answers its public link; absent: links only.
 * - `disabled?`: read only (while sending).
 * - `parts?`: the sections shown (default all): a caller that edits the rest itself shows only some, as the
 *   collection editor shows the category, the attributes and the variants' own attributes.
 * - `variantNames?`: the variants are given (a collected product's): one row per name, with only the type's
 *   per-variant attributes to fill; no offer ids, prices or barcodes, nothing added or removed.
 *
 * Field names are contract/ozonCard.ts's: `category`, `name`, `images`, `depth`…, `attr.<id>`,
 * `variants.<i>.offerId|price|oldPrice|attr.<id>`.
 */
import { Alert, Button, Card, Cascader, Col, Flex, Form, Input, InputNumber, Row, Select, Skeleton, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CARD_CURRENCIES, CARD_LIMITS, VAT_RATES, type AttributeValue, type CardDraft, type CategoryAttribute, type CategoryNode } from '@contract/create';
import { message as catalogue } from '@contract/errors';
import { attributeField, checkCard, MODEL_NAME_ATTRIBUTE, splitAttributes } from '@contract/ozonCard';
import { toLang } from '@/app/i18n';
import { AttributeInput } from './AttributeInput';
import type { OzonCatalog } from './catalog';
import type { FieldMessage } from './fieldErrors';
import { ImageList } from './ImageList';
import { RequiredMark } from './RequiredMark';
import { VariantTable } from './VariantTable';

export const CARD_PARTS = ['category', 'basics', 'attributes', 'variants', 'images', 'package'] as const;
export type CardPart = (typeof CARD_PARTS)[number];

export type AttributeFormProps = {
  value: CardDraft;
  onChange: (card: CardDraft) => void;
  catalog: OzonCatalog;
  showAllProblems?: boolean;
  fieldErrors?: FieldMessage[];
  onAttributes?: (attributes: CategoryAttribute[] | null) => void;
  onUpload?: (file: File) => Promise<string>;
  disabled?: boolean;
  parts?: readonly CardPart[];
  variantNames?: readonly string[];
};

type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; reason: string };
type CascaderOption = { value: string; label: string; disabled?: boolean; children?: CascaderOption[] };

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : typeof error === 'object' && error && 'message' in error ? String(error.message) : String(error));

function optionsOf(nodes: CategoryNode[]): CascaderOption[] {
  return nodes.map((node) => ({
    value: `c${node.categoryId}`,
    label: node.name,
    disabled: node.disabled,
    children: [...optionsOf(node.children), ...node.types.map((type) => ({ value: `t${type.typeId}`, label: type.name, disabled: type.disabled }))],
  }));
}

/** The cascader path to a type: its categories from the top, then the type. */
function pathTo(nodes: CategoryNode[], categoryId: number, typeId: number): string[] | null {
  for (const node of nodes) {
    if (node.categoryId === categoryId && node.types.some((type) => type.typeId === typeId)) return [`c${node.categoryId}`, `t${typeId}`];
    const below = pathTo(node.children, categoryId, typeId);
    if (below) return [`c${node.categoryId}`, ...below];
  }
  return null;
}

export function AttributeForm({
  value: card,
  onChange,
  catalog,
  showAllProblems = false,
  fieldErrors = [],
  onAttributes,
  onUpload,
  disabled,
  parts = CARD_PARTS,
  variantNames,
}: AttributeFormProps) {
  const shows = (part: CardPart) => parts.includes(part);
  const { t, i18n } = useTranslation('attributeForm');
  const lang = toLang(i18n.language);
  const [tree, setTree] = useState<Loaded<CategoryNode[]>>({ state: 'loading' });
  const [attributes, setAttributes] = useState<Loaded<CategoryAttribute[]> | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [treeAttempt, setTreeAttempt] = useState(0);
  const [attributesAttempt, setAttributesAttempt] = useState(0);
  const { categoryId, typeId } = card;

  useEffect(() => {
    let live = true;
    setTree({ state: 'loading' });
    catalog.tree().then(
      (data) => live && setTree({ state: 'ready', data }),
      (error: unknown) => live && setTree({ state: 'failed', reason: reasonOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [catalog, treeAttempt]);

  useEffect(() => {
    if (categoryId === null || typeId === null) {
      setAttributes(null);
      onAttributes?.(null);
      return;
    }
    let live = true;
    setAttributes({ state: 'loading' });
    onAttributes?.(null);
    catalog.attributes(categoryId, typeId).then(
      (data) => {
        if (!live) return;
        setAttributes({ state: 'ready', data });
        onAttributes?.(data);
      },
      (error: unknown) => live && setAttributes({ state: 'failed', reason: reasonOf(error) }),
    );
    return () => {
      live = false;
    };
    // onAttributes is the caller's callback: a new function each render must not reload the attributes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [catalog, categoryId, typeId, attributesAttempt]);

  const list = attributes?.state === 'ready' ? attributes.data : null;
  const problems = useMemo(() => checkCard(card, list), [card, list]);
  const problem = useCallback(
    (field: string): string | undefined => {
      const outside = fieldErrors.filter((e) => e.field === field).map((e) => t('ozonSays', { message: e.message }));
      const rule = showAllProblems || touched.has(field) ? problems.find((p) => p.field === field) : undefined;
      const texts = [...(rule ? [catalogue(rule.key, lang, rule.params)] : []), ...outside];
      return texts.length ? texts.join('；') : undefined;
    },
    [fieldErrors, problems, showAllProblems, touched, lang, t],
  );
  const change = (next: CardDraft, field: string) => {
    setTouched((prev) => (prev.has(field) ? prev : new Set([...prev, field])));
    onChange(next);
  };

  const options = useMemo(() => (tree.state === 'ready' ? optionsOf(tree.data) : []), [tree]);
  const path = tree.state === 'ready' && categoryId !== null && typeId !== null ? pathTo(tree.data, categoryId, typeId) : null;
  const chooseType = (selected: (string | number)[] | undefined) => {
    const values = (selected ?? []).map(String);
    const type = values[values.length - 1];
    const category = values[values.length - 2];
    if (!type?.startsWith('t') || !category?.startsWith('c')) {
      change({ ...card, categoryId: null, typeId: null }, 'category');
      return;
    }
    const next = { categoryId: Number(category.slice(1)), typeId: Number(type.slice(1)) };
    if (next.categoryId === categoryId && next.typeId === typeId) return;
    // Another type has other attributes: the values of this one do not carry over.
    change({ ...card, ...next, attributes: [], variants: card.variants.map((v) => ({ ...v, attributes: [] })) }, 'category');
  };

  const { shared, perVariant } = useMemo(() => splitAttributes(list ?? []), [list]);
  const groups = useMemo(() => {
    const byGroup = new Map<string, CategoryAttribute[]>();
    // Required first, the model name among them, so the seller sees what Ozon insists on at the top.
    const ordered = [...shared].sort((a, b) => Number(b.isRequired) - Number(a.isRequired) || Number(b.id === MODEL_NAME_ATTRIBUTE) - Number(a.id === MODEL_NAME_ATTRIBUTE));
    for (const a of ordered) byGroup.set(a.groupName, [...(byGroup.get(a.groupName) ?? []), a]);
    return [...byGroup];
  }, [shared]);
  const setAttribute = (id: number, values: AttributeValue[]) =>
    change({ ...card, attributes: [...card.attributes.filter((a) => a.id !== id), { id, values }] }, attributeField(id));
  const item = (field: string) => {
    const message = problem(field);
    return { validateStatus: message ? ('error' as const) : undefined, help: message };
  };
  const measure = (side: 'depth' | 'width' | 'height' | 'weight') => (
    <Col xs={12} md={6} key={side}>
      <Form.Item label={<RequiredMark required>{t(side)}</RequiredMark>} {...item(side)}>
        <InputNumber
          aria-label={t(side)}
          min={0}
          max={side === 'weight' ? CARD_LIMITS.weightG : CARD_LIMITS.sideMm}
          value={card[side]}
          disabled={disabled}
          onChange={(next) => change({ ...card, [side]: typeof next === 'number' ? next : null }, side)}
          style={{ width: '100%' }}
        />
      </Form.Item>
    </Col>
  );

  return (
    <Form layout="vertical" component="div" requiredMark={false} disabled={disabled}>
      <Flex vertical gap={16}>
        {shows('category') && (
        <Card size="small" title={t('section.category')}>
          {tree.state === 'failed' ? (
            <Alert
              type="error"
              showIcon
              message={t('categoryFailed', { reason: tree.reason })}
              action={<Button size="small" onClick={() => setTreeAttempt((n) => n + 1)}>{t('retry')}</Button>}
            />
          ) : (
            <Form.Item label={<RequiredMark required>{t('category')}</RequiredMark>} {...item('category')} style={{ marginBottom: 0 }}>
              <Cascader
                aria-label={t('category')}
                options={options}
                value={path ?? undefined}
                onChange={chooseType}
                loading={tree.state === 'loading'}
                placeholder={tree.state === 'loading' ? t('categoryLoading') : t('categoryPlaceholder')}
                showSearch={{ filter: (input, options) => options.some((o) => String(o.label).toLowerCase().includes(input.toLowerCase())) }}
                expandTrigger="hover"
                style={{ width: '100%', maxWidth: 560 }}
              />
            </Form.Item>
          )}
        </Card>
        )}

        {shows('basics') && (
        <Card size="small" title={t('section.basics')}>
          <Row gutter={16}>
            <Col xs={24} lg={14}>
              <Form.Item label={<RequiredMark required>{t('name')}</RequiredMark>} {...item('name')}>
                <Input
                  aria-label={t('name')}
                  value={card.name}
                  count={{ show: true, max: CARD_LIMITS.name }}
                  placeholder={t('namePlaceholder')}
                  onChange={(e) => change({ ...card, name: e.target.value }, 'name')}
                />
              </Form.Item>
            </Col>
            <Col xs={12} lg={5}>
              <Form.Item label={<RequiredMark required>{t('vat')}</RequiredMark>}>
                <Select aria-label={t('vat')} value={card.vat} options={VAT_RATES.map((rate) => ({ value: rate, label: t(`vatRates.${rate}`) }))} onChange={(vat) => change({ ...card, vat }, 'vat')} />
              </Form.Item>
            </Col>
            <Col xs={12} lg={5}>
              <Form.Item label={<RequiredMark required>{t('currency')}</RequiredMark>}>
                <Select aria-label={t('currency')} value={card.currency} options={CARD_CURRENCIES.map((c) => ({ value: c, label: c }))} onChange={(currency) => change({ ...card, currency }, 'currency')} />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        )}

        {shows('attributes') && (
        <Card size="small" title={t('section.attributes')}>
          {attributes === null ? (
            <Typography.Text type="secondary">{t('chooseCategoryFirst')}</Typography.Text>
          ) : attributes.state === 'loading' ? (
            <Flex vertical gap={8}>
              <Typography.Text type="secondary">{t('attributesLoading')}</Typography.Text>
              <Skeleton active paragraph={{ rows: 3 }} title={false} />
            </Flex>
          ) : attributes.state === 'failed' ? (
            <Alert
              type="error"
              showIcon
              message={t('attributesFailed', { reason: attributes.reason })}
              action={<Button size="small" onClick={() => setAttributesAttempt((n) => n + 1)}>{t('retry')}</Button>}
            />
          ) : (
            groups.map(([group, attrs]) => (
              <div key={group} role="group" aria-label={group}>
                {groups.length > 1 ? <Typography.Title level={5} style={{ marginTop: 0 }}>{group}</Typography.Title> : null}
                <Row gutter={16}>
                  {attrs.map((a) => {
                    const wide = a.type === 'multiline' || a.isCollection;
                    return (
                      <Col xs={24} md={wide ? 24 : 12} key={a.id}>
                        <Form.Item
                          label={
                            <Flex gap={6} align="center">
                              <RequiredMark required={a.isRequired}>{a.name}</RequiredMark>
                              {a.isCollection ? (
                                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                                  ({a.maxValueCount > 0 ? t('multiple', { max: a.maxValueCount }) : t('multipleUnlimited')})
                                </Typography.Text>
                              ) : null}
                              {a.description && a.description !== a.name ? (
                                <Tooltip title={a.description}>
                                  <QuestionCircleOutlined style={{ color: '#999' }} />
                                </Tooltip>
                              ) : null}
                            </Flex>
                          }
                          {...item(attributeField(a.id))}
                        >
                          <AttributeInput
                            attribute={a}
                            catalog={catalog}
                            categoryId={categoryId!}
                            typeId={typeId!}
                            value={card.attributes.find((x) => x.id === a.id)?.values ?? []}
                            onChange={(values) => setAttribute(a.id, values)}
                            invalid={Boolean(problem(attributeField(a.id)))}
                            disabled={disabled}
                          />
                        </Form.Item>
                      </Col>
                    );
                  })}
                </Row>
              </div>
            ))
          )}
        </Card>
        )}

        {shows('variants') && (
        <Card size="small" title={t('section.variants')} extra={perVariant.length ? <Typography.Text type="secondary">{t('perVariant')}: {perVariant.map((a) => a.name).join('、')}</Typography.Text> : null}>
          <VariantTable
            variants={card.variants}
            onChange={(variants, field) => change({ ...card, variants }, field)}
            aspects={perVariant}
            catalog={catalog}
            categoryId={categoryId}
            typeId={typeId}
            problem={problem}
            disabled={disabled}
            names={variantNames}
          />
        </Card>
        )}

        {shows('images') && (
        <Card size="small" title={<RequiredMark required>{t('section.images')}</RequiredMark>}>
          <Form.Item {...item('images')} style={{ marginBottom: 0 }}>
            <ImageList images={card.images} onChange={(images) => change({ ...card, images }, 'images')} onUpload={onUpload} disabled={disabled} />
          </Form.Item>
        </Card>
        )}

        {shows('package') && (
        <Card size="small" title={t('section.package')} extra={<Typography.Text type="secondary">{t('packageHint')}</Typography.Text>}>
          <Row gutter={16}>{(['depth', 'width', 'height', 'weight'] as const).map(measure)}</Row>
        </Card>
        )}
      </Flex>
    </Form>
  );
}
