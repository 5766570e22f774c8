import { Button, InputNumber, Popover, Space, Typography } from 'antd';
import { useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '@contract/errors';
import type { ProductRow } from '@contract/products';
import { priceProblem } from './priceRules';

export type PriceValues = { price: number; oldPrice: number; minPrice: number };

type PriceCellEditorProps = { row: ProductRow; lang: Lang; onSave: (row: ProductRow, values: PriceValues) => void; onClose: () => void };

// Clicks and keys inside the editor (its popover too: React events cross the portal) stay out of the row's handlers.
const keep = (event: SyntheticEvent) => event.stopPropagation();

/**
 * The price edited in its cell: the price in the cell itself, the old and the minimum price beside it in a popover,
 * Ozon's rules checked as the seller types with the broken rule named. Enter saves, Escape leaves it as it was.
 */
export function PriceCellEditor({ row, lang, onSave, onClose }: PriceCellEditorProps) {
  const { t } = useTranslation('products');
  const [price, setPrice] = useState<number | null>(row.price);
  const [oldPrice, setOldPrice] = useState<number | null>(row.oldPrice);
  const [minPrice, setMinPrice] = useState<number | null>(row.minPrice);
  const problem = priceProblem(price, oldPrice, minPrice, lang);
  const ready = price !== null && problem === null;
  const save = () => ready && onSave(row, { price, oldPrice: oldPrice ?? 0, minPrice: minPrice ?? 0 });
  const onKey = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') onClose();
    if (event.key === 'Enter') save();
  };
  const fields = (
    <div className="price-editor" onClick={keep} onKeyDown={onKey} onDoubleClick={keep}>
      <label className="price-editor__field">
        <span>{`${t('oldPrice')} (${row.currency})`}</span>
        <InputNumber aria-label={t('oldPrice')} min={0} precision={2} value={oldPrice} onChange={setOldPrice} placeholder={t('noValue')} />
      </label>
      <label className="price-editor__field">
        <span>{`${t('minPrice')} (${row.currency})`}</span>
        <InputNumber aria-label={t('minPrice')} min={0} precision={2} value={minPrice} onChange={setMinPrice} placeholder={t('noValue')} />
      </label>
      <Typography.Text type={problem ? 'danger' : 'secondary'} role={problem ? 'alert' : undefined} data-testid="price-problem" className="price-editor__rule">
        {problem ?? t('priceRules')}
      </Typography.Text>
      <Space className="price-editor__actions">
        <Button size="small" onClick={onClose}>{t('cancel')}</Button>
        <Button size="small" type="primary" disabled={!ready} onClick={save}>{t('save')}</Button>
      </Space>
    </div>
  );
  return (
    <span className="price-cell-editor" onClick={keep} onDoubleClick={keep} onKeyDown={onKey}>
      <Popover open content={fields} placement="bottomRight" title={`${t('editPrice')} · ${row.offerId}`} trigger={[]} destroyOnHidden>
        <InputNumber
          aria-label={`${t('price')} (${row.currency})`}
          size="small"
          min={0}
          precision={2}
          value={price}
          onChange={setPrice}
          status={problem ? 'error' : undefined}
          autoFocus
          className="price-cell-editor__input"
        />
      </Popover>
    </span>
  );
}
