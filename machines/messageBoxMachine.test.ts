import { createActor } from 'xstate';
import { messageBoxMachine, type MessageBoxSettled } from './messageBoxMachine';

function start() {
  const actor = createActor(messageBoxMachine).start();
  const settled: MessageBoxSettled[] = [];
  actor.on('settled', (e) => settled.push(e));
  return { actor, settled };
}

describe('messageBoxMachine', () => {
  it('shows one box at a time and opens queued ones in order', () => {
    const { actor, settled } = start();
    actor.send({ type: 'messageBox.open', request: { id: 'a', options: { kind: 'confirm', message: 'first' } } });
    actor.send({ type: 'messageBox.open', request: { id: 'b', options: { kind: 'confirm', message: 'second' } } });
    expect(actor.getSnapshot().context.current?.id).toBe('a');
    expect(actor.getSnapshot().context.queue).toHaveLength(1);

    actor.send({ type: 'messageBox.cancel' });
    expect(settled).toEqual([{ type: 'settled', id: 'a', action: 'cancel', value: '' }]);
    expect(actor.getSnapshot().context.current?.id).toBe('b');

    actor.send({ type: 'messageBox.close' });
    expect(settled[1]).toMatchObject({ id: 'b', action: 'close' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.current).toBeNull();
  });

  it('refuses to confirm a prompt whose value fails the pattern, and marks the input invalid', () => {
    const { actor, settled } = start();
    actor.send({
      type: 'messageBox.open',
      request: { id: 'p', options: { kind: 'prompt', message: 'name?', inputPattern: /^\w+$/ } },
    });
    actor.send({ type: 'messageBox.input', value: 'two words' });
    actor.send({ type: 'messageBox.confirm' });
    expect(settled).toHaveLength(0);
    expect(actor.getSnapshot().context.inputInvalid).toBe(true);

    // The mark clears as soon as the value becomes acceptable.
    actor.send({ type: 'messageBox.input', value: 'ok' });
    expect(actor.getSnapshot().context.inputInvalid).toBe(false);
    actor.send({ type: 'messageBox.confirm' });
    expect(settled).toEqual([{ type: 'settled', id: 'p', action: 'confirm', value: 'ok' }]);
  });

  it("keeps a validator's own message", () => {
    const { actor } = start();
    actor.send({
      type: 'messageBox.open',
      request: {
        id: 'v',
        options: { kind: 'prompt', message: 'group', inputValidator: (v) => (v.length > 3 ? 'too long' : true) },
      },
    });
    actor.send({ type: 'messageBox.input', value: 'abcdef' });
    actor.send({ type: 'messageBox.confirm' });
    expect(actor.getSnapshot().context).toMatchObject({ inputInvalid: true, validationMessage: 'too long' });
  });

  it('starts each prompt from its own initial value', () => {
    const { actor } = start();
    actor.send({ type: 'messageBox.open', request: { id: '1', options: { kind: 'prompt', message: 'a' } } });
    actor.send({
      type: 'messageBox.open',
      request: { id: '2', options: { kind: 'prompt', message: 'b', inputValue: 'preset' } },
    });
    actor.send({ type: 'messageBox.input', value: 'typed' });
    actor.send({ type: 'messageBox.confirm' });
    expect(actor.getSnapshot().context.inputValue).toBe('preset');
  });
});
