import { createActor, fromPromise } from 'xstate';
import { parseTrackNumbers, type TrackResult, type TrackSearchAnswer } from '../contract/tracking';
import { trackSearchMachine } from './trackSearchMachine';

const result = (number: string): TrackResult => ({
  number,
  carrier: 'russianPost',
  routedBy: 'auto',
  posting: null,
  status: 'inTransit',
  events: [],
  fetchedAt: '2026-11-26T10:00:00.000Z',
  fromCache: false,
  problem: null,
  detail: null,
});

function searches() {
  const pending: { numbers: string[]; resolve: (a: TrackSearchAnswer) => void; reject: (e: unknown) => void }[] = [];
  const track = fromPromise<TrackSearchAnswer, { numbers: string[] }>(
    ({ input }) => new Promise((resolve, reject) => pending.push({ numbers: input.numbers, resolve, reject })),
  );
  const actor = createActor(trackSearchMachine.provide({ actors: { track } })).start();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { pending, actor, settle };
}

describe('the tracking search', () => {
  it('shows the results of the search, keeps them while the next one runs, and takes the newest only', async () => {
    const { pending, actor, settle } = searches();
    actor.send({ type: 'search', numbers: ['RA123456785RU'] });
    expect(actor.getSnapshot().value).toBe('searching');
    pending[0]!.resolve({ results: [result('RA123456785RU')] });
    await settle();
    expect(actor.getSnapshot().value).toBe('done');
    actor.send({ type: 'search', numbers: ['A1'] });
    actor.send({ type: 'search', numbers: ['B2'] });
    expect(actor.getSnapshot().context.results.map((r) => r.number)).toEqual(['RA123456785RU']);
    // The replaced search answers late: ignored; the newest one's answer is what shows.
    pending[1]!.resolve({ results: [result('A1')] });
    pending[2]!.resolve({ results: [result('B2')] });
    await settle();
    expect(actor.getSnapshot().context.results.map((r) => r.number)).toEqual(['B2']);
  });

  it('keeps the numbers after a failure and searches them again on retry', async () => {
    const { pending, actor, settle } = searches();
    actor.send({ type: 'search', numbers: ['RA123456785RU', 'LP00612345678912'] });
    pending[0]!.reject({ code: 504, message: 'timeout' });
    await settle();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toMatchObject({ code: 504 });
    actor.send({ type: 'retry' });
    expect(pending[1]!.numbers).toEqual(['RA123456785RU', 'LP00612345678912']);
    pending[1]!.resolve({ results: [] });
    await settle();
    expect(actor.getSnapshot()).toMatchObject({ value: 'done', context: { error: null } });
  });
});

describe('pasted tracking numbers', () => {
  it('splits on any separator, upper-cases, drops repeats and names what is not a number', () => {
    expect(parseTrackNumbers(' ra123456785ru, LP00612345678912\n\nRA123456785RU；12 x; 31234567-0001-1 ')).toEqual({
      numbers: ['RA123456785RU', 'LP00612345678912', '31234567-0001-1'],
      invalid: ['12', 'X'],
      tooMany: false,
    });
    expect(parseTrackNumbers(Array.from({ length: 41 }, (_, i) => `RA${100000000 + i}RU`).join(' ')).tooMany).toBe(true);
  });
});
