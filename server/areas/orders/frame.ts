import pg from 'pg';
import type { EncodedOrderChunk } from '../../../contract/orderChunk';
import { ORDER_LIST } from '../../../contract/orders';
import { copySelect, defineListCopy, readCopyFrame as readListCopyFrame, type CopyFrame } from '../../lists/copyFrame';

export { msOfMicros } from '../../lists/copyFrame';

/** Orders' binary sync copy (server/lists/copyFrame.ts): each ORDER_LIST column's column of the orders table. */
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
});

const CHANGED_SQL = `from orders where user_id = $1 and (updated_at, id) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3)`;
/** The number of changes after a cursor (parameters: user id, cursor microseconds, cursor id): an index-only count. */
export const REMAINING_SQL = `select count(*) as n ${CHANGED_SQL}`;

/**
 * The select of a frame's copy: the user's first `limit` changes after the cursor (microseconds since 1970 and id),
 * oldest first, in the order readCopyFrame reads. Ask for one row more than a frame holds to learn whether more wait.
 */
export function frameSelect(userId: number, micros: bigint, id: string, limit: number): string {
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(limit) || limit < 0) throw new Error('frame select: bad user or limit');
  return `${copySelect(ORDER_COPY, 'orders')}
    where user_id = ${userId} and (updated_at, id) > (timestamptz 'epoch' + ${micros.toString()}::bigint * interval '1 microsecond', ${pg.escapeLiteral(id)})
    order by updated_at, id limit ${limit}`;
}

/** A frame's copy of orders as a chunk of at most `limit` rows (see server/lists/copyFrame.ts). */
export function readCopyFrame(copy: Uint8Array, limit: number): CopyFrame & { chunk: EncodedOrderChunk } {
  return readListCopyFrame(ORDER_COPY, copy, limit) as CopyFrame & { chunk: EncodedOrderChunk };
}
