import type { OrderRow } from '../../../contract/orders';
import { OrderWindows } from '../../../src/features/orders/useOrderList';
import { generateOrders } from './generate';

const rows = generateOrders({ count: 300, seed: 5 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Windows of 100 rows from a result per handle: handle 2's rows are handle 1's in reverse. */
function fakeWorker() {
  const asked: string[] = [];
  const resultOf = (handle: number) => (handle === 1 ? rows : [...rows].reverse());
  const fetch = async (handle: number, page: number): Promise<OrderRow[]> => {
    asked.push(`${handle}:${page}`);
    return resultOf(handle).slice(page * 100, page * 100 + 100);
  };
  return { asked, resultOf, fetch };
}

describe('the order page\'s window cache', () => {
  it('shows an older result again with the rows it had, as a click rendered during a newer result\'s transition does', async () => {
    const worker = fakeWorker();
    const windows = new OrderWindows(worker.fetch, () => undefined);
    windows.show(1, 1, 300);
    windows.onRangeChange(0, 20);
    await settle();
    expect(windows.rowAt(0)).toEqual(rows[0]);

    // The newer result comes with its first window (its answer), is rendered, then the older one is rendered again.
    windows.accept(2, [{ page: 0, rows: worker.resultOf(2).slice(0, 100) }]);
    windows.show(1, 1, 300);
    windows.show(2, 2, 300);
    expect(windows.rowAt(0)).toEqual(rows[299]);
    windows.show(1, 1, 300);
    expect(windows.rowAt(0)).toEqual(rows[0]);
    windows.show(2, 2, 300);
    expect(windows.rowAt(5)).toEqual(rows[294]);
    // Nothing was fetched twice, and the newer result's first window came with its answer.
    expect(worker.asked.sort()).toEqual(['1:0', '1:1']);
  });

  it('keeps the windows of the last few results only, and tells the table of rows of the result on screen', async () => {
    const worker = fakeWorker();
    const windows = new OrderWindows(worker.fetch, () => undefined);
    let told = 0;
    windows.subscribe(() => told++);
    windows.show(1, 1, 300);
    windows.onRangeChange(0, 20);
    await settle();
    expect(told).toBe(1);
    // A window of result 1 arriving after result 2 is on screen is kept for result 1, not shown.
    windows.onRangeChange(150, 170);
    windows.show(2, 2, 300);
    await settle();
    expect(told).toBe(1);
    windows.show(1, 1, 300);
    expect(windows.rowAt(160)).toEqual(rows[160]);
    for (let version = 3; version <= 6; version++) windows.show(2, version, 300);
    windows.show(1, 1, 300);
    expect(windows.rowAt(0)).toBeUndefined();
  });

  it('keeps the rows on screen when the result shown is answered again under the same handle', async () => {
    const worker = fakeWorker();
    const windows = new OrderWindows(worker.fetch, () => undefined);
    windows.show(1, 1, 300);
    windows.onRangeChange(0, 20);
    await settle();
    // The list asks again and the worker answers the same result (a reload's head while the cache is read).
    windows.accept(1, [{ page: 0, rows: worker.resultOf(1).slice(0, 100) }]);
    windows.show(1, 2, 300);
    expect(windows.rowAt(0)).toEqual(rows[0]);
    windows.onRangeChange(0, 20);
    await settle();
    expect(worker.asked).toEqual(['1:0', '1:1']);
  });
});
