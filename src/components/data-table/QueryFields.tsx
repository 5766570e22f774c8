import { Form, Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import type { Store } from '@contract/store';
import { useDataClient } from '@/app/dataClient';
import { useComponentTexts } from '../useComponentTexts';

/** One select of a query form: its form field, what it says while empty, and its values with their labels. */
export type QueryChoice = { name: string; placeholder: string; options: { value: string; label: string }[]; width?: number };

type QueryFieldsProps = {
  /** What the search box says while empty; it fills the form field `search`. */
  search: string;
  searchWidth?: number;
  choices?: QueryChoice[];
  /** A select of the user's shops, filling the form field `shopId`. */
  shops?: boolean;
};

/**
 * The query fields of a server-paged list (PagedTable's `queryFields`): a search box, the list's own selects and, when
 * asked, the user's shops. Every field clears to "all".
 */
export function QueryFields({ search, searchWidth = 200, choices = [], shops = false }: QueryFieldsProps) {
  return (
    <>
      <Form.Item name="search">
        <Input allowClear aria-label={search} placeholder={search} style={{ width: searchWidth }} />
      </Form.Item>
      {choices.map(({ name, placeholder, options, width = 130 }) => (
        <Form.Item key={name} name={name}>
          <Select allowClear aria-label={placeholder} placeholder={placeholder} style={{ width }} options={options} />
        </Form.Item>
      ))}
      {shops && <ShopField />}
    </>
  );
}

function ShopField() {
  const t = useComponentTexts();
  const client = useDataClient();
  const [shops, setShops] = useState<Store[]>([]);
  useEffect(() => {
    // Without the shops the field offers none; the list itself still loads and says what failed.
    void client.store.list().then(setShops, () => undefined);
  }, [client]);
  return (
    <Form.Item name="shopId">
      <Select allowClear aria-label={t('dataTable.allShops')} placeholder={t('dataTable.allShops')} style={{ width: 180 }} options={shops.map((s) => ({ value: s.id, label: s.name }))} />
    </Form.Item>
  );
}
