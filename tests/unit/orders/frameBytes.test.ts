import { chunkOfRows, encodeOrderFrame, OrderChunkError, rowsOfChunk } from '../../../contract/orderChunk';
import { FrameBuffers } from '../../../workers/orders/frameBytes';
import { generateOrders } from './generate';

const blobOf = (rows: ReturnType<typeof generateOrders>, cursor: string) => new Blob([encodeOrderFrame({ chunk: chunkOfRows(rows), cursor, hasMore: true })]);

describe('frame buffers', () => {
  it('reads frames of different sizes through reused buffers, and a frame still held is never overwritten', async () => {
    const frames = new FrameBuffers();
    const big = generateOrders({ count: 300, seed: 1 });
    const small = generateOrders({ count: 40, seed: 2 });
    const other = generateOrders({ count: 200, seed: 3 });

    const first = await frames.decode(blobOf(big, 'a'));
    expect(first.cursor).toBe('a');
    expect(rowsOfChunk(first.chunk)).toEqual(big);
    first.release();

    // The next frame lands in the buffer the first one gave back; one held meanwhile keeps its own.
    const held = await frames.decode(blobOf(small, 'b'));
    const next = await frames.decode(blobOf(other, 'c'));
    expect(rowsOfChunk(held.chunk)).toEqual(small);
    expect(rowsOfChunk(next.chunk)).toEqual(other);
    held.release();
    next.release();
    // Releasing twice gives the buffer back once: two later frames never share it.
    held.release();
    const [x, y] = await Promise.all([frames.decode(blobOf(big, 'x')), frames.decode(blobOf(other, 'y'))]);
    expect(rowsOfChunk(x.chunk)).toEqual(big);
    expect(rowsOfChunk(y.chunk)).toEqual(other);
  });

  it('refuses bytes that are not a whole frame', async () => {
    const frames = new FrameBuffers();
    const bytes = encodeOrderFrame({ chunk: chunkOfRows(generateOrders({ count: 20, seed: 4 })), cursor: 'z', hasMore: false });
    await expect(frames.decode(new Blob([bytes.slice(0, bytes.byteLength - 5)]))).rejects.toThrow(OrderChunkError);
    await expect(frames.decode(new Blob(['not a frame at all']))).rejects.toThrow(OrderChunkError);
    // The buffers those used are fine for the next, whole frame.
    const rows = generateOrders({ count: 20, seed: 4 });
    expect(rowsOfChunk((await frames.decode(blobOf(rows, 'w'))).chunk)).toEqual(rows);
  });
});
