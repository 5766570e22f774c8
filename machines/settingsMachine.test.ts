import { createActor } from 'xstate';
import { DEFAULT_SETTINGS, settingsMachine, type DisplaySettings, type Size } from './settingsMachine';

function start(input = {}) {
  const saved = { settings: [] as DisplaySettings[], sidebar: [] as boolean[], size: [] as Size[] };
  const actor = createActor(
    settingsMachine.provide({
      actions: {
        persistSettings: (_, settings) => void saved.settings.push(settings),
        persistSidebar: (_, opened) => void saved.sidebar.push(opened),
        persistSize: (_, size) => void saved.size.push(size),
      },
    }),
    { input },
  ).start();
  return { actor, saved };
}

describe('settings machine', () => {
  it('starts with the spec defaults: theme #1890ff, size medium, sidebar open', () => {
    const { actor } = start();
    expect(actor.getSnapshot().context).toEqual({ settings: DEFAULT_SETTINGS, sidebarOpened: true, size: 'medium' });
    expect(DEFAULT_SETTINGS.theme).toBe('#1890ff');
    expect(DEFAULT_SETTINGS.antiInspection).toBe(false);
  });

  it('changes an existing setting and saves the whole set', () => {
    const { actor, saved } = start();
    actor.send({ type: 'settings.change', key: 'theme', value: '#13c2c2' });
    actor.send({ type: 'settings.change', key: 'tagsView', value: false });
    expect(actor.getSnapshot().context.settings).toMatchObject({ theme: '#13c2c2', tagsView: false });
    expect(saved.settings.at(-1)).toMatchObject({ theme: '#13c2c2', tagsView: false });
  });

  it('ignores a key that does not exist, and a value of the wrong type', () => {
    const { actor } = start();
    actor.send({ type: 'settings.change', key: 'sidebarWidth', value: 300 });
    actor.send({ type: 'settings.change', key: 'toString', value: 'x' });
    actor.send({ type: 'settings.change', key: 'fixedHeader', value: 'yes' });
    expect(actor.getSnapshot().context.settings).toEqual(DEFAULT_SETTINGS);
    expect(actor.getSnapshot().context.settings).not.toHaveProperty('sidebarWidth');
  });

  it('toggles the sidebar and sets the size, saving each', () => {
    const { actor, saved } = start({ sidebarOpened: false, size: 'small' });
    actor.send({ type: 'sidebar.toggle' });
    actor.send({ type: 'size.set', size: 'large' });
    expect(actor.getSnapshot().context).toMatchObject({ sidebarOpened: true, size: 'large' });
    expect(saved.sidebar).toEqual([true]);
    expect(saved.size).toEqual(['large']);
  });
});
