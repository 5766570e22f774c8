import { decodeOrderFrame, type OrderFrame } from '../../contract/orderChunk';

/**
 * The bytes of order frames (contract/orderChunk.ts) read out of Blobs into a few buffers used over and over.
 *
 * Why: a frame is about 7 MB, a million rows twenty frames. Memory a process touches for the first time is what
 * costs here, not copying it: on this machine's VM a fresh megabyte costs about 4 ms of page faults the first time it
 * is written (`fill` of a new 100 MB array: 410 ms; again: 5 ms). `blob.arrayBuffer()` makes a new 7 MB buffer per
 * frame (31 ms per frame in a worker); read into a buffer that held the frame before last, the same frame takes 15 ms.
 * The sync fetches a frame as a Blob for the same reason: the cache stores that very Blob, where a Blob made from
 * an ArrayBuffer copied 7 MB into new memory (53 ms a frame).
 *
 * A frame decoded from a pooled buffer has its number and code columns as views on it: `release` gives the buffer
 * back once the engine has copied them (never before), and a frame nobody releases is simply collected.
 */
export type PooledFrame = OrderFrame & { release: () => void };

/** Buffers kept for the next frames: a load reads a few records ahead, a sync one frame. */
const KEPT_BUFFERS = 4;


export class FrameBuffers {
  private free: ArrayBuffer[] = [];
  private reading: Promise<unknown> = Promise.resolve();

  /**
   * The bytes of `blob` in a buffer of this pool (at least `blob.size` long) and its release. One read at a time:
   * in headless Chromium, several byte-stream reads of IndexedDB Blobs at once now and then never finished (a warm
   * open stalled on its sixth record in three runs of four; read one after another, never).
   */
  read(blob: Blob): Promise<{ buffer: ArrayBuffer; size: number; release: () => void }> {
    const read = this.reading.then(() => this.readNow(blob));
    this.reading = read.catch(() => undefined);
    return read;
  }

  private async readNow(blob: Blob): Promise<{ buffer: ArrayBuffer; size: number; release: () => void }> {
    const size = blob.size;
    const at = this.free.findIndex((buffer) => buffer.byteLength >= size);
    let buffer = at >= 0 ? this.free.splice(at, 1)[0]! : null;
    if (!buffer) {
      // Room for a somewhat larger frame next time, so the pool does not end up holding one buffer per size.
      buffer = new ArrayBuffer(Math.ceil((size * 1.25) / 65_536) * 65_536);
    }
    buffer = await readInto(blob, buffer);
    let released = false;
    const kept = buffer;
    return {
      buffer,
      size,
      release: () => {
        if (released) return;
        released = true;
        if (this.free.length < KEPT_BUFFERS) this.free.push(kept);
      },
    };
  }

  /** Reads and decodes a frame; a frame that does not add up throws OrderChunkError (its buffer goes back). */
  async decode(blob: Blob): Promise<PooledFrame> {
    const { buffer, size, release } = await this.read(blob);
    try {
      return { ...decodeOrderFrame(buffer, size), release };
    } catch (error) {
      release();
      throw error;
    }
  }
}

/**
 * `blob`'s bytes at the start of `buffer` (which a byte stream reader hands back as a new ArrayBuffer object over the
 * same memory); where Blob streams are not byte streams, a new buffer of the blob's bytes.
 */
async function readInto(blob: Blob, buffer: ArrayBuffer): Promise<ArrayBuffer> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch {
    return blob.arrayBuffer();
  }
  let offset = 0;
  try {
    while (offset < blob.size) {
      const { value, done } = await reader.read(new Uint8Array(buffer, offset, blob.size - offset));
      if (value) {
        buffer = value.buffer as ArrayBuffer;
        offset += value.byteLength;
      }
      if (done) break;
    }
  } finally {
    // Closed, not only let go: a stream read to its last byte still holds its pipe to the blob until it is closed or
    // collected, and Chromium serves only so many at once (a warm open stalled on its sixth record without this).
    await reader.cancel().catch(() => undefined);
  }
  if (offset !== blob.size) throw new Error(`read ${offset} of ${blob.size} bytes`);
  return buffer;
}

/** The worker's pool: the cache's load and the sync read through it, so their reads never overlap either. */
export const frameBuffers = new FrameBuffers();
