import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { OrderQuery, OrderQueryResult } from '../workers/orders/types';
import { listMachine, type OpenListInput, type OpenListOutput, type ListEvent, type RunQueryInput } from './listMachine';

type Pending = { input: RunQueryInput; resolve: (result: OrderQueryResult) => void };

function harness(options: { openFails?: boolean } = {}) {
  const pending: Pending[] = [];
  let seq = 0;
  let send: ((event: ListEvent) => void) | null = null;
  const machine = listMachine.provide({
    actors: {
      openList: fromPromise(async () => {
        if (options.openFails) throw { message: '网络问题，请重试' };
        return { rows: 10 };
      }),
      runQuery: fromPromise<OrderQueryResult, RunQueryInput>(
        ({ input }) => new Promise((resolve) => pending.push({ input, resolve })),
      ),
      listEvents: fromCallback(({ sendBack }) => {
        send = sendBack;
      }),
    },
  });
  const actor = createActor(machine, { input: { userId: 7 } }).start();
  return { actor, pending, push: (event: ListEvent) => send!(event), nextSeq: () => ++seq };
}

const done = (handle: number, total: number, seq: number): OrderQueryResult => ({ status: 'done', handle, total, seq });

describe('listMachine', () => {
  it('opens the orders, runs the first query and shows its total', async () => {
    const { actor, pending } = harness();
    expect(actor.getSnapshot().matches('opening')).toBe(true);
    await waitFor(actor, (s) => s.matches('querying'));
    pending[0]!.resolve(done(1, 10, 1));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ handle: 1, total: 10, resultVersion: 1 });
  });

  it('starts ready with a first answer that is already here, without opening or querying, and queries on changes as usual', async () => {
    const calls: string[] = [];
    const pending: Pending[] = [];
    let send: ((event: ListEvent) => void) | null = null;
    const machine = listMachine.provide({
      actors: {
        openList: fromPromise(async () => {
          calls.push('open');
          return { rows: 0 };
        }),
        runQuery: fromPromise<OrderQueryResult, RunQueryInput>(({ input }) => new Promise((resolve) => pending.push({ input, resolve }))),
        listEvents: fromCallback(({ sendBack }) => {
          send = sendBack;
        }),
      },
    });
    const actor = createActor(machine, { input: { userId: 7, query: { search: 'x' }, first: { held: 5_000, synced: true, handle: 4, total: 12 } } }).start();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ handle: 4, total: 12, resultVersion: 1, held: 5_000, synced: true });
    expect(calls).toEqual([]);
    expect(pending).toEqual([]);
    send!({ type: 'list.changed', total: 9_000 });
    expect(pending.map((p) => p.input.query)).toEqual([{ search: 'x' }]);
    pending[0]!.resolve(done(5, 20, 1));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ handle: 5, total: 20, resultVersion: 2, held: 9_000 });
  });

  it('lets a newer query supersede an older one: the older answer never shows, even when it arrives last', async () => {
    const { actor, pending } = harness();
    await waitFor(actor, (s) => s.matches('querying'));
    pending[0]!.resolve(done(1, 10, 1));
    await waitFor(actor, (s) => s.matches('ready'));

    const older: OrderQuery = { search: 'a' };
    const newer: OrderQuery = { search: 'ab' };
    actor.send({ type: 'list.query', query: older });
    actor.send({ type: 'list.query', query: newer });
    expect(pending.map((p) => p.input.query)).toEqual([{}, older, newer]);
    pending[2]!.resolve(done(3, 2, 3));
    await waitFor(actor, (s) => s.matches('ready'));
    pending[1]!.resolve(done(2, 5, 2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().context).toMatchObject({ handle: 3, total: 2, query: newer });
  });

  it('runs the current query again when the rows change, and reports sync progress', async () => {
    const { actor, pending, push } = harness();
    await waitFor(actor, (s) => s.matches('querying'));
    pending[0]!.resolve(done(1, 10, 1));
    await waitFor(actor, (s) => s.matches('ready'));
    push({ type: 'list.syncProgress', progress: { rows: 5, hasMore: true, total: 15 } });
    expect(actor.getSnapshot().context.sync).toEqual({ rows: 5, hasMore: true, total: 15 });
    push({ type: 'list.changed', total: 15 });
    expect(actor.getSnapshot().matches('querying')).toBe(true);
    pending[1]!.resolve(done(2, 15, 2));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ total: 15, held: 15, resultVersion: 2 });
    push({ type: 'list.syncProgress', progress: { rows: 5, hasMore: false, total: 15 } });
    expect(actor.getSnapshot().context.sync).toBeNull();
  });

  it('fails with the worker\'s message when opening fails, and retries on request', async () => {
    const { actor } = harness({ openFails: true });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('网络问题，请重试');
    actor.send({ type: 'list.retry' });
    expect(actor.getSnapshot().matches('opening')).toBe(true);
  });
});

describe('listMachine: first sync', () => {
  const provide = (open: { rows: number; cursor: string | null }) => {
    let sendBack: ((event: ListEvent) => void) | null = null;
    const machine = listMachine.provide({
      actors: {
        openList: fromPromise<OpenListOutput, OpenListInput>(async () => open),
        runQuery: fromPromise<OrderQueryResult, RunQueryInput>(async () => ({ status: 'done', seq: 1, handle: 1, total: 0 })),
        listEvents: fromCallback(({ sendBack: send }) => {
          sendBack = send as (event: ListEvent) => void;
        }),
      },
    });
    const actor = createActor(machine, { input: { userId: 1 } }).start();
    return { actor, push: (event: ListEvent) => sendBack?.(event) };
  };

  it('does not call an empty first visit "no orders" until the first sync has finished', async () => {
    const { actor, push } = provide({ rows: 0, cursor: null });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.synced).toBe(false);
    push({ type: 'list.syncProgress', progress: { rows: 0, hasMore: true, total: 0 } });
    expect(actor.getSnapshot().context.synced).toBe(false);
    push({ type: 'list.syncProgress', progress: { rows: 0, hasMore: false, total: 0 } });
    expect(actor.getSnapshot().context.synced).toBe(true);
  });

  it('trusts a cache that has synced before, and a failed sync ends the wait too', async () => {
    const warm = provide({ rows: 0, cursor: '2026-11-21T00:00:00Z:1' });
    await waitFor(warm.actor, (s) => s.matches('ready'));
    expect(warm.actor.getSnapshot().context.synced).toBe(true);

    const cold = provide({ rows: 0, cursor: null });
    await waitFor(cold.actor, (s) => s.matches('ready'));
    cold.push({ type: 'list.syncFailed', message: '网络问题，请重试' });
    expect(cold.actor.getSnapshot().context.synced).toBe(true);
  });
});
