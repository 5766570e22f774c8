import { Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useComponentTexts } from '../useComponentTexts';
import './shopWarehousePicker.css';

/** A shop of the selection and how many of the selected items are in it. */
export type PickerShop = { shopId: number; shopName: string; count: number };
export type PickerWarehouse = { shopId: number; warehouseId: string; name: string };
/** The warehouse chosen for each shop of the selection (by shop id). */
export type WarehouseByShop = Record<number, string>;

type ShopWarehousePickerProps = {
  shops: readonly PickerShop[];
  warehouses: readonly PickerWarehouse[];
  value?: WarehouseByShop;
  onChange?: (value: WarehouseByShop) => void;
};

/**
 * The shops of a selection with their counts, as a string: a machine selector's answer that compares by value
 * (parse it in a useMemo over the string).
 */
export function pickerShopsKey(subjects: readonly { shopId: number; shopName: string }[]): string {
  const shops = new Map<number, PickerShop>();
  for (const s of subjects) {
    const line = shops.get(s.shopId) ?? { shopId: s.shopId, shopName: s.shopName || `#${s.shopId}`, count: 0 };
    line.count += 1;
    shops.set(s.shopId, line);
  }
  return JSON.stringify([...shops.values()]);
}

/** Whether every shop of the selection that has a warehouse has one chosen. */
export function everyShopHasWarehouse(shops: readonly PickerShop[], warehouses: readonly PickerWarehouse[], value: WarehouseByShop | undefined): boolean {
  const owning = new Set(warehouses.map((w) => w.shopId));
  return shops.some((s) => owning.has(s.shopId)) && shops.every((s) => !owning.has(s.shopId) || Boolean(value?.[s.shopId]));
}

/**
 * Stock is set at a warehouse of the product's own shop, so a selection over several shops takes one warehouse per
 * shop: one line per shop, offering only that shop's warehouses by name (two shops' "义乌仓" are told apart by the
 * line they sit on). A shop with a single warehouse has it chosen already.
 */
export function ShopWarehousePicker({ shops, warehouses, value, onChange }: ShopWarehousePickerProps) {
  const t = useComponentTexts();
  const chosen = value ?? {};
  useEffect(() => {
    const preset: WarehouseByShop = {};
    for (const shop of shops) {
      const own = warehouses.filter((w) => w.shopId === shop.shopId);
      if (own.length === 1 && !chosen[shop.shopId]) preset[shop.shopId] = own[0]!.warehouseId;
    }
    if (Object.keys(preset).length > 0) onChange?.({ ...chosen, ...preset });
    // Only when the shops or their warehouses change: a choice the user clears stays cleared.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shops, warehouses]);
  return (
    <div className="shop-warehouses" role="group" aria-label={t('warehousePicker.title')}>
      {shops.map((shop) => {
        const own = warehouses.filter((w) => w.shopId === shop.shopId);
        const label = t('warehousePicker.warehouseOf', { shop: shop.shopName });
        return (
          <div key={shop.shopId} className="shop-warehouses__line">
            <Typography.Text className="shop-warehouses__shop">
              {t('warehousePicker.shopLine', { shop: shop.shopName, count: shop.count })}
            </Typography.Text>
            {own.length === 0 ? (
              <Typography.Text type="warning">{t('warehousePicker.none')}</Typography.Text>
            ) : (
              <Select
                aria-label={label}
                placeholder={t('warehousePicker.placeholder')}
                className="shop-warehouses__select"
                value={chosen[shop.shopId] ?? null}
                onChange={(warehouseId: string) => onChange?.({ ...chosen, [shop.shopId]: warehouseId })}
                options={own.map((w) => ({ value: w.warehouseId, label: w.name || w.warehouseId, title: `${w.name} · ${w.warehouseId}` }))}
                optionRender={(option) => (
                  <span>
                    {option.label} <Typography.Text type="secondary">· {option.value}</Typography.Text>
                  </span>
                )}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
