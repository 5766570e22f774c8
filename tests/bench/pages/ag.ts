import { AllCommunityModule, createGrid, ModuleRegistry, type ColDef, type GridApi } from 'ag-grid-community';
import type { OrderRow } from '../../../contract/orders';
import type { ProductRow } from '../../../contract/products';
import { pictureUrl } from '../../../src/components/pictureUrl';
import { benchList, fetchAllOrders, fetchAllProducts } from './feed';

/**
 * Peer 1: AG Grid Community, client-side row model, on the main thread, fed the same sync chunks. Search is AG
 * Grid's quick filter, sorting its own header click, the status filter an external filter.
 */
ModuleRegistry.registerModules([AllCommunityModule]);

const time = (value: number | null) => (value === null ? '—' : new Date(value).toLocaleString('zh-CN', { dateStyle: 'short', timeStyle: 'short' }));
/** A column the app's search does not look in: the quick filter skips it too, so both find the same rows. */
const unsearched = { getQuickFilterText: () => '' };
const orderColumns: ColDef<OrderRow>[] = [
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
const money = (p: { value: unknown; data?: ProductRow }) => ((p.value as number) > 0 ? `${(p.value as number).toFixed(2)} ${p.data?.currency ?? ''}` : '—');
/** The product list's columns in its order, the thumbnail drawn as an <img> as the app draws it; barcode is searched. */
const productColumns: ColDef<ProductRow>[] = [
  {
    field: 'image',
    width: 64,
    sortable: false,
    ...unsearched,
    cellRenderer: (p: { value: string }) => {
      const img = document.createElement('img');
      img.loading = 'lazy';
      img.style.cssText = 'width:40px;height:40px;object-fit:cover;display:block';
      if (p.value) img.src = pictureUrl(p.value);
      return img;
    },
  },
  { field: 'name', width: 280 },
  { field: 'offerId', width: 150 },
  { field: 'status', width: 100, ...unsearched },
  { field: 'price', width: 140, valueFormatter: money, ...unsearched },
  { field: 'oldPrice', width: 120, valueFormatter: money, ...unsearched },
  { field: 'minPrice', width: 120, valueFormatter: money, ...unsearched },
  { field: 'fbsStock', width: 100, ...unsearched },
  { field: 'fboStock', width: 100, ...unsearched },
  { field: 'units30d', width: 100, ...unsearched },
  { field: 'revenue30d', width: 130, valueFormatter: money, ...unsearched },
  { field: 'shopName', width: 160, ...unsearched },
  { field: 'sku', width: 120 },
  { field: 'barcode', width: 140 },
  { field: 'visibility', width: 110, ...unsearched },
  { field: 'moderation', width: 110, ...unsearched },
  { field: 'createdAt', width: 150, valueFormatter: (p) => time(p.value as number), ...unsearched },
  { field: 'changedAt', width: 150, valueFormatter: (p) => time(p.value as number), ...unsearched },
];

type Row = OrderRow | ProductRow;
const products = benchList() === 'products';
let status: string | null = null;
let loaded = false;
const root = document.getElementById('root')!;
root.innerHTML = '<input role="searchbox" aria-label="search" style="width:320px;margin:8px"><div id="grid" style="height:calc(100vh - 60px)"></div>';
const api: GridApi<Row> = createGrid<Row>(document.getElementById('grid')!, {
  columnDefs: (products ? productColumns : orderColumns) as ColDef<Row>[],
  getRowId: (p) => p.data.id,
  rowData: [],
  // The app's product rows are 52 px high (thumbnails).
  ...(products ? { rowHeight: 52 } : {}),
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

const all: Row[] = [];
const onChunk = (rows: readonly Row[]) => {
  for (const row of rows) all.push(row);
  // The first chunk shows at once; the rest go in once, as an app with AG Grid's client-side model would do.
  if (api.getDisplayedRowCount() === 0) api.setGridOption('rowData', all.slice());
};
void (products ? fetchAllProducts(onChunk) : fetchAllOrders(onChunk)).then(() => {
  api.setGridOption('rowData', all);
  loaded = true;
});
