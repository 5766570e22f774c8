import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { ListRow } from '../../../contract/listSchema';
import { ORDER_LIST, type OrderRow } from '../../../contract/orders';
import { PRODUCT_LIST, type ProductRow } from '../../../contract/products';
import { VirtualTable, type VirtualTableColumn, type VirtualTableSort } from '../../../src/components/virtual-table/VirtualTable';
import { createI18n } from '../../../src/app/i18n';
import { orderColumns } from '../../../src/features/orders/OrderColumns';
import { productColumns } from '../../../src/features/products/ProductColumns';
import '../../../src/features/products/products.css';
import { ListEngine } from '../../../workers/lists/engine';
import type { ListQuery } from '../../../workers/lists/types';
import { benchList, fetchAllOrders, fetchAllProducts } from './feed';

/**
 * Peer 2: our own VirtualTable and list engine, but with the engine on the main thread (no worker, no cache):
 * what the worker buys us, measured. The same columns, row height and opening sort as the app's list.
 */
type Peer = {
  engine: ListEngine<ListRow, ListQuery<object>>;
  fetchAll: (onChunk: (rows: ListRow[]) => void) => Promise<number>;
  columns: () => VirtualTableColumn<ListRow>[];
  sort: VirtualTableSort;
  rowHeight?: number;
  /** The status filter as the list's filters. */
  statusFilter: (status: string) => object;
};

const i18n = createI18n('zh');
const PEERS: Record<'orders' | 'products', () => Peer> = {
  orders: () => ({
    engine: new ListEngine(ORDER_LIST),
    fetchAll: (onChunk) => fetchAllOrders(onChunk as (rows: OrderRow[]) => void),
    columns: () => orderColumns(i18n.getFixedT('zh', 'orders'), 'zh') as unknown as VirtualTableColumn<ListRow>[],
    sort: { column: 'inProcessAt', direction: 'desc' },
    statusFilter: (status) => ({ statuses: [status] }),
  }),
  products: () => ({
    engine: new ListEngine(PRODUCT_LIST),
    fetchAll: (onChunk) => fetchAllProducts(onChunk as (rows: ProductRow[]) => void),
    columns: () => productColumns(i18n.getFixedT('zh', 'products'), 'zh', () => {}) as unknown as VirtualTableColumn<ListRow>[],
    sort: { column: 'changedAt', direction: 'desc' },
    rowHeight: 52,
    statusFilter: (status) => ({ statuses: [status] }),
  }),
};
const peer = PEERS[benchList()]();
const { engine } = peer;

let loaded = false;
let version = 0;
const listeners = new Set<() => void>();
void peer
  .fetchAll((rows) => {
    engine.upsert(rows);
    version++;
    listeners.forEach((listener) => listener());
  })
  .then(async () => {
    await engine.prepareSearch();
    loaded = true;
    version++;
    listeners.forEach((listener) => listener());
  });

function Page() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [sort, setSort] = useState<VirtualTableSort>(peer.sort);
  const [dataVersion, setDataVersion] = useState(version);
  const [result, setResult] = useState<{ handle: number; total: number } | null>(null);
  const rows = useRef(new Map<number, ListRow>());
  const [, setTick] = useState(0);
  const columns = useMemo(() => peer.columns(), []);

  useEffect(() => {
    const listener = () => setDataVersion(version);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  useEffect(() => {
    window.__bench = { state: () => ({ total: result?.total ?? 0, loaded }), filterStatus: setStatus };
  }, [result]);
  useEffect(() => {
    const query: ListQuery<object> = {
      search,
      filters: status ? peer.statusFilter(status) : {},
      sort: sort ? { column: sort.column, direction: sort.direction } : null,
    };
    void engine.query(query).then((answer) => {
      if (answer.status !== 'done') return;
      rows.current = new Map();
      setResult({ handle: answer.handle, total: answer.total });
    });
  }, [search, status, sort, dataVersion]);

  const onRangeChange = useCallback(
    (start: number, end: number) => {
      if (!result) return;
      try {
        const window = engine.window(result.handle, start, end - start);
        window.rows.forEach((row, i) => rows.current.set(start + i, row));
        setTick((n) => n + 1);
      } catch {
        // a newer result replaced this one
      }
    },
    [result],
  );

  return (
    <div>
      <input role="searchbox" aria-label="search" style={{ width: 320, margin: 8 }} value={search} onChange={(e) => setSearch(e.target.value)} />
      <VirtualTable<ListRow>
        storageKey="bench:main-thread"
        label={benchList()}
        columns={columns}
        total={result?.total ?? 0}
        rowAt={(index) => rows.current.get(index)}
        rowKey={(row) => row.id as string}
        onRangeChange={onRangeChange}
        sort={sort}
        onSortChange={setSort}
        rowHeight={peer.rowHeight}
        height="calc(100vh - 60px)"
      />
    </div>
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
