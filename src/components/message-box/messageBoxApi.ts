import type { Actor } from 'xstate';
import type { MessageBoxAction, MessageBoxOptions, messageBoxMachine } from '@machines/messageBoxMachine';

export type MessageBoxResult = { action: MessageBoxAction; value: string };

/** Rejections carry the action, so `catch((r) => r.action === 'close')` tells cancel from close. */
export class MessageBoxDismissed extends Error {
  constructor(readonly action: Exclude<MessageBoxAction, 'confirm'>) {
    super(`message box ${action}`);
    this.name = 'MessageBoxDismissed';
  }
}

export type MessageBoxApi = {
  open: (options: MessageBoxOptions) => Promise<MessageBoxResult>;
  alert: (message: string, title?: string, options?: Partial<MessageBoxOptions>) => Promise<MessageBoxResult>;
  confirm: (message: string, title?: string, options?: Partial<MessageBoxOptions>) => Promise<MessageBoxResult>;
  prompt: (message: string, title?: string, options?: Partial<MessageBoxOptions>) => Promise<MessageBoxResult>;
};

let sequence = 0;

/** The promise face of the queue: resolves on confirm, rejects with MessageBoxDismissed on cancel or close. */
export function createMessageBoxApi(actor: Actor<typeof messageBoxMachine>): MessageBoxApi & { dispose: () => void } {
  const pending = new Map<string, { resolve: (r: MessageBoxResult) => void; reject: (e: MessageBoxDismissed) => void }>();
  const sub = actor.on('settled', ({ id, action, value }) => {
    const waiter = pending.get(id);
    if (!waiter) return;
    pending.delete(id);
    if (action === 'confirm') waiter.resolve({ action, value });
    else waiter.reject(new MessageBoxDismissed(action));
  });

  const open = (options: MessageBoxOptions) =>
    new Promise<MessageBoxResult>((resolve, reject) => {
      sequence += 1;
      const id = `box-${sequence}`;
      pending.set(id, { resolve, reject });
      actor.send({ type: 'messageBox.open', request: { id, options } });
    });

  return {
    open,
    alert: (message, title, options) => open({ showCancel: false, ...options, kind: 'alert', message, title }),
    confirm: (message, title, options) => open({ showCancel: true, ...options, kind: 'confirm', message, title }),
    prompt: (message, title, options) => open({ showCancel: true, ...options, kind: 'prompt', message, title }),
    dispose: () => sub.unsubscribe(),
  };
}
