import { assertEvent, assign, emit, setup } from 'xstate';
import type { GroupOption, SystemMessage } from '../contract/chatWidget';

/**
 * One friend application in the system-message tab (chat-widget spec §4): pending until the user agrees (after
 * choosing a group in the confirmFriend dialog) or rejects (after confirming). Once decided, the buttons give way to
 * the text "agreed" / "rejected" for good.
 */

export type FriendRequestContext = { request: SystemMessage; group: GroupOption | null };

export type FriendRequestInput = { request: SystemMessage };

export type FriendRequestEvent =
  | { type: 'request.agree' }
  | { type: 'request.reject' }
  | { type: 'request.groupChosen'; group: GroupOption | null }
  | { type: 'request.rejectConfirmed' }
  | { type: 'request.dismissed' };

export type FriendRequestEmitted =
  | { type: 'acceptFriend'; data: SystemMessage; group: GroupOption | null }
  | { type: 'rejectFriend'; data: SystemMessage };

export const friendRequestMachine = setup({
  types: {
    context: {} as FriendRequestContext,
    input: {} as FriendRequestInput,
    events: {} as FriendRequestEvent,
    emitted: {} as FriendRequestEmitted,
  },
  actions: {
    rememberGroup: assign({
      group: ({ event }) => {
        assertEvent(event, 'request.groupChosen');
        return event.group;
      },
    }),
    emitAccept: emit(({ context }) => ({
      type: 'acceptFriend' as const,
      data: { ...context.request, status: 'accept' as const },
      group: context.group,
    })),
    emitReject: emit(({ context }) => ({ type: 'rejectFriend' as const, data: { ...context.request, status: 'reject' as const } })),
  },
  guards: {
    isAlreadyAccepted: ({ context }) => context.request.status === 'accept',
    isAlreadyRejected: ({ context }) => context.request.status === 'reject',
  },
}).createMachine({
  id: 'friendRequest',
  context: ({ input }) => ({ request: input.request, group: null }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [
        { guard: 'isAlreadyAccepted', target: 'accepted' },
        { guard: 'isAlreadyRejected', target: 'rejected' },
        { target: 'pending' },
      ],
    },
    pending: {
      on: {
        'request.agree': 'choosingGroup',
        'request.reject': 'confirmingReject',
      },
    },
    choosingGroup: {
      on: {
        'request.groupChosen': { target: 'accepted', actions: ['rememberGroup', 'emitAccept'] },
        'request.dismissed': 'pending',
      },
    },
    confirmingReject: {
      on: {
        'request.rejectConfirmed': { target: 'rejected', actions: 'emitReject' },
        'request.dismissed': 'pending',
      },
    },
    accepted: { type: 'final' },
    rejected: { type: 'final' },
  },
});

export type FriendRequestStatus = 'pending' | 'choosingGroup' | 'confirmingReject' | 'accepted' | 'rejected';

export const selectRequestStatus = (snapshot: { value: unknown }): FriendRequestStatus =>
  snapshot.value as FriendRequestStatus;
export const selectIsDecided = (snapshot: { value: unknown }) =>
  snapshot.value === 'accepted' || snapshot.value === 'rejected';
