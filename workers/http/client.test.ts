import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiFailure, DataEvents, Topic } from '../api';
import { createEventBus } from '../events';
import { createFakeServer, fail, ok, type FakeServer, type Handler } from '../testing/fakeServer';
import { z } from 'zod';
import { defineEndpoint, type CallSettings, type HttpMethod } from '../../contract/endpoint';
import { COPY_ENDPOINTS } from '../../contract/copy';
import { CREATE_ENDPOINTS } from '../../contract/create';
import { ORDER_ENDPOINTS } from '../../contract/orders';
import { PRODUCT_ENDPOINTS } from '../../contract/products';
import { MARKETPLACE_LIST_SETTINGS, PLANNED_CALLS, type PlannedCall } from '../../contract/plannedCalls';
import { RESEARCH_ENDPOINTS } from '../../contract/research';
import { SESSION_ENDPOINTS } from '../../contract/session';
import { STORE_ENDPOINTS } from '../../contract/store';
import { HttpClient } from './client';

/** An endpoint with the client's defaults, or the given settings: for what the client does with any call. */
const endpoint = (path: string, settings: CallSettings = {}, method: HttpMethod = 'POST') =>
  defineEndpoint({ method, path, summary: 'test', access: 'open', input: z.record(z.string(), z.unknown()).optional(), answer: z.unknown(), settings });
const planned = ({ path, settings, method }: PlannedCall) => endpoint(path, settings, method);
type AnyCall = ReturnType<typeof endpoint>;
const ADD = endpoint('/store/add');
const UPDATE = endpoint('/store/update');
const LIST = endpoint('/store/list', {}, 'GET');

type Seen = { topic: Topic; payload: unknown };

const TOPICS: Topic[] = ['http.message', 'session.refreshing', 'session.tokenRefreshed', 'session.expired'];

function setup(routes: Record<string, Handler> = {}) {
  const server = createFakeServer(routes);
  const events = createEventBus();
  const seen: Seen[] = [];
  for (const topic of TOPICS) events.on(topic, (payload) => seen.push({ topic, payload }));
  // 0.4 picks the second alternate base ('/e-api').
  const client = new HttpClient({ events, fetch: server.fetch, random: () => 0.4 });
  const of = <T extends Topic>(topic: T) => seen.filter((event) => event.topic === topic).map((event) => event.payload as DataEvents[T]);
  return { server, client, of };
}

/** Settles without ever leaving a rejection unhandled while fake time runs. */
function settle<T>(promise: Promise<T>): Promise<{ value?: T; failure?: ApiFailure }> {
  return promise.then(
    (value) => ({ value }),
    (failure: ApiFailure) => ({ failure }),
  );
}

describe('HttpClient: envelope and headers', () => {
  it('resolves with the envelope data and sends the credentials, language and JSON body', async () => {
    const { server, client } = setup({ '/store/add': () => ok({ id: 7 }) });
    client.setCredentials({ token: 'tok-1', userId: 42 });
    client.setLanguage('en');

    await expect(client.call(ADD, { name: 'shop' })).resolves.toEqual({ id: 7 });

    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/store/add');
    expect(request?.headers.get('x-token')).toBe('tok-1');
    expect(request?.headers.get('x-user-id')).toBe('42');
    expect(request?.headers.get('accept-language')).toBe('en');
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.credentials).toBe('same-origin');
    expect(request?.body).toEqual({ name: 'shop' });
  });

  it('sends no credentials before login and puts GET parameters in the query', async () => {
    const { server, client } = setup({ '/order/list': () => ok({ list: [], total: 0 }) });
    await client.call(ORDER_ENDPOINTS.list, { page: 2, rows: 50, source: undefined });
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.query.get('page')).toBe('2');
    expect(request?.query.has('source')).toBe(false);
    expect(request?.headers.has('x-token')).toBe(false);
    expect(request?.headers.get('accept-language')).toMatch(/^zh/);
  });

  it('answers a blob call with the file', async () => {
    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    const { client } = setup({ '/ets/pdf': () => ({ blob: pdf }) });
    const result = await client.call(ORDER_ENDPOINTS.labelPdf, { ids: ['P-1'] });
    expect(result).toBeInstanceOf(Blob);
    expect(await result.text()).toBe('%PDF-1.7');
  });

  it("checks the answer against the endpoint's answer schema", async () => {
    const { client, of } = setup({ '/getBrand': () => ok({ name: 42 }) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(client.call(SESSION_ENDPOINTS.getBrand)).rejects.toMatchObject({ type: 'Server', message: '服务器内部错误，请稍后重试' });
    expect(of('http.message')).toHaveLength(1);
    warn.mockRestore();
  });
});

describe('HttpClient: the error catalogue', () => {
  it.each([
    [401, 'Unauthorized', '权限已过期或无权限操作，请联系管理员'],
    [429, 'RateLimited', '请求频率太快，请稍后重试'],
    [468, 'PageExpired', '验证已过期，请重新刷新网页'],
    [504, 'MarketplaceTimeout', 'ozon接口请求超时'],
    [507, 'DuplicateUser', '该用户名已存在，请重新输入'],
    [508, 'CaptchaMissing', '验证码为空'],
    [509, 'CaptchaWrong', '验证码不正确或已失效，请重新输入'],
  ] as const)('%i rejects as %s with the catalogue text and shows it', async (code, type, text) => {
    const { client, of } = setup({ '/store/add': () => fail(code, 'server words') });
    await expect(client.call(ADD)).rejects.toEqual({ type, code, message: text, silent: false });
    expect(of('http.message')).toEqual([{ text, kind: 'error' }]);
  });

  it('gives the catalogue text in the language that was set', async () => {
    const { client, of } = setup({ '/store/add': () => fail(429) });
    client.setLanguage('en');
    await expect(client.call(ADD)).rejects.toMatchObject({ message: 'Too many requests, please try again later' });
    expect(of('http.message')[0]?.text).toBe('Too many requests, please try again later');
  });

  it('shows any other code with the server message as it is, and names the field of a 400', async () => {
    const { client } = setup({
      '/store/add': () => fail(400, '店铺名称不能为空', { field: 'name' }),
      // A code outside HTTP's range travels in an HTTP 200, as RuoYi back ends do.
      '/store/update': () => ({ status: 200, json: { code: 601, msg: '店铺已被其他账号绑定', data: null } }),
    });
    await expect(client.call(ADD)).rejects.toMatchObject({ type: 'InvalidInput', code: 400, message: '店铺名称不能为空', field: 'name' });
    await expect(client.call(UPDATE)).rejects.toMatchObject({ type: 'Failed', code: 601, message: '店铺已被其他账号绑定' });
  });

  it('treats an envelope error inside an HTTP 200 like the same HTTP status', async () => {
    const { client } = setup({ '/store/add': () => ({ status: 200, json: { code: 509, msg: 'x', data: null } }) });
    await expect(client.call(ADD)).rejects.toMatchObject({ type: 'CaptchaWrong', code: 509 });
  });

  it('rejects an answer that is not an envelope as a server failure', async () => {
    const { client } = setup({ '/store/add': () => ({ status: 200, text: '<html>proxy</html>' }) });
    await expect(client.call(ADD)).rejects.toMatchObject({ type: 'Server', message: '服务器内部错误，请稍后重试' });
  });
});

describe('HttpClient: silent calls', () => {
  it('never emits a message for a silent call, from the table or from the caller', async () => {
    const { client, of } = setup({ '/history/add': () => fail(500, 'boom'), '/store/add': () => fail(500, 'boom') });
    await expect(client.call(planned(PLANNED_CALLS.historyAdd))).rejects.toMatchObject({ type: 'Server', silent: true });
    await expect(client.call(ADD, undefined, { silent: true })).rejects.toMatchObject({ silent: true });
    expect(of('http.message')).toEqual([]);
    await expect(client.call(ADD)).rejects.toMatchObject({ message: 'boom', silent: false });
    expect(of('http.message')).toEqual([{ text: 'boom', kind: 'error' }]);
  });

  it('rejects a 504 of the login check and of the notice check silently', async () => {
    const { client, of } = setup({ '/loginCheck': () => fail(504), '/noticeCheck': () => fail(504) });
    await expect(client.call(SESSION_ENDPOINTS.loginCheck, { username: 'a', auto: 'b' })).rejects.toMatchObject({ type: 'MarketplaceTimeout', silent: true });
    await expect(client.call(SESSION_ENDPOINTS.noticeCheck)).rejects.toMatchObject({ type: 'MarketplaceTimeout', silent: true });
    expect(of('http.message')).toEqual([]);
  });
});

describe('HttpClient: retries and timeouts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a network failure once after the default 800 ms and then succeeds', async () => {
    let calls = 0;
    const { server, client, of } = setup({ '/store/add': () => (++calls === 1 ? 'network' : ok('done')) });
    const result = settle(client.call(ADD));
    await vi.advanceTimersByTimeAsync(799);
    expect(server.to('/store/add')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.to('/store/add')).toHaveLength(2);
    expect(await result).toEqual({ value: 'done' });
    expect(of('http.message')).toEqual([]);
  });

  it('waits the per-call delay before the retry (1500 ms for the order list)', async () => {
    let calls = 0;
    const { server, client } = setup({ '/order/list': () => (++calls === 1 ? 'network' : ok({ list: [], total: 0 })) });
    const result = settle(client.call(ORDER_ENDPOINTS.list, {}));
    await vi.advanceTimersByTimeAsync(1_499);
    expect(server.to('/order/list')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.to('/order/list')).toHaveLength(2);
    expect((await result).value).toEqual({ list: [], total: 0 });
  });

  it.each([
    ['/ozonProduct/list', MARKETPLACE_LIST_SETTINGS.productList, 5_000],
    ['/ozonReturnNew/list', MARKETPLACE_LIST_SETTINGS.returnNewList, 5_000],
    ['/ozonSellerAnalyze', MARKETPLACE_LIST_SETTINGS.sellerAnalyze, 1_000],
  ] as const)('waits before retrying %s', async (path, settings, wait) => {
    const { server, client } = setup({ [path]: () => 'network' });
    const result = settle(client.call(endpoint(path, settings)));
    await vi.advanceTimersByTimeAsync(wait - 1);
    expect(server.to(path)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.to(path)).toHaveLength(2);
    expect((await result).failure?.type).toBe('Network');
  });

  it('retries a 502 once and, when that fails too, says the network failed for good', async () => {
    const { server, client, of } = setup({ '/store/add': () => fail(502, 'Bad Gateway') });
    const result = settle(client.call(ADD));
    await vi.advanceTimersByTimeAsync(800);
    const { failure } = await result;
    expect(server.to('/store/add')).toHaveLength(2);
    expect(failure).toMatchObject({ type: 'Server', code: 502, message: '网络问题，请重试或刷新网页' });
    expect(of('http.message')).toEqual([{ text: '网络问题，请重试或刷新网页', kind: 'error' }]);
  });

  it('retries a 503 (the database away for a moment) and, when that fails too, shows the server\'s words for it', async () => {
    const { server, client, of } = setup({ '/store/add': () => fail(503, '数据库暂不可用，正在重试') });
    const result = settle(client.call(ADD));
    await vi.advanceTimersByTimeAsync(800);
    const { failure } = await result;
    expect(server.to('/store/add')).toHaveLength(2);
    expect(failure).toMatchObject({ type: 'Server', code: 503, message: '数据库暂不可用，正在重试' });
    expect(of('http.message')).toEqual([{ text: '数据库暂不可用，正在重试', kind: 'error' }]);
  });

  it('says 网络问题，请重试 when a call that may not retry meets the network failing', async () => {
    const { server, client } = setup({ '/store/add': () => 'network' });
    const { failure } = await settle(client.call(ADD, undefined, { retries: 0 }));
    expect(server.to('/store/add')).toHaveLength(1);
    expect(failure).toMatchObject({ type: 'Network', message: '网络问题，请重试' });
  });

  it.each([400, 401, 500])('does not retry a %i', async (code) => {
    const { server, client } = setup({ '/store/add': () => fail(code, 'nope') });
    const result = settle(client.call(ADD));
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await result).failure?.code).toBe(code);
    expect(server.to('/store/add')).toHaveLength(1);
  });

  it('gives up on the captcha after 5 s, retries once, then rejects as a timeout', async () => {
    const { server, client, of } = setup({ '/captchaImage': () => 'hang' });
    const result = settle(client.call(SESSION_ENDPOINTS.captchaImage));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(server.to('/captchaImage')[0]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.to('/captchaImage')[0]?.signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(800);
    expect(server.to('/captchaImage')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await result).failure).toMatchObject({ type: 'Timeout', message: '网络问题，请重试或刷新网页' });
    expect(of('http.message')).toHaveLength(1);
  });

  // The labels' 60 s: the spec's 4 s is for one label, and a set is fetched in calls of 20 and merged.
  it.each([
    [ORDER_ENDPOINTS.labelPdf, 60_000],
    [ORDER_ENDPOINTS.get, 6_000],
    [PRODUCT_ENDPOINTS.updateSkuImage, 10_000],
    [STORE_ENDPOINTS.removeFailToArch, 10_000],
    [RESEARCH_ENDPOINTS.categories, 10_000],
    [COPY_ENDPOINTS.list, 15_000],
    [CREATE_ENDPOINTS.categoryAttribute, 15_000],
    [SESSION_ENDPOINTS.loginCheck, 30_000],
    [SESSION_ENDPOINTS.noticeCheck, 30_000],
    [RESEARCH_ENDPOINTS.hotProducts, 60_000],
    [COPY_ENDPOINTS.copy, 200_000],
    [STORE_ENDPOINTS.syncOrderList, 250_000],
    [ADD, 150_000],
  ] as const)('abandons $0.path after $1 ms', async (call, timeout) => {
    const path = call.path;
    const { server, client } = setup({ [path]: () => 'hang' });
    const result = settle(client.call(call as AnyCall, undefined, { retries: 0 }));
    await vi.advanceTimersByTimeAsync(timeout - 1);
    expect(server.to(path)[0]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await result).failure?.type).toBe('Timeout');
  });

  it.each([COPY_ENDPOINTS.copy, COPY_ENDPOINTS.list, COPY_ENDPOINTS.allList])('retries $path on an alternate base', async (call) => {
    const { path } = call;
    const answer = { list: [], total: 0, unsettled: 0 };
    const { server, client } = setup({ [path]: (request) => (request.base === '/api' ? 'network' : ok(answer)) });
    const input = call === COPY_ENDPOINTS.copy ? { shopIds: [1], currency: 'CNY', items: [{ sku: 1, price: '1' }] } : {};
    const result = settle(client.call(call as unknown as AnyCall, input));
    await vi.advanceTimersByTimeAsync(800);
    expect((await result).value).toMatchObject({ list: [] });
    expect(server.to(path).map((request) => request.base)).toEqual(['/api', '/e-api']);
  });

  it('retries other calls on the same base', async () => {
    const { server, client } = setup({ '/store/add': () => 'network' });
    const result = settle(client.call(ADD));
    await vi.advanceTimersByTimeAsync(800);
    await result;
    expect(server.to('/store/add').map((request) => request.base)).toEqual(['/api', '/api']);
  });
});

describe('HttpClient: cancelling', () => {
  it('aborts the older of two calls with the same cancel key, without a message', async () => {
    let calls = 0;
    const { server, client, of } = setup({ '/order/list': () => (++calls === 1 ? 'hang' : ok({ list: [], total: 3 })) });
    const older = settle(client.call(ORDER_ENDPOINTS.list, { page: 1 }));
    const newer = client.call(ORDER_ENDPOINTS.list, { page: 2 });
    await expect(newer).resolves.toEqual({ list: [], total: 3 });
    expect((await older).failure).toMatchObject({ type: 'Aborted' });
    expect(server.to('/order/list')[0]?.signal?.aborted).toBe(true);
    expect(of('http.message')).toEqual([]);
  });

  it('lets unrelated calls and different keys run side by side', async () => {
    const { client } = setup({ '/store/add': () => ok(1) });
    const both = await Promise.all([client.call(ADD, undefined, { cancelKey: 'a' }), client.call(ADD, undefined, { cancelKey: 'b' })]);
    expect(both).toEqual([1, 1]);
  });

  it('aborts when the caller aborts its signal', async () => {
    const { client } = setup({ '/store/list': () => 'hang' });
    const controller = new AbortController();
    const result = settle(client.call(LIST, undefined, { signal: controller.signal }));
    controller.abort();
    expect((await result).failure).toMatchObject({ type: 'Aborted' });
  });
});

describe('HttpClient: 402 and the single-flight refresh', () => {
  function sessionServer(refresh: Handler): FakeServer {
    return createFakeServer({
      '/store/list': (request) => (request.headers.get('x-token') === 'fresh' ? ok({ n: request.query.get('n') }) : fail(402, 'token expired')),
      '/refreshToken': refresh,
    });
  }

  function clientFor(server: FakeServer) {
    const events = createEventBus();
    const seen: Seen[] = [];
    for (const topic of TOPICS) events.on(topic, (payload) => seen.push({ topic, payload }));
    const client = new HttpClient({ events, fetch: server.fetch });
    client.setCredentials({ token: 'stale', userId: 9 });
    const of = (topic: Topic) => seen.filter((event) => event.topic === topic).map((event) => event.payload);
    return { client, of };
  }

  it('refreshes once for ten calls that met 402 together, and replays all ten with the new token', async () => {
    const server = sessionServer((request) => (request.headers.get('x-user-id') === '9' ? ok({ token: 'fresh' }) : fail(401)));
    const { client, of } = clientFor(server);

    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => client.call(LIST, { n })));

    expect(answers).toEqual(Array.from({ length: 10 }, (_, n) => ({ n: String(n) })));
    expect(server.to('/refreshToken')).toHaveLength(1);
    expect(server.to('/refreshToken')[0]?.method).toBe('POST');
    expect(server.to('/refreshToken')[0]?.credentials).toBe('same-origin');
    const replays = server.to('/store/list').filter((request) => request.headers.get('x-token') === 'fresh');
    expect(replays).toHaveLength(10);
    expect(of('session.refreshing')).toHaveLength(1);
    expect(of('session.tokenRefreshed')).toEqual([{ token: 'fresh' }]);
    expect(of('http.message')).toEqual([]);
    expect(client.getCredentials()).toEqual({ token: 'fresh', userId: 9 });
  });

  it('rejects every waiting call as TokenExpired and announces the expiry once when the refresh fails', async () => {
    const server = sessionServer(() => fail(401, 'refresh credential expired'));
    const { client, of } = clientFor(server);

    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => settle(client.call(LIST, { n }))));

    for (const { failure } of results) {
      expect(failure).toMatchObject({ type: 'TokenExpired', code: 402, message: '登录状态已过期，请重新登录' });
    }
    expect(server.to('/refreshToken')).toHaveLength(1);
    expect(of('session.expired')).toEqual([{ message: '登录状态已过期，请重新登录' }]);
    expect(of('http.message')).toEqual([]);

    // Until someone logs in again, a later 402 fails at once without another refresh or announcement.
    await expect(client.call(LIST)).rejects.toMatchObject({ type: 'TokenExpired' });
    expect(server.to('/refreshToken')).toHaveLength(1);
    expect(of('session.expired')).toHaveLength(1);
  });

  it('treats an unreachable refresh like a refused one', async () => {
    const server = sessionServer(() => 'network');
    const { client, of } = clientFor(server);
    await expect(client.call(LIST)).rejects.toMatchObject({ type: 'TokenExpired' });
    expect(of('session.expired')).toHaveLength(1);
  });

  it('does not loop when the replay meets 402 again', async () => {
    const server = createFakeServer({ '/store/list': () => fail(402), '/refreshToken': () => ok({ token: 'fresh' }) });
    const { client, of } = clientFor(server);
    await expect(client.call(LIST)).rejects.toMatchObject({ type: 'TokenExpired' });
    expect(server.to('/store/list')).toHaveLength(2);
    expect(server.to('/refreshToken')).toHaveLength(1);
    expect(of('session.expired')).toHaveLength(1);
  });
});

describe("HttpClient: an access policy's step-up", () => {
  const NEEDS_CODE = '访问策略「发货要动态口令」要求 10 分钟内验证过动态口令，请输入动态口令后重试';
  const DENIED = '访问策略「夜间禁止」拒绝了此请求，请联系主账号';

  function stepUpSetup(handler: Handler) {
    const events = createEventBus();
    const needed: { message: string }[] = [];
    const shown: string[] = [];
    events.on('session.stepUpNeeded', (payload) => needed.push(payload));
    events.on('http.message', ({ text }) => shown.push(text));
    const server = createFakeServer({ '/shipOrder': handler });
    const client = new HttpClient({ events, fetch: server.fetch });
    client.setCredentials({ token: 'tok', userId: 9 });
    return { server, client, needed, shown };
  }
  const SHIP = endpoint('/shipOrder');
  const untilAsked = async (needed: unknown[]) => {
    await vi.waitFor(() => expect(needed.length).toBeGreaterThan(0));
  };

  it('asks once for the calls that met it together, and replays them when the code is given', async () => {
    let steppedUp = false;
    const { server, client, needed, shown } = stepUpSetup(() => (steppedUp ? ok({ shipped: true }) : fail(401, NEEDS_CODE, { field: 'stepUp' })));
    const calls = [client.call(SHIP, { id: 1 }), client.call(SHIP, { id: 2 })];
    await untilAsked(needed);
    await vi.waitFor(() => expect(server.to('/shipOrder')).toHaveLength(2));
    expect(needed).toEqual([{ message: NEEDS_CODE }]);
    steppedUp = true;
    client.stepUpGiven();
    await expect(Promise.all(calls)).resolves.toEqual([{ shipped: true }, { shipped: true }]);
    expect(server.to('/shipOrder')).toHaveLength(4);
    expect(shown).toEqual([]);
  });

  it("fails with the policy's words when the person closes the dialog, and does not ask twice for one call", async () => {
    const { server, client, needed, shown } = stepUpSetup(() => fail(401, NEEDS_CODE, { field: 'stepUp' }));
    const cancelled = settle(client.call(SHIP, { id: 1 }));
    await untilAsked(needed);
    client.stepUpCancelled();
    expect((await cancelled).failure).toMatchObject({ type: 'Unauthorized', code: 401, message: NEEDS_CODE, field: 'stepUp' });
    expect(shown).toEqual([NEEDS_CODE]);
    // A code given but refused again on the replay: that refusal is the answer, no second dialog.
    const refusedAgain = settle(client.call(SHIP, { id: 2 }));
    await vi.waitFor(() => expect(needed).toHaveLength(2));
    client.stepUpGiven();
    expect((await refusedAgain).failure).toMatchObject({ code: 401, message: NEEDS_CODE });
    expect(needed).toHaveLength(2);
    expect(server.to('/shipOrder')).toHaveLength(3);
  });

  it("shows a deny's policy by name, and any other 401 with the catalogue's text", async () => {
    const denied = stepUpSetup(() => fail(401, DENIED, { field: 'policy' }));
    await expect(denied.client.call(SHIP)).rejects.toMatchObject({ code: 401, message: DENIED });
    expect(denied.needed).toEqual([]);
    const plain = stepUpSetup(() => fail(401, 'server words', { field: 'other' }));
    await expect(plain.client.call(SHIP)).rejects.toMatchObject({ code: 401, message: '权限已过期或无权限操作，请联系管理员' });
  });
});
