import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { writeXlsx } from '../../../contract/xlsx';
import { readCostFile } from '../../../server/areas/costs/parse';
import { readPindx } from '../../../server/areas/postcodes/pindx';
import { ApiError } from '../../../server/http/errors';
import { unzipWithin, ZipTooLarge } from '../../../server/http/zip';

/**
 * Zip bombs against every zip the server opens (the postcode import, XLSX cost sheets): the members' declared sizes
 * are read first and a zip declaring more than its budget is refused before anything is unpacked; a member that lies
 * small is cut at its declared size.
 */

/** `zip` with every member's uncompressed size, as the central directory declares it, set to `size`. */
function declaring(zip: Uint8Array, size: number): Uint8Array {
  const patched = zip.slice();
  const view = new DataView(patched.buffer);
  for (let at = 0; at + 46 <= patched.length; at++) {
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, size, true);
  }
  return patched;
}

const GIB = 1024 ** 3;
const zeros = (bytes: number) => zipSync({ 'PIndx01.dbf': new Uint8Array(bytes) });

describe('a zip bomb', () => {
  it('declaring 1 GiB is refused before it is unpacked', () => {
    const bomb = declaring(zeros(1024), GIB);
    expect(() => unzipWithin(bomb, 256 * 1024 * 1024)).toThrow(ZipTooLarge);
    expect(() => unzipWithin(bomb, 256 * 1024 * 1024)).toThrow('the zip unpacks to more than 256 MB');
  });

  it('of many members is refused by their sum', () => {
    const many = zipSync(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`part${i}.dbf`, new Uint8Array(1000)])));
    expect(Object.keys(unzipWithin(many, 5000))).toHaveLength(5);
    expect(() => unzipWithin(many, 4999)).toThrow(ZipTooLarge);
  });

  it('whose member lies small is cut at its declared size, never grown', () => {
    const liar = declaring(zeros(8 * 1024 * 1024), 1000);
    expect(unzipWithin(liar, 10_000)['PIndx01.dbf']).toHaveLength(1000);
  });

  it('as the postcode file: refused with the reason, nothing unpacked', async () => {
    await expect(readPindx(declaring(zeros(1024), GIB))).rejects.toThrow('the zip unpacks to more than 256 MB');
  });

  it('as an XLSX cost sheet: refused as unreadable; a real sheet still reads', async () => {
    const sheet = writeXlsx('costs', ['offer_id', 'cost'], [['A-1', 12.5]]);
    expect(await readCostFile('costs.xlsx', Buffer.from(sheet))).toEqual([{ line: 2, offerId: 'A-1', cost: 12.5 }]);
    const bomb = declaring(sheet, GIB);
    const refused = await readCostFile('costs.xlsx', Buffer.from(bomb)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(400);
  });
});
