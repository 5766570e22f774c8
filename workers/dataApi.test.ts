import { expose, proxy } from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoginData, UserInfo } from '../contract/session';
import { isApiFailure, type DataEvents } from './api';
import { connectDataApi, type DataClient } from './client';
import { createDataApi, createWorkerCore } from './dataApi';
import { createFakeServer, fail, ok, type FakeServer } from './testing/fakeServer';
import { userInfoOf } from '../tests/support/userInfo';

const loginData: LoginData = {
  token: 'tok-1',
  id: 5,
  name: 'seller',
  right: '0',
  validTime: null,
  isAp: false,
  relative_id: null,
  auto: 'auto-1',
};

const userInfo: UserInfo = userInfoOf(5, 'follow');

const channels: MessageChannel[] = [];

function connect(server: FakeServer): DataClient {
  const channel = new MessageChannel();
  channels.push(channel);
  expose(createDataApi(createWorkerCore({ fetch: server.fetch })), channel.port1);
  return connectDataApi(channel.port2);
}

afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

describe('the DataApi through Comlink', () => {
  it('logs in, then sends the new credentials with every call', async () => {
    const server = createFakeServer({
      '/login': () => ok(loginData),
      '/getInfo': (request) => (request.headers.get('x-token') === 'tok-1' ? ok(userInfo) : fail(401)),
    });
    const api = connect(server);

    await expect(api.session.login({ username: 'seller', password: 'secret123' })).resolves.toEqual(loginData);
    await expect(api.session.getInfo()).resolves.toEqual(userInfo);
    expect(server.to('/getInfo')[0]?.headers.get('x-user-id')).toBe('5');
  });

  it('rejects with a plain ApiFailure that crosses the boundary intact', async () => {
    const server = createFakeServer({ '/login': () => fail(509, 'x') });
    const api = connect(server);
    const failure: unknown = await api.session.login({ username: 'a', password: 'b' }).catch((error: unknown) => error);
    expect(isApiFailure(failure)).toBe(true);
    expect(failure).toEqual({ type: 'CaptchaWrong', code: 509, message: '验证码不正确或已失效，请重新输入', silent: false });
  });

  it('pushes events to a subscriber until it unsubscribes', async () => {
    const server = createFakeServer({ '/limitInfo': () => fail(429) });
    const api = connect(server);
    const received: DataEvents['http.message'][] = [];
    const unsubscribe = await api.subscribe('http.message', proxy((payload: DataEvents['http.message']) => void received.push(payload)));

    await api.session.limitInfo().catch(() => undefined);
    await vi.waitFor(() => expect(received).toEqual([{ text: '请求频率太快，请稍后重试', kind: 'error' }]));

    await unsubscribe();
    await api.session.setLanguage('en');
    await api.session.limitInfo().catch(() => undefined);
    // A round trip after the failure: had the event been pushed, it would have arrived before this answer.
    await api.session.setLanguage('zh');
    expect(received).toHaveLength(1);
  });

  it('forgets the credentials at logout even when the server cannot be reached', async () => {
    const server = createFakeServer({ '/login': () => ok(loginData), '/logout': () => 'network', '/getBrand': () => fail(401) });
    const api = connect(server);
    await api.session.login({ username: 'seller', password: 'secret123' });
    await api.session.logout();
    expect(server.to('/logout')).toHaveLength(1);
    await api.session.getBrand().catch(() => undefined);
    expect(server.to('/getBrand')[0]?.headers.has('x-token')).toBe(false);
  });

  it('reads the version file, plain JSON at the site root, with a fresh timestamp and silently', async () => {
    const server = createFakeServer({ '/version.json': () => ({ status: 200, json: { version: '1.2.0', isUpdate: true } }) });
    const api = connect(server);
    await expect(api.session.versionFile()).resolves.toEqual({ version: '1.2.0', isUpdate: true });
    const [request] = server.to('/version.json');
    expect(request?.url).toMatch(/^\/version\.json\?t=\d+$/);

    const received: unknown[] = [];
    await api.subscribe('http.message', proxy((payload: DataEvents['http.message']) => void received.push(payload)));
    server.on('/version.json', () => ({ status: 404, text: 'Not Found' }));
    await expect(api.session.versionFile()).rejects.toMatchObject({ code: 404, silent: true });
    await api.session.setLanguage('zh');
    expect(received).toEqual([]);
  });
});
