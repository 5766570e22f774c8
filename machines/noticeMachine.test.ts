import { createActor, fromCallback } from 'xstate';
import { noticeMachine, selectIsChecking, selectVisibleNotice } from './noticeMachine';

function start(input: { dismissed: string | null; enabled: boolean }) {
  const pollers = { started: 0, stopped: 0 };
  const persisted: string[] = [];
  const actor = createActor(
    noticeMachine.provide({
      actors: {
        noticePoller: fromCallback(() => {
          pollers.started += 1;
          return () => {
            pollers.stopped += 1;
          };
        }),
      },
      actions: { persistDismissed: (_, updateTime) => void persisted.push(updateTime) },
    }),
    { input },
  ).start();
  return { actor, pollers, persisted };
}

const notice = { text: '系统将于今晚维护', updateTime: '2025-06-05 10:00:00' };

describe('notice banner', () => {
  it('checks only while follow or plug validity is current', () => {
    const { actor, pollers } = start({ dismissed: null, enabled: false });
    expect(selectIsChecking(actor.getSnapshot())).toBe(false);
    expect(pollers.started).toBe(0);
    actor.send({ type: 'notice.setEnabled', enabled: true });
    expect(pollers.started).toBe(1);
    actor.send({ type: 'notice.setEnabled', enabled: false });
    expect(pollers.stopped).toBe(1);
  });

  it('shows the newest notice until the user closes it, and remembers that per notice date', () => {
    const { actor, persisted } = start({ dismissed: null, enabled: true });
    actor.send({ type: 'notice.received', notice });
    expect(selectVisibleNotice(actor.getSnapshot())).toEqual(notice);
    actor.send({ type: 'notice.dismiss' });
    expect(selectVisibleNotice(actor.getSnapshot())).toBeNull();
    expect(persisted).toEqual([notice.updateTime]);
    // The same notice again stays closed; a newer one shows.
    actor.send({ type: 'notice.received', notice });
    expect(selectVisibleNotice(actor.getSnapshot())).toBeNull();
    const newer = { text: '新功能上线', updateTime: '2025-06-06 09:00:00' };
    actor.send({ type: 'notice.received', notice: newer });
    expect(selectVisibleNotice(actor.getSnapshot())).toEqual(newer);
  });

  it('a notice dismissed in an earlier visit stays closed', () => {
    const { actor } = start({ dismissed: notice.updateTime, enabled: true });
    actor.send({ type: 'notice.received', notice });
    expect(selectVisibleNotice(actor.getSnapshot())).toBeNull();
  });
});
