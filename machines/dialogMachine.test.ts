import { createActor } from 'xstate';
import { dialogMachine, type DialogCloseReason, type DialogInput } from './dialogMachine';

function openDialog(input: DialogInput = {}) {
  const actor = createActor(dialogMachine, { input: { ...input, open: true } }).start();
  const reasons: DialogCloseReason[] = [];
  actor.on('closed', (e) => reasons.push(e.reason));
  return { actor, reasons };
}

describe('dialogMachine', () => {
  it.each([
    ['dialog.escape', 'escape'],
    ['dialog.outsideClick', 'outsideClick'],
    ['dialog.closeButton', 'closeButton'],
    ['dialog.confirm', 'confirm'],
    ['dialog.cancel', 'cancel'],
  ] as const)('closes on %s by default', (type, reason) => {
    const { actor, reasons } = openDialog();
    actor.send({ type });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(reasons).toEqual([reason]);
  });

  it('stays open on Escape and outside click when those are switched off (the apply dialogs)', () => {
    const { actor, reasons } = openDialog({ closeOnEscape: false, closeOnOutsideClick: false });
    actor.send({ type: 'dialog.escape' });
    actor.send({ type: 'dialog.outsideClick' });
    expect(actor.getSnapshot().value).toBe('open');
    expect(reasons).toEqual([]);
    actor.send({ type: 'dialog.cancel' });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('ignores the close button when it is hidden', () => {
    const { actor } = openDialog({ showCloseButton: false });
    actor.send({ type: 'dialog.closeButton' });
    expect(actor.getSnapshot().value).toBe('open');
  });

  it('starts closed unless asked to open', () => {
    const actor = createActor(dialogMachine, { input: {} }).start();
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'dialog.open' });
    expect(actor.getSnapshot().value).toBe('open');
  });
});
