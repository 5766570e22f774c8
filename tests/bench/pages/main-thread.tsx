import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { OrderColumn, OrderRow } from '../../../contract/orders';
import { VirtualTable, type VirtualTableSort } from '../../../src/components/virtual-table/VirtualTable';
import { createI18n } from '../../../src/app/i18n';
import { orderColumns } from '../../../src/features/orders/OrderColumns';
import { OrderEngine } from '../../../workers/orders/engine';
import type { OrderQuery } from '../../../workers/orders/types';
import { fetchAllOrders } from './feed';

/**
 * Peer 2: our own VirtualTable and list engine, but with the engine on the main thread (no worker, no cache):
 * what the worker buys us, measured.
 */
const engine = new OrderEngine();
let loaded = false;
let version = 0;
const listeners = new Set<() => void>();
void fetchAllOrders((rows) => {
  engine.upsert(rows);
  version++;
  listeners.forEach((listener) => listener());
}).then(async () => {
  await engine.prepareSearch();
  loaded = true;
  version++;
  listeners.forEach((listener) => listener());
});

function Page() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [sort, setSort] = useState<VirtualTableSort>({ column: 'inProcessAt', direction: 'desc' });
  const [dataVersion, setDataVersion] = useState(version);
  const [result, setResult] = useState<{ handle: number; total: number } | null>(null);
  const rows = useRef(new Map<number, OrderRow>());
  const [, setTick] = useState(0);
  const columns = useMemo(() => orderColumns(createI18n('zh').getFixedT('zh', 'orders'), 'zh'), []);

  useEffect(() => {
    const listener = () => setDataVersion(version);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  useEffect(() => {
    window.__bench = { state: () => ({ total: result?.total ?? 0, loaded }), filterStatus: setStatus };
  }, [result]);
  useEffect(() => {
    const query: OrderQuery = {
      search,
      filters: status ? { statuses: [status as OrderRow['status']] } : {},
      sort: sort ? { column: sort.column as OrderColumn, direction: sort.direction } : null,
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
      <VirtualTable<OrderRow>
        storageKey="bench:main-thread"
        label="orders"
        columns={columns}
        total={result?.total ?? 0}
        rowAt={(index) => rows.current.get(index)}
        rowKey={(row) => row.id}
        onRangeChange={onRangeChange}
        sort={sort}
        onSortChange={setSort}
        height="calc(100vh - 60px)"
      />
    </div>
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
