import { createActor } from 'xstate';
import type { SystemMessage } from '../contract/chatWidget';
import { friendRequestMachine, type FriendRequestEmitted } from './friendRequestMachine';

const request: SystemMessage = {
  id: 7,
  from: { id: 3, name: '李雷', avatar: '' },
  type: 'applyFriend',
  message: 'hello',
  timestamp: 0,
};

function start(status?: SystemMessage['status']) {
  const actor = createActor(friendRequestMachine, { input: { request: { ...request, status } } }).start();
  const emitted: FriendRequestEmitted[] = [];
  actor.on('*', (e) => emitted.push(e));
  return { actor, emitted };
}

describe('friendRequestMachine', () => {
  it('accepts with the chosen group and emits acceptFriend, then is decided for good', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'request.agree' });
    expect(actor.getSnapshot().value).toBe('choosingGroup');
    const group = { label: '朋友', key: 1, value: 1 };
    actor.send({ type: 'request.groupChosen', group });
    expect(actor.getSnapshot().value).toBe('accepted');
    expect(emitted).toEqual([{ type: 'acceptFriend', data: { ...request, status: 'accept' }, group }]);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('rejects only after confirmation', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'request.reject' });
    actor.send({ type: 'request.dismissed' });
    expect(actor.getSnapshot().value).toBe('pending');
    expect(emitted).toEqual([]);
    actor.send({ type: 'request.reject' });
    actor.send({ type: 'request.rejectConfirmed' });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(emitted).toEqual([{ type: 'rejectFriend', data: { ...request, status: 'reject' } }]);
  });

  it('restores an already decided request without buttons', () => {
    expect(start('accept').actor.getSnapshot().value).toBe('accepted');
    expect(start('reject').actor.getSnapshot().value).toBe('rejected');
    expect(start('none').actor.getSnapshot().value).toBe('pending');
  });
});
