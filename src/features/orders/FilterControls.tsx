import { DatePicker, InputNumber, Select, Space } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { AMOUNT_WIDTH, CHOICE_WIDTH, RANGE_WIDTH } from './filterSizes';
import type { Filters, Range } from './query';

/**
 * The filter bar's heavy controls (antd's Select, RangePicker and InputNumber), in a chunk of their own: the order
 * page draws them in its second stage, so their code is neither evaluated nor mounted in the page's first task.
 */


type ChoiceFilterProps<V> = {
  field: 'shopIds' | 'warehouseIds';
  label: string;
  value: V[];
  options: { value: V; label: string }[];
  onPatch: (change: Partial<Filters>, options?: { deferred?: boolean }) => void;
};

export const ChoiceFilter = memo(function ChoiceFilter<V extends string | number>({ field, label, value, options, onPatch }: ChoiceFilterProps<V>) {
  return (
    <Select<V[]> mode="multiple" allowClear aria-label={label} placeholder={label} style={{ width: CHOICE_WIDTH }} maxTagCount={1} maxTagTextLength={8}
      value={value} onChange={(next) => onPatch({ [field]: next }, { deferred: true })} options={options} />
  );
}) as <V extends string | number>(props: ChoiceFilterProps<V>) => React.ReactNode;


export function DateRange({ value, onChange }: { value: Range; onChange: (next: Range) => void }) {
  return <DatePicker.RangePicker style={{ width: RANGE_WIDTH }} value={value} onChange={(next) => onChange(next as Range)} />;
}

type AmountRangeProps = { from: number | null; to: number | null; onPatch: (change: Partial<Filters>) => void };

export function AmountRange({ from, to, onPatch }: AmountRangeProps) {
  const { t } = useTranslation('orders');
  return (
    <Space.Compact>
      <InputNumber aria-label={t('amountFrom')} placeholder={t('amountFromHint')} min={0} style={{ width: AMOUNT_WIDTH }} value={from} onChange={(amountFrom) => onPatch({ amountFrom })} />
      <InputNumber aria-label={t('amountTo')} placeholder={t('amountToHint')} min={0} style={{ width: AMOUNT_WIDTH }} value={to} onChange={(amountTo) => onPatch({ amountTo })} />
    </Space.Compact>
  );
}
