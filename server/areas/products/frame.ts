import { PRODUCT_LIST, PRODUCT_SYNC_MAX_LIMIT } from '../../../contract/products';
import { defineListCopy } from '../../lists/copyFrame';
import type { ListSyncSource } from '../../lists/frameSync';

/**
 * Products' binary sync copy (server/lists/copyFrame.ts): each PRODUCT_LIST column's column of the products table,
 * copied packed from the table's generated `sync_row` (packedRowSql).
 */
export const PRODUCT_COPY = defineListCopy({
  schema: PRODUCT_LIST,
  sql: {
    id: 'id',
    productId: 'product_id',
    offerId: 'offer_id',
    sku: 'sku',
    name: 'name',
    barcode: 'barcode',
    image: 'image',
    shopId: 'shop_id',
    shopName: 'shop_name',
    status: 'status',
    moderation: 'moderation',
    visibility: 'visibility',
    currency: 'currency',
    price: 'price::float8',
    oldPrice: 'old_price::float8',
    minPrice: 'min_price::float8',
    fbsStock: 'fbs_stock',
    fboStock: 'fbo_stock',
    errorCount: 'error_count',
    units30d: 'units_30d',
    revenue30d: 'revenue_30d::float8',
    createdAt: 'created_at',
    changedAt: 'changed_at',
    updatedAt: 'updated_at',
  },
  cursorTime: 'updatedAt',
  packed: 'sync_row',
});

export const PRODUCT_SYNC_SOURCE: ListSyncSource = { copy: PRODUCT_COPY, table: 'products', maxLimit: PRODUCT_SYNC_MAX_LIMIT };
