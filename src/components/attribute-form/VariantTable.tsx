import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AttributeValue, CardVariant, CategoryAttribute } from '@contract/create';
import { CARD_LIMITS } from '@contract/create';
import { attributeField, variantField } from '@contract/ozonCard';
import { AttributeInput } from './AttributeInput';
import type { OzonCatalog } from './catalog';
import { RequiredMark } from './RequiredMark';

type VariantTableProps = {
  variants: CardVariant[];
  onChange: (variants: CardVariant[], touched: string) => void;
  /** The type's per-variant (aspect) attributes. */
  aspects: CategoryAttribute[];
  catalog: OzonCatalog;
  categoryId: number | null;
  typeId: number | null;
  problem: (field: string) => string | undefined;
  disabled?: boolean;
  /** Given variants (a collected product's), by name: only their per-variant attributes are filled here. */
  names?: readonly string[];
};

function Cell({ message, children }: { message: string | undefined; children: React.ReactNode }) {
  return (
    <Flex vertical gap={2}>
      {children}
      {message ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {message}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

/** The model's variants: each its own offer id, prices, barcode and aspect values (colour, size). */
export function VariantTable({ variants, onChange, aspects, catalog, categoryId, typeId, problem, disabled, names }: VariantTableProps) {
  const { t } = useTranslation('attributeForm');
  const set = (i: number, patch: Partial<CardVariant>, field: string) => onChange(variants.map((v, j) => (j === i ? { ...v, ...patch } : v)), field);
  const setAttribute = (i: number, id: number, values: AttributeValue[]) =>
    set(i, { attributes: [...variants[i]!.attributes.filter((a) => a.id !== id), { id, values }] }, attributeField(id, i));
  const text = (i: number, name: 'offerId' | 'price' | 'oldPrice' | 'barcode', label: string, width: number) => {
    const field = name === 'barcode' ? `variants.${i}.barcode` : variantField(i, name);
    const message = problem(field);
    return (
      <Cell message={message}>
        <Input
          aria-label={`${label} ${i + 1}`}
          status={message ? 'error' : undefined}
          disabled={disabled}
          value={variants[i]![name]}
          maxLength={name === 'offerId' ? CARD_LIMITS.offerId + 10 : undefined}
          inputMode={name === 'price' || name === 'oldPrice' ? 'decimal' : undefined}
          onChange={(e) => set(i, { [name]: e.target.value }, field)}
          style={{ width }}
        />
      </Cell>
    );
  };
  const add = () => {
    const last = variants[variants.length - 1];
    onChange([...variants, { offerId: '', price: last?.price ?? '', oldPrice: last?.oldPrice ?? '', barcode: '', attributes: [] }], `variants.${variants.length}`);
  };
  const aspectColumns = aspects.map((a) => ({
    key: `attr.${a.id}`,
    title: <RequiredMark required={a.isRequired}>{a.name}</RequiredMark>,
    render: (_: unknown, variant: CardVariant, i: number) => {
      const message = problem(attributeField(a.id, i));
      return (
        <Cell message={message}>
          <div style={{ minWidth: 180 }}>
            {categoryId !== null && typeId !== null ? (
              <AttributeInput
                attribute={{ ...a, name: `${a.name} ${i + 1}` }}
                catalog={catalog}
                categoryId={categoryId}
                typeId={typeId}
                value={variant.attributes.find((x) => x.id === a.id)?.values ?? []}
                onChange={(values) => setAttribute(i, a.id, values)}
                invalid={Boolean(message)}
                disabled={disabled}
              />
            ) : null}
          </div>
        </Cell>
      );
    },
  }));
  const rows = variants.map((v, key) => ({ ...v, key }));
  if (names) {
    if (aspects.length === 0) return <Typography.Text type="secondary">{categoryId === null ? t('chooseCategoryFirst') : t('noPerVariant')}</Typography.Text>;
    const nameColumn = { key: 'name', title: t('variantName'), render: (_: unknown, __: CardVariant, i: number) => names[i] ?? '' };
    return <Table<CardVariant & { key: number }> size="small" columns={[nameColumn, ...aspectColumns]} dataSource={rows} pagination={false} scroll={{ x: 'max-content' }} />;
  }
  const columns = [
    { key: 'offerId', title: <RequiredMark required>{t('offerId')}</RequiredMark>, render: (_: unknown, __: CardVariant, i: number) => text(i, 'offerId', t('offerId'), 160) },
    { key: 'price', title: <RequiredMark required>{t('price')}</RequiredMark>, render: (_: unknown, __: CardVariant, i: number) => text(i, 'price', t('price'), 110) },
    { key: 'oldPrice', title: t('oldPrice'), render: (_: unknown, __: CardVariant, i: number) => text(i, 'oldPrice', t('oldPrice'), 110) },
    ...aspectColumns,
    { key: 'barcode', title: t('barcode'), render: (_: unknown, __: CardVariant, i: number) => text(i, 'barcode', t('barcode'), 140) },
    {
      key: 'actions',
      title: t('actions'),
      render: (_: unknown, __: CardVariant, i: number) => (
        <Button
          type="link"
          danger
          icon={<DeleteOutlined />}
          disabled={disabled || variants.length === 1}
          onClick={() => onChange(variants.filter((_, j) => j !== i), `variants.${i}`)}
          aria-label={`${t('removeVariant')} ${i + 1}`}
        >
          {t('removeVariant')}
        </Button>
      ),
    },
  ];
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">{t('variantsHint')}</Typography.Text>
      <Table<CardVariant & { key: number }> size="small" columns={columns} dataSource={rows} pagination={false} scroll={{ x: 'max-content' }} />
      <div>
        <Button icon={<PlusOutlined />} onClick={add} disabled={disabled || variants.length >= CARD_LIMITS.variants}>
          {t('addVariant')}
        </Button>
      </div>
    </Flex>
  );
}
