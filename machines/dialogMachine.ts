import { assertEvent, assign, emit, setup } from 'xstate';

/**
 * One dialog's open/closed life and its closing rules (chat-widget spec §4): the close button, Escape and an outside
 * click each close it only when their option allows. The apply dialogs turn Escape and outside click off.
 */

export type DialogCloseReason = 'confirm' | 'cancel' | 'closeButton' | 'escape' | 'outsideClick' | 'programmatic';

export type DialogRules = {
  closeOnEscape: boolean;
  closeOnOutsideClick: boolean;
  showCloseButton: boolean;
};

export type DialogContext = DialogRules & { lastCloseReason: DialogCloseReason | null; initiallyOpen: boolean };

export type DialogInput = Partial<DialogRules> & { open?: boolean };

export type DialogEvent =
  | { type: 'dialog.open' }
  | { type: 'dialog.confirm' }
  | { type: 'dialog.cancel' }
  | { type: 'dialog.closeButton' }
  | { type: 'dialog.escape' }
  | { type: 'dialog.outsideClick' }
  | { type: 'dialog.close' }
  | { type: 'dialog.setRules'; rules: Partial<DialogRules> };

export type DialogEmitted = { type: 'closed'; reason: DialogCloseReason } | { type: 'opened' };

const reasonOf = (type: DialogEvent['type']): DialogCloseReason => {
  switch (type) {
    case 'dialog.confirm':
      return 'confirm';
    case 'dialog.cancel':
      return 'cancel';
    case 'dialog.closeButton':
      return 'closeButton';
    case 'dialog.escape':
      return 'escape';
    case 'dialog.outsideClick':
      return 'outsideClick';
    default:
      return 'programmatic';
  }
};

export const dialogMachine = setup({
  types: {
    context: {} as DialogContext,
    events: {} as DialogEvent,
    input: {} as DialogInput,
    emitted: {} as DialogEmitted,
  },
  actions: {
    rememberReason: assign({ lastCloseReason: ({ event }) => reasonOf(event.type) }),
    announceClosed: emit(({ event }) => ({ type: 'closed' as const, reason: reasonOf(event.type) })),
    announceOpened: emit({ type: 'opened' as const }),
    setRules: assign(({ event }) => {
      assertEvent(event, 'dialog.setRules');
      return event.rules;
    }),
  },
  guards: {
    isEscapeAllowed: ({ context }) => context.closeOnEscape,
    isOutsideClickAllowed: ({ context }) => context.closeOnOutsideClick,
    isCloseButtonShown: ({ context }) => context.showCloseButton,
    isInitiallyOpen: ({ context }) => context.initiallyOpen,
  },
}).createMachine({
  id: 'dialog',
  context: ({ input }) => ({
    closeOnEscape: input.closeOnEscape ?? true,
    closeOnOutsideClick: input.closeOnOutsideClick ?? true,
    showCloseButton: input.showCloseButton ?? true,
    lastCloseReason: null,
    initiallyOpen: input.open ?? false,
  }),
  initial: 'deciding',
  on: { 'dialog.setRules': { actions: 'setRules' } },
  states: {
    deciding: {
      always: [
        { guard: 'isInitiallyOpen', target: 'open' },
        { target: 'closed' },
      ],
    },
    closed: {
      on: { 'dialog.open': { target: 'open', actions: 'announceOpened' } },
    },
    open: {
      on: {
        'dialog.confirm': { target: 'closed', actions: ['rememberReason', 'announceClosed'] },
        'dialog.cancel': { target: 'closed', actions: ['rememberReason', 'announceClosed'] },
        'dialog.close': { target: 'closed', actions: ['rememberReason', 'announceClosed'] },
        'dialog.closeButton': { guard: 'isCloseButtonShown', target: 'closed', actions: ['rememberReason', 'announceClosed'] },
        'dialog.escape': { guard: 'isEscapeAllowed', target: 'closed', actions: ['rememberReason', 'announceClosed'] },
        'dialog.outsideClick': {
          guard: 'isOutsideClickAllowed',
          target: 'closed',
          actions: ['rememberReason', 'announceClosed'],
        },
      },
    },
  },
});

export const selectIsOpen = (snapshot: { matches: (state: 'open') => boolean }) => snapshot.matches('open');
export const selectRules = (snapshot: { context: DialogContext }): DialogRules => ({
  closeOnEscape: snapshot.context.closeOnEscape,
  closeOnOutsideClick: snapshot.context.closeOnOutsideClick,
  showCloseButton: snapshot.context.showCloseButton,
});
