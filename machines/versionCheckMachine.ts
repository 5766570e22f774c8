import { assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { VersionFile } from '@contract/session';

/**
 * The version checker (seller-tool §2.4): reads the current version at start, then every 60 s fetches the version
 * file. A higher version with `isUpdate` stops the checks and asks the app to show a persistent notice; closing that
 * notice restarts the checks. A paused flag stops them too.
 */

export const VERSION_CHECK_DELAY_MS = 60_000;

export type VersionCheckContext = { current: string | null; latest: VersionFile | null; paused: boolean };
export type VersionCheckEvent =
  | { type: 'version.dismiss' }
  | { type: 'version.pause' }
  | { type: 'version.resume' };
export type VersionCheckEmitted = { type: 'version.updateAvailable'; version: string };
export type VersionCheckInput = { paused?: boolean };

/** Numeric dotted versions, compared part by part: 0.10.0 is higher than 0.9.9. */
export function isHigherVersion(candidate: string, current: string): boolean {
  const parts = (version: string) => version.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  const a = parts(candidate);
  const b = parts(current);
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return false;
}

export const versionCheckMachine = setup({
  types: {
    context: {} as VersionCheckContext,
    events: {} as VersionCheckEvent,
    emitted: {} as VersionCheckEmitted,
    input: {} as VersionCheckInput,
  },
  actors: {
    fetchVersion: fromPromise<VersionFile>(async () => {
      throw new Error('fetchVersion not provided');
    }),
  },
  delays: { checkDelay: VERSION_CHECK_DELAY_MS },
  guards: {
    isPaused: ({ context }) => context.paused,
    isUpdate: ({ context }) =>
      context.current !== null && context.latest !== null && context.latest.isUpdate && isHigherVersion(context.latest.version, context.current),
  },
}).createMachine({
  id: 'versionCheck',
  context: ({ input }) => ({ current: null, latest: null, paused: input.paused ?? false }),
  initial: 'readingCurrent',
  on: {
    'version.pause': { target: '.paused', actions: assign({ paused: true }) },
  },
  states: {
    readingCurrent: {
      invoke: {
        src: 'fetchVersion',
        onDone: { target: 'waiting', actions: assign({ current: ({ event }) => event.output.version }) },
        // Unknown for now: the next answer becomes the current version.
        onError: 'waiting',
      },
    },
    waiting: {
      always: { guard: 'isPaused', target: 'paused' },
      after: { checkDelay: 'checking' },
    },
    checking: {
      invoke: {
        src: 'fetchVersion',
        onDone: [
          {
            guard: ({ context, event }) => context.current === null || !event.output.isUpdate,
            target: 'waiting',
            actions: assign(({ context, event }) => ({ latest: event.output, current: context.current ?? event.output.version })),
          },
          { target: 'decide', actions: assign({ latest: ({ event }) => event.output }) },
        ],
        onError: 'waiting',
      },
    },
    decide: {
      always: [
        {
          guard: 'isUpdate',
          target: 'updateAvailable',
          actions: emit(({ context }) => ({ type: 'version.updateAvailable' as const, version: context.latest?.version ?? '' })),
        },
        { target: 'waiting' },
      ],
    },
    updateAvailable: {
      on: { 'version.dismiss': 'waiting' },
    },
    paused: {
      on: { 'version.resume': { target: 'waiting', actions: assign({ paused: false }) } },
    },
  },
});

export type VersionCheckSnapshot = SnapshotFrom<typeof versionCheckMachine>;
export const selectIsChecking = (snapshot: VersionCheckSnapshot) => snapshot.matches('waiting') || snapshot.matches('checking');
export const selectUpdateAvailable = (snapshot: VersionCheckSnapshot) => snapshot.matches('updateAvailable');
