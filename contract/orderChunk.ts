import { ORDER_LIST, type OrderRow } from './orders';
import {
  chunkOfRows as chunkOfListRows,
  decodeListFrame,
  encodeListFrame,
  rowsOfChunk as rowsOfListChunk,
  writeListFrame,
  type EncodedListChunk,
  type ListChunk,
  type ListFrame,
} from './listFrame';

/**
 * Orders' binary frames: the list frame (contract/listFrame.ts) of ORDER_LIST. What GET /api/order/sync?format=binary
 * sends, the browser's order cache stores per record and the order engine appends.
 */

export {
  checkTextCount,
  codesFor,
  encodeDict,
  expandScaled,
  joinTexts,
  ListFrameError as OrderChunkError,
  numberEncoding,
  scaledNumbers,
  splitTexts,
  TEXT_SEPARATOR,
  textCount,
  undecodedText,
} from './listFrame';
export type { DictCodes, DictColumnData, NumberEncoding, ScaledNumbers } from './listFrame';

export const ORDER_NUMBER_FIELDS = ORDER_LIST.numberFields;
export const ORDER_DICT_FIELDS = ORDER_LIST.dictFields;
export const ORDER_TEXT_FIELDS = ORDER_LIST.textFields;
export type OrderNumberField = (typeof ORDER_NUMBER_FIELDS)[number];
export type OrderDictField = (typeof ORDER_DICT_FIELDS)[number];
export type OrderTextField = (typeof ORDER_TEXT_FIELDS)[number];

export { ORDER_FRAME_TYPE } from './orders';

export type OrderChunk = ListChunk<OrderNumberField, OrderDictField, OrderTextField>;
export type OrderFrame = ListFrame<OrderChunk>;
export type EncodedOrderChunk = EncodedListChunk<OrderNumberField, OrderDictField, OrderTextField>;

export const chunkOfRows = (rows: readonly OrderRow[]): OrderChunk => chunkOfListRows(ORDER_LIST, rows) as OrderChunk;
export const rowsOfChunk = (chunk: OrderChunk): OrderRow[] => rowsOfListChunk<OrderRow>(ORDER_LIST, chunk);
export const encodeOrderFrame = (frame: OrderFrame) => encodeListFrame(ORDER_LIST, frame);
export const writeOrderFrame = (chunk: EncodedOrderChunk, frame: Omit<OrderFrame, 'chunk'>) => writeListFrame(ORDER_LIST, chunk, frame);
/** A frame of orders (its chunk holds every column of ORDER_LIST: decodeListFrame checked the header for each). */
export const decodeOrderFrame = (buffer: ArrayBuffer): OrderFrame => decodeListFrame(ORDER_LIST, buffer) as OrderFrame;
