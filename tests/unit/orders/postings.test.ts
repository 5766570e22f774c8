import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../../contract/orders';
import { OrderEngine } from '../../../workers/orders/engine';
import type { OrderQuery } from '../../../workers/orders/types';
import { generateOrders } from './generate';

const POSTINGS = { by: 'postingNumber', sum: ['quantity', 'amount'] } as const;

function line(id: string, postingNumber: string, change: Partial<OrderRow>): OrderRow {
  const [base] = generateOrders({ count: 1, idPrefix: id });
  return { ...base!, id, postingNumber, ...change };
}

async function answer(engine: OrderEngine, query: OrderQuery) {
  const result = await engine.query(query);
  if (result.status !== 'done') throw new Error('superseded');
  return engine.window(result.handle, 0, result.total).rows;
}

describe('the posting view (rows grouped by posting in the engine)', () => {
  const rows = [
    line('a1', 'P-1', { amount: 10, quantity: 1, status: 'awaiting_packaging', inProcessAt: 3 }),
    line('b1', 'P-2', { amount: 50, quantity: 2, status: 'delivering', inProcessAt: 2 }),
    line('a2', 'P-1', { amount: 30, quantity: 2, status: 'delivering', inProcessAt: 3 }),
    // Entered orders have no posting: each is its own.
    line('m1', '', { amount: 5, quantity: 1, source: 'manual', inProcessAt: 1 }),
    line('m2', '', { amount: 7, quantity: 1, source: 'manual', inProcessAt: 1 }),
  ];

  it('answers one row per posting, in the result order, with its lines counted and summed', async () => {
    const engine = new OrderEngine();
    engine.load(rows);
    const shown = await answer(engine, { sort: { column: 'amount', direction: 'desc' }, group: POSTINGS });
    expect(shown.map((row) => [row.postingNumber, row.id, row.groupRows, row.quantity, row.amount])).toEqual([
      ['P-2', 'b1', 1, 2, 50],
      ['P-1', 'a2', 2, 3, 40],
      ['', 'm2', 1, 1, 7],
      ['', 'm1', 1, 1, 5],
    ]);
    // The line view is unchanged.
    expect(await answer(engine, { sort: { column: 'amount', direction: 'desc' } })).toHaveLength(5);
  });

  it('shows a posting when any of its lines matches, with all of its lines, and follows changes', async () => {
    const engine = new OrderEngine();
    engine.load(rows);
    const waiting = await answer(engine, { filters: { statuses: ['awaiting_packaging'] }, group: POSTINGS });
    expect(waiting.map((row) => [row.id, row.groupRows, row.amount])).toEqual([['a1', 2, 40]]);
    expect((await engine.groupOf('a1', 'postingNumber')).map((row) => row.id)).toEqual(['a1', 'a2']);
    engine.upsert([line('a3', 'P-1', { amount: 1, quantity: 1 })]);
    engine.remove(['a2']);
    const after = await answer(engine, { filters: { statuses: ['awaiting_packaging'] }, group: POSTINGS });
    expect(after.map((row) => [row.id, row.groupRows, row.amount])).toEqual([['a1', 2, 11]]);
  });
});
