import { Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AttributeValue, CategoryAttribute } from '@contract/create';
import type { OzonCatalog } from './catalog';
import { DictionarySelect } from './DictionarySelect';

type AttributeInputProps = {
  attribute: CategoryAttribute;
  catalog: OzonCatalog;
  categoryId: number;
  typeId: number;
  value: AttributeValue[];
  onChange: (values: AttributeValue[]) => void;
  invalid: boolean;
  disabled?: boolean;
};

/** The control an attribute's Ozon type asks for: a dictionary, yes/no, several texts, a long text, or one text. */
export function AttributeInput({ attribute, catalog, categoryId, typeId, value, onChange, invalid, disabled }: AttributeInputProps) {
  const { t } = useTranslation('attributeForm');
  const status = invalid ? ('error' as const) : undefined;
  const label = attribute.name;
  if (attribute.dictionaryId > 0) {
    return (
      <DictionarySelect
        catalog={catalog}
        query={{ categoryId, typeId, attributeId: attribute.id }}
        value={value}
        onChange={onChange}
        multiple={attribute.isCollection}
        label={label}
        invalid={invalid}
        disabled={disabled}
      />
    );
  }
  const text = value[0]?.value ?? '';
  const one = (next: string) => onChange(next === '' ? [] : [{ value: next }]);
  if (attribute.type === 'Boolean') {
    return (
      <Select
        aria-label={label}
        allowClear
        status={status}
        disabled={disabled}
        value={text || undefined}
        onChange={(next?: string) => one(next ?? '')}
        options={[
          { value: 'true', label: t('yes') },
          { value: 'false', label: t('no') },
        ]}
        style={{ width: 160 }}
      />
    );
  }
  if (attribute.isCollection) {
    return (
      <Select
        aria-label={label}
        mode="tags"
        status={status}
        disabled={disabled}
        placeholder={t('tagsPlaceholder')}
        value={value.map((v) => v.value)}
        onChange={(next: string[]) => onChange(next.map((v) => ({ value: v })))}
        open={false}
        style={{ width: '100%' }}
      />
    );
  }
  if (attribute.type === 'multiline') {
    return <Input.TextArea aria-label={label} status={status} disabled={disabled} autoSize={{ minRows: 3, maxRows: 10 }} value={text} onChange={(e) => one(e.target.value)} placeholder={t('textPlaceholder', { name: label })} />;
  }
  const numeric = attribute.type === 'Integer' || attribute.type === 'Decimal';
  return (
    <Input
      aria-label={label}
      status={status}
      disabled={disabled}
      inputMode={numeric ? 'decimal' : undefined}
      style={numeric ? { width: 200 } : undefined}
      value={text}
      onChange={(e) => one(e.target.value)}
      placeholder={t('textPlaceholder', { name: label })}
    />
  );
}
