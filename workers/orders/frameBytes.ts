import type { OrderFrame } from '../../contract/orderChunk';
import { ORDER_LIST } from '../../contract/orders';
import { decodeFrameBlob as decodeListFrameBlob } from '../lists/frameBytes';

/** An order frame kept or received as a Blob, decoded (see workers/lists/frameBytes.ts). */
export function decodeFrameBlob(blob: Blob): Promise<OrderFrame> {
  return decodeListFrameBlob(ORDER_LIST, blob) as Promise<OrderFrame>;
}
