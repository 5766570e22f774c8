import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { VersionFile } from '@contract/session';
import { isHigherVersion, VERSION_CHECK_DELAY_MS, versionCheckMachine } from './versionCheckMachine';

/** A server whose version file the test changes; `calls` counts fetches. */
function setUp(initial: VersionFile, input: { paused?: boolean } = {}) {
  const server = { file: initial, calls: 0 };
  const clock = new SimulatedClock();
  const actor = createActor(
    versionCheckMachine.provide({
      actors: {
        fetchVersion: fromPromise(async () => {
          server.calls += 1;
          return server.file;
        }),
      },
    }),
    { clock, input },
  );
  const notices: string[] = [];
  actor.on('version.updateAvailable', (event) => notices.push(event.version));
  actor.start();
  const settle = () => new Promise((done) => setTimeout(done, 0));
  const tick = async (ms = VERSION_CHECK_DELAY_MS) => {
    clock.increment(ms);
    await settle();
  };
  return { actor, server, notices, tick, settle };
}

describe('version check', () => {
  it('reads the current version at start and checks again every 60 s', async () => {
    const { server, tick, settle } = setUp({ version: '1.0.0', isUpdate: false });
    await settle();
    expect(server.calls).toBe(1);
    await tick(VERSION_CHECK_DELAY_MS - 1);
    expect(server.calls).toBe(1);
    await tick(1);
    expect(server.calls).toBe(2);
    await tick();
    expect(server.calls).toBe(3);
  });

  it('a higher version with isUpdate stops the checks and asks for the notice', async () => {
    const { actor, server, notices, tick, settle } = setUp({ version: '1.0.0', isUpdate: false });
    await settle();
    server.file = { version: '1.1.0', isUpdate: true };
    await tick();
    expect(notices).toEqual(['1.1.0']);
    expect(actor.getSnapshot().value).toBe('updateAvailable');
    const calls = server.calls;
    await tick();
    await tick();
    expect(server.calls).toBe(calls);
  });

  it('a higher version without isUpdate, or the same version with it, shows nothing', async () => {
    const { server, notices, tick, settle } = setUp({ version: '1.0.0', isUpdate: false });
    await settle();
    server.file = { version: '1.1.0', isUpdate: false };
    await tick();
    server.file = { version: '1.0.0', isUpdate: true };
    await tick();
    expect(notices).toEqual([]);
  });

  it('closing the notice restarts the checks', async () => {
    const { actor, server, notices, tick, settle } = setUp({ version: '1.0.0', isUpdate: false });
    await settle();
    server.file = { version: '2.0.0', isUpdate: true };
    await tick();
    actor.send({ type: 'version.dismiss' });
    const calls = server.calls;
    await tick();
    expect(server.calls).toBe(calls + 1);
    expect(notices).toEqual(['2.0.0', '2.0.0']);
  });

  it('a paused flag stops the checks until resumed', async () => {
    const { actor, server, tick, settle } = setUp({ version: '1.0.0', isUpdate: false }, { paused: true });
    await settle();
    await tick();
    await tick();
    expect(server.calls).toBe(1);
    actor.send({ type: 'version.resume' });
    await tick();
    expect(server.calls).toBe(2);
    actor.send({ type: 'version.pause' });
    await tick();
    expect(server.calls).toBe(2);
  });

  it('compares versions part by part', () => {
    expect(isHigherVersion('0.10.0', '0.9.9')).toBe(true);
    expect(isHigherVersion('1.0.0', '1.0.0')).toBe(false);
    expect(isHigherVersion('1.0', '1.0.1')).toBe(false);
  });
});
