import { AllCommunityModule, createGrid, ModuleRegistry, type ColDef, type GridApi } from 'ag-grid-community';
import type { OrderRow } from '../../../contract/orders';
import { fetchAllOrders } from './feed';

/**
 * Peer 1: AG Grid Community, client-side row model, on the main thread, fed the same sync chunks. Search is AG
 * Grid's quick filter, sorting its own header click, the status filter an external filter.
 */
ModuleRegistry.registerModules([AllCommunityModule]);

const time = (value: number | null) => (value === null ? '—' : new Date(value).toLocaleString('zh-CN', { dateStyle: 'short', timeStyle: 'short' }));
const columns: ColDef<OrderRow>[] = [
  { field: 'postingNumber', width: 170 },
  { field: 'orderNumber', width: 140 },
  { field: 'shopName', width: 150 },
  { field: 'status', width: 130 },
  { field: 'productName', width: 240 },
  { field: 'sku', width: 120 },
  { field: 'offerId', width: 140 },
  { field: 'quantity', width: 70 },
  { field: 'amount', width: 130, valueFormatter: (p) => `${(p.value as number).toFixed(2)} ${p.data?.currency ?? ''}` },
  { field: 'inProcessAt', width: 150, valueFormatter: (p) => time(p.value as number), getQuickFilterText: () => '' },
  { field: 'shipmentDate', width: 150, valueFormatter: (p) => time(p.value as number | null), getQuickFilterText: () => '' },
  { field: 'warehouseName', width: 150 },
  { field: 'trackingNumber', width: 160 },
];

let status: string | null = null;
let loaded = false;
const root = document.getElementById('root')!;
root.innerHTML = '<input role="searchbox" aria-label="search" style="width:320px;margin:8px"><div id="grid" style="height:calc(100vh - 60px)"></div>';
const api: GridApi<OrderRow> = createGrid(document.getElementById('grid')!, {
  columnDefs: columns,
  getRowId: (p) => p.data.id,
  rowData: [],
  // Every column in the DOM, as our table renders them: the probes read a whole row, and a header click that
  // scrolls sideways must not drop the first columns.
  suppressColumnVirtualisation: true,
  isExternalFilterPresent: () => status !== null,
  doesExternalFilterPass: (node) => node.data?.status === status,
});
root.querySelector('input')!.addEventListener('input', (event) => api.setGridOption('quickFilterText', (event.target as HTMLInputElement).value));

window.__bench = {
  state: () => ({ total: api.getDisplayedRowCount(), loaded }),
  filterStatus: (next) => {
    status = next;
    api.onFilterChanged();
  },
};

const all: OrderRow[] = [];
void fetchAllOrders((rows) => {
  for (const row of rows) all.push(row);
  // The first chunk shows at once; the rest go in once, as an app with AG Grid's client-side model would do.
  if (api.getDisplayedRowCount() === 0) api.setGridOption('rowData', all.slice());
}).then(() => {
  api.setGridOption('rowData', all);
  loaded = true;
});
