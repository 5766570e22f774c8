import { assertEvent, assign, emit, setup } from 'xstate';

/**
 * The message box queue (chat-widget spec §4): one box at a time, later requests wait their turn. A box settles with
 * confirm, cancel or close; whoever opened it learns the outcome through the `settled` emitted event (the component's
 * promise API resolves on confirm and rejects otherwise).
 */

export type MessageBoxKind = 'alert' | 'confirm' | 'prompt';

export type MessageBoxAction = 'confirm' | 'cancel' | 'close';

/** Returns true when valid, false or an error message when not (the Element UI convention the spec's prompt follows). */
export type PromptValidator = (value: string) => boolean | string;

export type MessageBoxOptions = {
  kind: MessageBoxKind;
  title?: string;
  message: string;
  confirmText?: string;
  cancelText?: string;
  showCancel?: boolean;
  inputValue?: string;
  inputPlaceholder?: string;
  inputPattern?: RegExp;
  inputValidator?: PromptValidator;
  /** Shown when the pattern or validator refuses; the component falls back to its localised default. */
  inputErrorMessage?: string;
};

export type MessageBoxRequest = { id: string; options: MessageBoxOptions };

export type MessageBoxContext = {
  queue: MessageBoxRequest[];
  current: MessageBoxRequest | null;
  inputValue: string;
  inputInvalid: boolean;
  /** A validator's own message, when it returned one; otherwise the configured or default message applies. */
  validationMessage: string | null;
};

export type MessageBoxEvent =
  | { type: 'messageBox.open'; request: MessageBoxRequest }
  | { type: 'messageBox.input'; value: string }
  | { type: 'messageBox.confirm' }
  | { type: 'messageBox.cancel' }
  | { type: 'messageBox.close' };

export type MessageBoxSettled = { type: 'settled'; id: string; action: MessageBoxAction; value: string };

export type PromptCheck = { valid: true } | { valid: false; message: string | null };

export function checkPrompt(options: MessageBoxOptions, value: string): PromptCheck {
  if (options.kind !== 'prompt') return { valid: true };
  if (options.inputPattern) {
    options.inputPattern.lastIndex = 0;
    if (!options.inputPattern.test(value)) return { valid: false, message: null };
  }
  if (options.inputValidator) {
    const verdict = options.inputValidator(value);
    if (verdict === false) return { valid: false, message: null };
    if (typeof verdict === 'string') return { valid: false, message: verdict };
  }
  return { valid: true };
}

export const messageBoxMachine = setup({
  types: {
    context: {} as MessageBoxContext,
    events: {} as MessageBoxEvent,
    emitted: {} as MessageBoxSettled,
  },
  actions: {
    enqueue: assign({
      queue: ({ context, event }) => {
        assertEvent(event, 'messageBox.open');
        return [...context.queue, event.request];
      },
    }),
    startNext: assign(({ context }) => {
      const [next, ...rest] = context.queue;
      return {
        current: next ?? null,
        queue: rest,
        inputValue: next?.options.inputValue ?? '',
        inputInvalid: false,
        validationMessage: null,
      };
    }),
    setInput: assign(({ event }) => {
      assertEvent(event, 'messageBox.input');
      return { inputValue: event.value };
    }),
    markInvalid: assign(({ context }) => {
      const check = context.current ? checkPrompt(context.current.options, context.inputValue) : { valid: true as const };
      return { inputInvalid: true, validationMessage: check.valid ? null : check.message };
    }),
    revalidate: assign(({ context }) => {
      // Once marked invalid, the mark follows the input so the user sees when the value becomes acceptable.
      if (!context.inputInvalid || !context.current) return {};
      const check = checkPrompt(context.current.options, context.inputValue);
      return check.valid ? { inputInvalid: false, validationMessage: null } : { validationMessage: check.message };
    }),
    settle: emit(({ context, event }) => {
      const action: MessageBoxAction =
        event.type === 'messageBox.confirm' ? 'confirm' : event.type === 'messageBox.cancel' ? 'cancel' : 'close';
      return { type: 'settled' as const, id: context.current?.id ?? '', action, value: context.inputValue };
    }),
  },
  guards: {
    hasQueued: ({ context }) => context.queue.length > 0,
    isInputValid: ({ context }) =>
      context.current === null || checkPrompt(context.current.options, context.inputValue).valid,
  },
}).createMachine({
  id: 'messageBox',
  context: { queue: [], current: null, inputValue: '', inputInvalid: false, validationMessage: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'messageBox.open': { target: 'showing', actions: ['enqueue', 'startNext'] } },
    },
    showing: {
      on: {
        'messageBox.open': { actions: 'enqueue' },
        'messageBox.input': { actions: ['setInput', 'revalidate'] },
        'messageBox.confirm': [
          { guard: 'isInputValid', target: 'settling', actions: 'settle' },
          { actions: 'markInvalid' },
        ],
        'messageBox.cancel': { target: 'settling', actions: 'settle' },
        'messageBox.close': { target: 'settling', actions: 'settle' },
      },
    },
    settling: {
      always: [
        { guard: 'hasQueued', target: 'showing', actions: 'startNext' },
        { target: 'idle', actions: assign({ current: null, inputValue: '', inputInvalid: false, validationMessage: null }) },
      ],
    },
  },
});

export const selectCurrentBox = (snapshot: { context: MessageBoxContext }) => snapshot.context.current;
export const selectQueueLength = (snapshot: { context: MessageBoxContext }) => snapshot.context.queue.length;
export const selectPromptState = (snapshot: { context: MessageBoxContext }) => ({
  value: snapshot.context.inputValue,
  invalid: snapshot.context.inputInvalid,
  message: snapshot.context.validationMessage,
});
