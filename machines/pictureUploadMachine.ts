import { assign, emit, fromPromise, setup } from 'xstate';
import { CARD_LIMITS } from '../contract/create';
import { OZON_IMAGE_RULES } from '../contract/edit';
import { reasonOf } from './batchOutcomes';

/**
 * Uploading pictures picked from the seller's computer into a card (the card form's picture list). Each picked file
 * is checked first the way Ozon would (JPG or PNG, at most 10 MB) and against the card's room (the pictures it has,
 * plus those already on their way); the files that pass wait in a queue and go through `upload` one at a time, so the
 * count shown is the count sent and each stored picture joins the card in the order picked. A stored picture is
 * reported with `upload.stored` (the card is the form's, not the machine's); a file that fails stays in the list with
 * why, until the seller dismisses it. A pick while files are on their way joins their count (`n / m`); a pick after
 * they are all done starts a new one.
 */

/** Why a file was not added: what the picker refused before sending, or the server's reason. */
export type UploadProblem = { kind: 'wrongType' } | { kind: 'tooLarge'; size: number } | { kind: 'cardFull' } | { kind: 'refused'; reason: string };

/** A picked file on its way, or refused with the reason. */
export type PictureUpload = { id: number; name: string; state: 'waiting' | 'uploading' | 'failed'; problem: UploadProblem | null };

type QueuedUpload = PictureUpload & { file: File | null };

export type PictureUploadContext = {
  uploads: QueuedUpload[];
  nextId: number;
  /** The pictures the card has now (the form reports each change with `card.changed`). */
  cardCount: number;
  /** Files sent and all to send in the current count. */
  done: number;
  total: number;
};

export type PictureUploadInput = { cardCount: number };

export type PictureUploadEvent =
  | { type: 'upload.pick'; files: File[] }
  | { type: 'upload.dismiss'; id: number }
  | { type: 'card.changed'; count: number };

export type PictureUploadEmitted = { type: 'upload.stored'; url: string };

const isOnItsWay = (upload: PictureUpload) => upload.state !== 'failed';

/** The check a file passes before it is sent: Ozon's picture rules, then the room left on the card. */
function problemOf(file: File, room: number): UploadProblem | null {
  if (!(OZON_IMAGE_RULES.types as readonly string[]).includes(file.type)) return { kind: 'wrongType' };
  if (file.size > OZON_IMAGE_RULES.maxBytes) return { kind: 'tooLarge', size: file.size };
  if (room <= 0) return { kind: 'cardFull' };
  return null;
}

/** Ends the file being sent: removed when stored, kept with why when not; the count moves on either way. */
const settle = (context: PictureUploadContext, problem: UploadProblem | null): Partial<PictureUploadContext> => ({
  uploads: problem
    ? context.uploads.map((u) => (u.state === 'uploading' ? { ...u, state: 'failed' as const, problem, file: null } : u))
    : context.uploads.filter((u) => u.state !== 'uploading'),
  done: context.done + 1,
});

export const pictureUploadMachine = setup({
  types: {
    context: {} as PictureUploadContext,
    input: {} as PictureUploadInput,
    events: {} as PictureUploadEvent,
    emitted: {} as PictureUploadEmitted,
  },
  actors: {
    /** Stores one file and answers its public link, or fails with the reason. */
    upload: fromPromise<string, { file: File }>(async () => {
      throw new Error('upload not provided');
    }),
  },
  guards: {
    hasWaiting: ({ context }) => context.uploads.some((u) => u.state === 'waiting'),
    isCardFull: ({ context }) => context.cardCount >= CARD_LIMITS.images,
  },
  actions: {
    takePick: assign(({ context, event }) => {
      if (event.type !== 'upload.pick') return {};
      const busy = context.uploads.filter(isOnItsWay).length;
      let room = CARD_LIMITS.images - context.cardCount - busy;
      let nextId = context.nextId;
      const picked = event.files.map((file): QueuedUpload => {
        const problem = problemOf(file, room);
        if (!problem) room -= 1;
        return { id: ++nextId, name: file.name, state: problem ? 'failed' : 'waiting', problem, file: problem ? null : file };
      });
      const sending = picked.filter((u) => u.state === 'waiting').length;
      return {
        uploads: [...context.uploads.filter(isOnItsWay), ...picked],
        nextId,
        ...(busy === 0 ? { done: 0, total: sending } : { total: context.total + sending }),
      };
    }),
    startNext: assign({
      uploads: ({ context }) => {
        const next = context.uploads.find((u) => u.state === 'waiting');
        return context.uploads.map((u) => (u === next ? { ...u, state: 'uploading' as const } : u));
      },
    }),
    refuseCardFull: assign(({ context }) => settle(context, { kind: 'cardFull' })),
    refuseUpload: assign(({ context }, params: { error: unknown }) => settle(context, { kind: 'refused', reason: reasonOf(params.error) })),
    store: assign(({ context }) => settle(context, null)),
    reportStored: emit((_, params: { url: string }) => ({ type: 'upload.stored' as const, url: params.url })),
    dismiss: assign({
      uploads: ({ context, event }) => (event.type === 'upload.dismiss' ? context.uploads.filter((u) => !(u.id === event.id && u.state === 'failed')) : context.uploads),
    }),
    noteCard: assign({ cardCount: ({ context, event }) => (event.type === 'card.changed' ? event.count : context.cardCount) }),
  },
}).createMachine({
  id: 'pictureUpload',
  context: ({ input }) => ({ uploads: [], nextId: 0, cardCount: input.cardCount, done: 0, total: 0 }),
  initial: 'idle',
  on: {
    'upload.dismiss': { actions: 'dismiss' },
    'card.changed': { actions: 'noteCard' },
  },
  states: {
    idle: {
      on: { 'upload.pick': { target: 'checkingQueue', actions: 'takePick' } },
    },
    checkingQueue: {
      always: [{ guard: 'hasWaiting', target: 'uploading' }, { target: 'idle' }],
    },
    uploading: {
      entry: 'startNext',
      on: { 'upload.pick': { actions: 'takePick' } },
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context }) => ({ file: context.uploads.find((u) => u.state === 'uploading')!.file! }),
        onDone: [
          // The card may have filled up while the file was on its way (pictures added by link).
          { guard: 'isCardFull', target: 'checkingQueue', actions: 'refuseCardFull' },
          { target: 'checkingQueue', actions: ['store', { type: 'reportStored', params: ({ event }) => ({ url: event.output }) }] },
        ],
        onError: { target: 'checkingQueue', actions: { type: 'refuseUpload', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});

export type PictureUploadSnapshot = { value: unknown; context: PictureUploadContext };

/** The list under the picker: files on their way and files refused (without the files themselves). */
export const selectPictureUploads = (s: PictureUploadSnapshot): PictureUpload[] => s.context.uploads.map(({ file: _file, ...upload }) => upload);

/** Whether a file is waiting or being sent. */
export const selectIsUploading = (s: PictureUploadSnapshot) => s.context.uploads.some(isOnItsWay);

/** The count shown while files are on their way: sent so far of all picked; null when nothing is on its way. */
export const selectUploadProgress = (s: PictureUploadSnapshot) =>
  selectIsUploading(s) && s.context.total > 0 ? { done: s.context.done, total: s.context.total } : null;
