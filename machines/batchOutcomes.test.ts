import { allPending, countOutcomes, failAll, reasonOf, requeueUndone, type ItemOutcomes } from './batchOutcomes';

describe('batch outcomes', () => {
  it('a failed chunk fails its items with the call’s reason, and a retry queues what is not done in the selection’s order', () => {
    const keys = ['a', 'b', 'c', 'd'];
    let outcomes: ItemOutcomes = { ...allPending(keys), a: { status: 'done' } };
    outcomes = failAll(outcomes, ['c'], 'Ozon refused');
    expect(countOutcomes(outcomes)).toEqual({ total: 4, done: 1, failed: 1, pending: 2 });

    const retry = requeueUndone(keys, outcomes);
    expect(retry.queue).toEqual(['b', 'c', 'd']);
    expect(retry.outcomes).toEqual({ a: { status: 'done' }, b: { status: 'pending' }, c: { status: 'pending' }, d: { status: 'pending' } });
    // The run it came from is left as it was.
    expect(outcomes.c).toEqual({ status: 'failed', reason: 'Ozon refused' });
  });

  it('words a failure by its message, a typed failure without one by its type', () => {
    expect(reasonOf({ type: 'Network', message: '网络连接失败' })).toBe('网络连接失败');
    expect(reasonOf({ type: 'StaleHandle' })).toBe('StaleHandle');
    expect(reasonOf(new Error('timeout'))).toBe('timeout');
    expect(reasonOf('plain')).toBe('plain');
  });
});
