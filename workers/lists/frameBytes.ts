import { decodeListFrame, type ListFrame } from '../../contract/listFrame';
import type { AnyListSchema } from '../../contract/listSchema';

/**
 * Reads and decodes a list frame (contract/listFrame.ts) kept or received as a Blob: the sync fetches each frame
 * as a Blob and the cache stores that very Blob, because a Blob made from the fetched ArrayBuffer copied 7 MB into
 * new memory per frame (53 ms in the worker: memory touched for the first time costs about 4 ms a MB in page faults
 * on this machine's VM). Throws ListFrameError for bytes that are not a whole frame.
 *
 * The bytes are read with `blob.arrayBuffer()`. Reading them into reused buffers through a byte-stream reader was
 * faster (15 ms a frame against 31), but in headless Chromium such reads of IndexedDB Blobs now and then never
 * finished, which stalled a load for good; a cache that always opens is worth more than those milliseconds.
 */
export async function decodeFrameBlob(schema: AnyListSchema, blob: Blob): Promise<ListFrame> {
  return decodeListFrame(schema, await blob.arrayBuffer());
}
