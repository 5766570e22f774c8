import { assertEvent, assign, fromCallback, setup, type SnapshotFrom } from 'xstate';
import type { Notice } from '@contract/session';

/**
 * The notice banner (seller-tool §2.3, §2.4, §4): the newest notice comes from the worker's notice check, which runs
 * every 65 s only while the user's follow or plug validity is current, and from the server's push. The user closes the
 * banner; that dismissal is remembered per notice date, so the next notice shows again.
 */

export type NoticeContext = { notice: Notice | null; dismissed: string | null; enabled: boolean };
export type NoticeEvent =
  | { type: 'notice.received'; notice: Notice | null }
  | { type: 'notice.dismiss' }
  /** Follow or plug validity became current (or not): the check runs only while it is. */
  | { type: 'notice.setEnabled'; enabled: boolean };
export type NoticeInput = { dismissed: string | null; enabled: boolean };
export type NoticePollerEvent = Extract<NoticeEvent, { type: 'notice.received' }>;

export const noticeMachine = setup({
  types: {
    context: {} as NoticeContext,
    events: {} as NoticeEvent,
    input: {} as NoticeInput,
  },
  actors: {
    noticePoller: fromCallback<NoticeEvent, void>(() => {
      throw new Error('noticePoller not provided');
    }),
  },
  actions: {
    persistDismissed: (_, _updateTime: string) => {},
  },
  guards: {
    isEnabled: ({ context }) => context.enabled,
  },
}).createMachine({
  id: 'notice',
  context: ({ input }) => ({ notice: null, dismissed: input.dismissed, enabled: input.enabled }),
  initial: 'deciding',
  on: {
    'notice.received': { actions: assign({ notice: ({ event }) => event.notice }) },
    'notice.dismiss': {
      guard: ({ context }) => context.notice !== null,
      actions: [
        assign({ dismissed: ({ context }) => context.notice?.updateTime ?? null }),
        { type: 'persistDismissed', params: ({ context }) => context.notice?.updateTime ?? '' },
      ],
    },
    'notice.setEnabled': {
      target: '.deciding',
      actions: assign({
        enabled: ({ event }) => {
          assertEvent(event, 'notice.setEnabled');
          return event.enabled;
        },
      }),
    },
  },
  states: {
    deciding: {
      always: [{ guard: 'isEnabled', target: 'checking' }, { target: 'idle' }],
    },
    idle: {},
    checking: {
      invoke: { src: 'noticePoller' },
    },
  },
});

export type NoticeSnapshot = SnapshotFrom<typeof noticeMachine>;
/** The banner's notice: the newest one unless the user closed that very one. */
export const selectVisibleNotice = (snapshot: Pick<NoticeSnapshot, 'context'>): Notice | null => {
  const { notice, dismissed } = snapshot.context;
  return notice && notice.text.trim() !== '' && notice.updateTime !== dismissed ? notice : null;
};
export const selectIsChecking = (snapshot: NoticeSnapshot) => snapshot.matches('checking');
