import { createEventBus } from './events';

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the worker event bus', () => {
  it('keeps a message for the user emitted before the page listens, and gives it to the first listener', async () => {
    const bus = createEventBus();
    bus.emit('http.message', { text: '登录状态已过期，请重新登录', kind: 'error' });
    const heard: string[] = [];
    await bus.subscribe('http.message', ({ text }) => void heard.push(text));
    await settle();
    expect(heard).toEqual(['登录状态已过期，请重新登录']);

    // Given once: a second page listening later does not get it again; new messages go to every listener.
    const later: string[] = [];
    await bus.subscribe('http.message', ({ text }) => void later.push(text));
    bus.emit('http.message', { text: 'next', kind: 'error' });
    await settle();
    expect(heard).toEqual(['登录状态已过期，请重新登录', 'next']);
    expect(later).toEqual(['next']);
  });

  it('keeps only the last few and recent ones, and only messages for the user', async () => {
    let clock = 0;
    const bus = createEventBus({ now: () => clock });
    bus.emit('http.message', { text: 'stale', kind: 'error' });
    clock = 20_000;
    for (let i = 1; i <= 7; i++) bus.emit('http.message', { text: `m${i}`, kind: 'warning' });
    bus.emit('orders.changed', { version: 1, total: 3 });
    const heard: string[] = [];
    const changes: number[] = [];
    await bus.subscribe('http.message', ({ text }) => void heard.push(text));
    await bus.subscribe('orders.changed', ({ total }) => void changes.push(total));
    await settle();
    expect(heard).toEqual(['m3', 'm4', 'm5', 'm6', 'm7']);
    expect(changes).toEqual([]);
  });
});
