import { createActor, fromPromise, waitFor } from 'xstate';
import type { CurrentFeatureUpdate } from '@contract/notice';
import { featureUpdateMachine, shouldShowFeatureUpdate } from './featureUpdateMachine';

const update: CurrentFeatureUpdate = {
  id: 3,
  startDate: '2025-06-05',
  title: { zh: '更新Tips：', en: "What's new:" },
  items: [{ zh: '商品管理新增下架重新上架', en: 'Re-list after takedown under products' }],
};
const start = Date.parse('2025-06-05T00:00:00+08:00');
const day = 86_400_000;
const valid = { followValidTime: start + 90 * day, plugValidTime: null, searchWordValidTime: null, keyWordValidTime: null };
const none = { followValidTime: null, plugValidTime: start - day, searchWordValidTime: start + 90 * day, keyWordValidTime: null };

describe('feature-update rule (spec §4)', () => {
  it.each([
    ['shows on the start date with follow validity', { acknowledgedId: null, roleTime: valid, now: start + 1000 }, true],
    ['shows on day 29', { acknowledgedId: null, roleTime: valid, now: start + 29 * day }, true],
    ['not from day 30 on', { acknowledgedId: null, roleTime: valid, now: start + 30 * day }, false],
    ['not once acknowledged', { acknowledgedId: 3, roleTime: valid, now: start + day }, false],
    ['not without current follow or plug validity', { acknowledgedId: null, roleTime: none, now: start + day }, false],
    ['shows a newer announcement after an older one was acknowledged', { acknowledgedId: 2, roleTime: valid, now: start + day }, true],
  ])('%s', (_name, options, expected) => {
    expect(shouldShowFeatureUpdate(update, options)).toBe(expected);
  });

  it('confirm acknowledges, remembers it and asks the caller to refresh', async () => {
    const persisted: number[] = [];
    const actor = createActor(
      featureUpdateMachine.provide({
        actors: { fetchCurrent: fromPromise<CurrentFeatureUpdate | null>(async () => update) },
        actions: { persistAcknowledged: (_, id) => void persisted.push(id) },
      }),
      { input: { acknowledgedId: null, roleTime: valid, now: () => start + day } },
    );
    let refreshed = 0;
    actor.on('featureUpdate.refresh', () => (refreshed += 1));
    actor.start();
    await waitFor(actor, (snapshot) => snapshot.matches('showing'));
    actor.send({ type: 'featureUpdate.confirm' });
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
    expect(persisted).toEqual([3]);
    expect(refreshed).toBe(1);
  });

  it('close hides it without acknowledging', async () => {
    const persisted: number[] = [];
    const actor = createActor(
      featureUpdateMachine.provide({
        actors: { fetchCurrent: fromPromise<CurrentFeatureUpdate | null>(async () => update) },
        actions: { persistAcknowledged: (_, id) => void persisted.push(id) },
      }),
      { input: { acknowledgedId: null, roleTime: valid, now: () => start + day } },
    ).start();
    await waitFor(actor, (snapshot) => snapshot.matches('showing'));
    actor.send({ type: 'featureUpdate.close' });
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
    expect(persisted).toEqual([]);
  });
});
