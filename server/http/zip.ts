import { unzipSync, zipSync } from 'fflate';

/**
 * Every zip the server opens (an upload: the post's postcode file, an XLSX sheet) is unpacked here, within a byte
 * budget: each member's declared (uncompressed) size is read from the central directory before it is unpacked, and a
 * zip whose members together declare more than the budget is refused without unpacking anything more. A member is
 * unpacked into a buffer of its declared size, so one that lies about its size is cut short, never grown: memory stays
 * within the budget whatever the zip says (a 1 MB zip holding a 1 GiB file once took the server's memory from 838 to
 * 1,854 MB and its health answers up to 24 s).
 */
export class ZipTooLarge extends Error {
  override name = 'ZipTooLarge';
  constructor(readonly budget: number) {
    super(`the zip unpacks to more than ${Math.round(budget / 1024 / 1024)} MB`);
  }
}

export class ZipUnreadable extends Error {
  override name = 'ZipUnreadable';
}

export function unzipWithin(bytes: Uint8Array, budget: number, keep: (name: string) => boolean = () => true): Record<string, Uint8Array> {
  let declared = 0;
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        if (!keep(file.name)) return false;
        declared += file.originalSize;
        if (declared > budget) throw new ZipTooLarge(budget);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ZipTooLarge) throw error;
    throw new ZipUnreadable(`the zip cannot be read (${(error as Error).message})`);
  }
}

/**
 * The zip `bytes` checked and unpacked within `budget` (unzipWithin), packed again without compression: for a library
 * that opens the zip itself (an XLSX reader), whose own unpacking then cannot outgrow the budget.
 */
export function rezipWithin(bytes: Uint8Array, budget: number): Uint8Array {
  return zipSync(unzipWithin(bytes, budget), { level: 0 });
}
