import { createActor } from 'xstate';
import { refreshPath, tabsMachine, type TabView, type TabsEmitted } from './tabsMachine';

const HOME = '/home/introduction';
const home: TabView = { path: HOME, fullPath: HOME, title: '系统介绍', affix: true, cached: true };
const view = (path: string, query = ''): TabView => ({ path, fullPath: `${path}${query}`, title: path, affix: false, cached: true });

function start(affix: TabView[] = [home]) {
  const actor = createActor(tabsMachine, { input: { homePath: HOME, affix } });
  const navigations: string[] = [];
  actor.on('tabs.navigate', (event: TabsEmitted) => navigations.push(event.to));
  actor.start();
  const paths = () => actor.getSnapshot().context.tabs.map((tab) => tab.path);
  const active = () => actor.getSnapshot().context.active;
  return { actor, navigations, paths, active };
}

describe('tabs machine', () => {
  it('starts with the affix tabs and adds one tab per visited route, in visiting order', () => {
    const { actor, paths, active } = start();
    actor.send({ type: 'tab.open', ...view('/a') });
    actor.send({ type: 'tab.open', ...view('/b') });
    actor.send({ type: 'tab.open', ...view('/a', '?page=2') });
    expect(paths()).toEqual([HOME, '/a', '/b']);
    expect(active()).toBe('/a');
    const a = actor.getSnapshot().context.tabs[1];
    expect(a?.ref.getSnapshot().context.fullPath).toBe('/a?page=2');
  });

  it('runs one child actor per tab and stops it when its tab closes', () => {
    const { actor } = start();
    actor.send({ type: 'tab.open', ...view('/a') });
    expect(Object.keys(actor.getSnapshot().children).sort()).toEqual(['tab:/a', `tab:${HOME}`]);
    actor.send({ type: 'tab.close', path: '/a' });
    expect(Object.keys(actor.getSnapshot().children)).toEqual([`tab:${HOME}`]);
  });

  it('never closes an affix tab, by any means', () => {
    const { actor, paths } = start();
    actor.send({ type: 'tab.open', ...view('/a') });
    actor.send({ type: 'tab.close', path: HOME });
    actor.send({ type: 'tab.closeOthers', path: '/a' });
    actor.send({ type: 'tabs.closeAll' });
    expect(paths()).toEqual([HOME]);
  });

  it('after closing the active tab goes to the last remaining tab', () => {
    const { actor, navigations, active } = start();
    actor.send({ type: 'tab.open', ...view('/a') });
    actor.send({ type: 'tab.open', ...view('/b', '?q=1') });
    actor.send({ type: 'tab.open', ...view('/c') });
    actor.send({ type: 'tab.close', path: '/c' });
    expect(navigations).toEqual(['/b?q=1']);
    expect(active()).toBe('/b');
  });

  it('closing a tab that is not active stays where it is', () => {
    const { actor, navigations, active } = start();
    actor.send({ type: 'tab.open', ...view('/a') });
    actor.send({ type: 'tab.open', ...view('/b') });
    actor.send({ type: 'tab.close', path: '/a' });
    expect(navigations).toEqual([]);
    expect(active()).toBe('/b');
  });

  it('goes home when no tab remains', () => {
    const { actor, navigations } = start([]);
    actor.send({ type: 'tab.open', ...view('/a') });
    actor.send({ type: 'tab.close', path: '/a' });
    expect(actor.getSnapshot().context.tabs).toEqual([]);
    expect(navigations).toEqual([HOME]);
  });

  it('close others keeps the affix tabs and the chosen one, and shows the chosen one', () => {
    const { actor, navigations, paths } = start();
    actor.send({ type: 'tab.open', ...view('/a', '?x=1') });
    actor.send({ type: 'tab.open', ...view('/b') });
    actor.send({ type: 'tab.open', ...view('/c') });
    actor.send({ type: 'tab.closeOthers', path: '/a' });
    expect(paths()).toEqual([HOME, '/a']);
    expect(navigations).toEqual(['/a?x=1']);
  });

  it('close all keeps the affix tabs and goes to the last of them', () => {
    const { actor, navigations, paths } = start();
    actor.send({ type: 'tab.open', ...view('/a') });
    actor.send({ type: 'tab.open', ...view('/b') });
    actor.send({ type: 'tabs.closeAll' });
    expect(paths()).toEqual([HOME]);
    expect(navigations).toEqual([HOME]);
  });

  it('refresh goes through the redirect path and re-mounts the tab view', () => {
    const { actor, navigations } = start();
    actor.send({ type: 'tab.open', ...view('/a', '?page=3') });
    const tab = actor.getSnapshot().context.tabs[1];
    expect(tab?.ref.getSnapshot().context.generation).toBe(0);
    actor.send({ type: 'tab.refresh', path: '/a' });
    expect(navigations).toEqual(['/redirect/a?page=3']);
    expect(tab?.ref.getSnapshot().context.generation).toBe(1);
    expect(refreshPath('/a')).toBe('/redirect/a');
  });

  it('reset (logout) forgets every tab without navigating', () => {
    const { actor, navigations, paths } = start();
    actor.send({ type: 'tab.open', ...view('/a') });
    actor.send({ type: 'tabs.reset', affix: [home] });
    expect(paths()).toEqual([HOME]);
    expect(actor.getSnapshot().context.tabs[0]?.ref.getSnapshot().context.generation).toBe(0);
    expect(navigations).toEqual([]);
  });
});
