import { Input, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductRow } from '@contract/products';
import { useDataClient } from '@/app/dataClient';
import { pictureUrl } from '@/components/pictureUrl';

const PAGE = 10;

type ShopProductTableProps = {
  shopId: number;
  /** The chosen products' ids; without `onChosen` the rows have no checkboxes. */
  chosen?: string[];
  /** The chosen ids and their rows (rows of other pages included: the table remembers them). */
  onChosen?: (ids: string[], rows: ProductRow[]) => void;
  /** Columns after the picture and the name. */
  extraColumns?: ColumnsType<ProductRow>;
};

/** A shop's products a page at a time, searched by name, offer id, SKU or barcode on the server; optionally chosen. */
export function ShopProductTable({ shopId, chosen, onChosen, extraColumns = [] }: ShopProductTableProps) {
  const { t } = useTranslation('edit');
  const client = useDataClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<ProductRow[] | null>(null);
  const [total, setTotal] = useState(0);
  const known = useRef(new Map<string, ProductRow>());

  useEffect(() => {
    let live = true;
    setRows(null);
    client.products.list({ storeId: shopId, page, rows: PAGE, ...(search ? { search } : {}) }).then(
      (answer) => {
        if (!live) return;
        for (const row of answer.list) known.current.set(row.id, row);
        setRows(answer.list);
        setTotal(answer.total);
      },
      () => live && setRows([]),
    );
    return () => {
      live = false;
    };
  }, [client, shopId, page, search]);

  return (
    <div>
      <Input.Search
        allowClear
        placeholder={t('wm.searchProducts')}
        aria-label={t('wm.searchProducts')}
        onSearch={(v) => {
          setSearch(v.trim());
          setPage(1);
        }}
        style={{ marginBottom: 8 }}
      />
      <Table<ProductRow>
        size="small"
        rowKey="id"
        loading={rows === null}
        dataSource={rows ?? []}
        locale={{ emptyText: t('wm.noProducts') }}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false, size: 'small' }}
        rowSelection={
          onChosen
            ? {
                selectedRowKeys: chosen ?? [],
                preserveSelectedRowKeys: true,
                onChange: (keys) => {
                  const ids = keys.map(String);
                  onChosen(ids, ids.map((id) => known.current.get(id)).filter((row): row is ProductRow => row !== undefined));
                },
              }
            : undefined
        }
        columns={[
          { key: 'image', width: 56, render: (_, row) => (row.image ? <img src={pictureUrl(row.image)} alt="" className="wm-thumb" /> : null) },
          { key: 'name', title: t('wm.columns.product'), render: (_, row) => <ProductName row={row} /> },
          ...extraColumns,
        ]}
      />
    </div>
  );
}

export function ProductName({ row }: { row: Pick<ProductRow, 'name' | 'offerId'> }) {
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text ellipsis style={{ maxWidth: 240 }}>
        {row.name}
      </Typography.Text>
      <Typography.Text type="secondary" className="wm-template-meta">
        {row.offerId}
      </Typography.Text>
    </Space>
  );
}
