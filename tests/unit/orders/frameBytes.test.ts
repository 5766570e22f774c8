import { chunkOfRows, encodeOrderFrame, OrderChunkError, rowsOfChunk } from '../../../contract/orderChunk';
import { decodeFrameBlob } from '../../../workers/orders/frameBytes';
import { generateOrders } from './generate';

describe('a frame kept as a Blob', () => {
  it('reads back the rows and cursor it was made of', async () => {
    const rows = generateOrders({ count: 120, seed: 1 });
    const frame = await decodeFrameBlob(new Blob([encodeOrderFrame({ chunk: chunkOfRows(rows), cursor: 'c9', hasMore: true })]));
    expect(frame.cursor).toBe('c9');
    expect(frame.hasMore).toBe(true);
    expect(rowsOfChunk(frame.chunk)).toEqual(rows);
  });

  it('refuses bytes that are not a whole frame', async () => {
    const bytes = encodeOrderFrame({ chunk: chunkOfRows(generateOrders({ count: 20, seed: 4 })), cursor: 'z', hasMore: false });
    await expect(decodeFrameBlob(new Blob([bytes.slice(0, bytes.byteLength - 5)]))).rejects.toThrow(OrderChunkError);
    await expect(decodeFrameBlob(new Blob(['not a frame at all']))).rejects.toThrow(OrderChunkError);
  });
});
