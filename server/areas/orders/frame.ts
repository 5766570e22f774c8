import type { EncodedOrderChunk } from '../../../contract/orderChunk';
import { ORDER_LIST } from '../../../contract/orders';
import { defineListCopy, readCopyFrame as readListCopyFrame, type CopyFrame } from '../../lists/copyFrame';

export { msOfMicros } from '../../lists/copyFrame';

/**
 * Orders' binary sync copy (server/lists/copyFrame.ts): each ORDER_LIST column's column of the orders table, copied
 * packed from the table's generated `sync_row` (packedRowSql).
 */
export const ORDER_COPY = defineListCopy({
  schema: ORDER_LIST,
  sql: {
    id: 'id',
    postingNumber: 'posting_number',
    orderNumber: 'order_number',
    orderId: 'order_id',
    trackingNumber: 'tracking_number',
    shopId: 'shop_id',
    shopName: 'shop_name',
    status: 'status',
    substatus: 'substatus',
    warehouseId: 'warehouse_id',
    warehouseName: 'warehouse_name',
    currency: 'currency',
    source: 'source',
    sku: 'sku',
    offerId: 'offer_id',
    productName: 'product_name',
    inProcessAt: 'in_process_at',
    shipmentDate: 'shipment_date',
    deliveringDate: 'delivering_date',
    quantity: 'quantity',
    amount: 'amount::float8',
    updatedAt: 'updated_at',
  },
  cursorTime: 'updatedAt',
  packed: 'sync_row',
});

/** A frame's copy of orders as a chunk of at most `limit` rows (see server/lists/copyFrame.ts). */
export function readCopyFrame(copy: Uint8Array, limit: number): CopyFrame & { chunk: EncodedOrderChunk } {
  return readListCopyFrame(ORDER_COPY, copy, limit) as CopyFrame & { chunk: EncodedOrderChunk };
}
