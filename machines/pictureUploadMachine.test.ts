import { createActor, type Actor } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import { CARD_LIMITS } from '../contract/create';
import { OZON_IMAGE_RULES } from '../contract/edit';
import { controlledPromise, pathName, transitionPaths } from '../tests/support/transitionPaths';
import {
  pictureUploadMachine,
  selectIsUploading,
  selectPictureUploads,
  selectUploadProgress,
  type PictureUploadEvent,
  type PictureUploadSnapshot,
} from './pictureUploadMachine';

const file = (name: string, type = 'image/png', size = 1_000) => new File([new Uint8Array(size)], name, { type });
const refused = { type: 'BadRequest', code: 400, message: '图片边长不能小于200像素（Ozon要求）' };

function startHarness(cardCount: number) {
  const server = controlledPromise<{ file: File }, string>();
  const actor: Actor<typeof pictureUploadMachine> = createActor(pictureUploadMachine.provide({ actors: { upload: server.logic } }), { input: { cardCount } }).start();
  const stored: string[] = [];
  actor.on('upload.stored', ({ url }) => stored.push(url));
  return { actor, calls: server.calls, answer: server.answer, stored };
}

const shown = (actor: Actor<typeof pictureUploadMachine>) => selectPictureUploads(actor.getSnapshot()).map((u) => `${u.name}:${u.state}${u.problem ? `:${u.problem.kind}` : ''}`);

describe('picture upload machine', () => {
  it('checks each picked file before sending it: type, size, then the room left on the card', () => {
    const h = startHarness(CARD_LIMITS.images - 1);
    h.actor.send({ type: 'upload.pick', files: [file('a.gif', 'image/gif'), file('big.png', 'image/png', OZON_IMAGE_RULES.maxBytes + 1), file('b.png'), file('c.jpg', 'image/jpeg')] });
    expect(shown(h.actor)).toEqual(['a.gif:failed:wrongType', 'big.png:failed:tooLarge', 'b.png:uploading', 'c.jpg:failed:cardFull']);
    expect(selectPictureUploads(h.actor.getSnapshot())[1]!.problem).toEqual({ kind: 'tooLarge', size: OZON_IMAGE_RULES.maxBytes + 1 });
    expect(h.calls.map((c) => c.input.file.name)).toEqual(['b.png']);
    expect(selectUploadProgress(h.actor.getSnapshot())).toEqual({ done: 0, total: 1 });
    h.actor.stop();
  });

  it('sends one file at a time in the order picked, reports each stored link and keeps a refusal with its reason', async () => {
    const h = startHarness(0);
    h.actor.send({ type: 'upload.pick', files: [file('1.png'), file('2.png'), file('3.png')] });
    expect(shown(h.actor)).toEqual(['1.png:uploading', '2.png:waiting', '3.png:waiting']);
    expect(h.calls).toHaveLength(1);
    await h.answer({ type: 'xstate.done.actor.upload', output: '/p/1.png' });
    expect(h.stored).toEqual(['/p/1.png']);
    expect(shown(h.actor)).toEqual(['2.png:uploading', '3.png:waiting']);
    expect(selectUploadProgress(h.actor.getSnapshot())).toEqual({ done: 1, total: 3 });
    await h.answer({ type: 'xstate.error.actor.upload', error: refused });
    expect(shown(h.actor)).toEqual(['2.png:failed:refused', '3.png:uploading']);
    expect(selectPictureUploads(h.actor.getSnapshot())[0]!.problem).toEqual({ kind: 'refused', reason: refused.message });
    await h.answer({ type: 'xstate.done.actor.upload', output: '/p/3.png' });
    expect(h.calls.map((c) => c.input.file.name)).toEqual(['1.png', '2.png', '3.png']);
    expect(h.stored).toEqual(['/p/1.png', '/p/3.png']);
    expect(h.actor.getSnapshot().value).toBe('idle');
    expect(selectIsUploading(h.actor.getSnapshot())).toBe(false);
    expect(selectUploadProgress(h.actor.getSnapshot())).toBeNull();
    // The seller dismisses the refusal.
    h.actor.send({ type: 'upload.dismiss', id: selectPictureUploads(h.actor.getSnapshot())[0]!.id });
    expect(shown(h.actor)).toEqual([]);
    h.actor.stop();
  });

  it('a pick while files are on their way joins their count; a pick after starts a new one and clears old refusals', async () => {
    const h = startHarness(0);
    h.actor.send({ type: 'upload.pick', files: [file('1.png'), file('x.gif', 'image/gif')] });
    h.actor.send({ type: 'upload.pick', files: [file('2.png')] });
    expect(shown(h.actor)).toEqual(['1.png:uploading', '2.png:waiting']);
    expect(selectUploadProgress(h.actor.getSnapshot())).toEqual({ done: 0, total: 2 });
    await h.answer({ type: 'xstate.error.actor.upload', error: refused });
    await h.answer({ type: 'xstate.done.actor.upload', output: '/p/2.png' });
    expect(shown(h.actor)).toEqual(['1.png:failed:refused']);
    h.actor.send({ type: 'upload.pick', files: [file('3.png')] });
    expect(shown(h.actor)).toEqual(['3.png:uploading']);
    expect(selectUploadProgress(h.actor.getSnapshot())).toEqual({ done: 0, total: 1 });
    h.actor.stop();
  });

  it('refuses a stored file when the card filled up meanwhile, and counts the room with the files on their way', async () => {
    const h = startHarness(CARD_LIMITS.images - 2);
    h.actor.send({ type: 'upload.pick', files: [file('1.png')] });
    h.actor.send({ type: 'upload.pick', files: [file('2.png'), file('3.png')] });
    expect(shown(h.actor)).toEqual(['1.png:uploading', '2.png:waiting', '3.png:failed:cardFull']);
    // Two links added by hand while 1.png is on its way fill the card.
    h.actor.send({ type: 'card.changed', count: CARD_LIMITS.images });
    await h.answer({ type: 'xstate.done.actor.upload', output: '/p/1.png' });
    expect(h.stored).toEqual([]);
    expect(shown(h.actor)).toEqual(['1.png:failed:cardFull', '2.png:uploading', '3.png:failed:cardFull']);
    h.actor.stop();
  });

  it('dismisses only a refused file, never one on its way', () => {
    const h = startHarness(0);
    h.actor.send({ type: 'upload.pick', files: [file('1.png')] });
    h.actor.send({ type: 'upload.dismiss', id: selectPictureUploads(h.actor.getSnapshot())[0]!.id });
    expect(shown(h.actor)).toEqual(['1.png:uploading']);
    h.actor.stop();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Every path: the card starts with room for two pictures; the seller picks (two good files and a GIF; later one more),
// the card fills up by hand, the server stores or refuses, the seller dismisses a refusal.

type GraphEvent = PictureUploadEvent | { type: string; output?: unknown; error?: unknown };

const START = CARD_LIMITS.images - 2;

function eventsFor(snapshot: PictureUploadSnapshot): GraphEvent[] {
  const { uploads, total, cardCount } = snapshot.context;
  const events: GraphEvent[] = [];
  if (total < 3) events.push({ type: 'upload.pick', files: total === 0 ? [file('a.png'), file('b.png'), file('c.gif', 'image/gif')] : [file('d.png')] });
  const failed = uploads.find((u) => u.state === 'failed');
  if (failed) events.push({ type: 'upload.dismiss', id: failed.id });
  if (cardCount < CARD_LIMITS.images) events.push({ type: 'card.changed', count: CARD_LIMITS.images });
  if (snapshot.value === 'uploading') events.push({ type: 'xstate.done.actor.upload', output: '/p/stored.png' }, { type: 'xstate.error.actor.upload', error: refused });
  return events;
}

const seen = (snapshot: PictureUploadSnapshot) =>
  JSON.stringify({ value: snapshot.value, uploads: shownOf(snapshot), done: snapshot.context.done, total: snapshot.context.total, cardCount: snapshot.context.cardCount });
const shownOf = (snapshot: PictureUploadSnapshot) => selectPictureUploads(snapshot).map((u) => `${u.name}:${u.state}${u.problem ? `:${u.problem.kind}` : ''}`);

const traversal: TraversalOptions<never, never, { cardCount: number }> = {
  events: eventsFor as never,
  serializeState: seen as never,
  input: { cardCount: START },
};

describe('picture upload machine: every reachable state and transition', () => {
  const { shortest, paths } = transitionPaths<PictureUploadSnapshot>(pictureUploadMachine, traversal as never, seen);

  it('reaches idle and uploading, refusals of every kind and a stored file', () => {
    expect(new Set(shortest.map((path) => path.state.value))).toEqual(new Set(['idle', 'uploading']));
    const kinds = new Set(shortest.flatMap((path) => selectPictureUploads(path.state).map((u) => u.problem?.kind ?? u.state)));
    expect(kinds).toEqual(new Set(['uploading', 'waiting', 'wrongType', 'cardFull', 'refused']));
  });

  for (const path of paths) {
    it(`${pathName(path)} ⇒ ${JSON.stringify(path.state.value)}`, async () => {
      const h = startHarness(START);
      try {
        for (const step of path.steps) {
          const calls = h.calls.length;
          const stored = h.stored.length;
          const event = step.event as GraphEvent;
          if (event.type.startsWith('xstate.done') || event.type.startsWith('xstate.error')) await h.answer(event);
          else if (event.type !== 'xstate.init') h.actor.send(event as PictureUploadEvent);
          const snapshot = h.actor.getSnapshot();
          expect(seen(snapshot)).toBe(seen(step.state));
          const uploads = selectPictureUploads(snapshot);
          const sending = uploads.filter((u) => u.state === 'uploading');
          // One file on its way at a time, and it is the one the server was asked for.
          expect(sending.length).toBe(snapshot.value === 'uploading' ? 1 : 0);
          if (sending[0]) expect(h.calls.at(-1)!.input.file.name).toBe(sending[0].name);
          // The count shown: files sent of all picked, the rest still on their way.
          const onItsWay = uploads.filter((u) => u.state !== 'failed').length;
          if (onItsWay > 0) expect(selectUploadProgress(snapshot)!.total - selectUploadProgress(snapshot)!.done).toBe(onItsWay);
          else expect(selectUploadProgress(snapshot)).toBeNull();
          // The server is asked again only when the next file starts; a link is reported only for a file stored with room.
          expect(h.calls.length - calls).toBeLessThanOrEqual(1);
          const storedNow = event.type === 'xstate.done.actor.upload' && step.state.context.cardCount < CARD_LIMITS.images ? 1 : 0;
          expect(h.stored.length - stored).toBe(storedNow);
        }
      } finally {
        h.actor.stop();
      }
    });
  }
});
