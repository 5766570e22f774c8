import { SimulatedClock, assign, createActor, createMachine, fromCallback, fromPromise, sendParent, setup, waitFor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { LoginAnswer, LoginData, SecondStep, UserInfo } from '../contract/session';
import type { EnrolLoginData, OtpEnrolment } from '../contract/signin';
import type { ApiFailure } from '../workers/api';
import {
  selectIsAdmin,
  selectPasswordChangeStep,
  selectPhase,
  selectUser,
  sessionMachine,
  type LoginCheckPollerEvent,
  type LoginCheckPollerInput,
  type RouteNode,
  type SessionEmitted,
  type SessionEvent,
  type SessionMessage,
  type StoredSession,
} from './sessionMachine';

// ---------------------------------------------------------------------------------------------------------------
// Fakes: every actor of the machine answers only when the test says so, through a deferred per actor.

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void };
function defer<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const loginData: LoginData = {
  token: 'tok-1',
  id: 7,
  name: 'seller',
  right: '0',
  validTime: 1_900_000_000_000,
  isAp: false,
  relative_id: null,
  auto: 'auto-1',
};
const stored: StoredSession = { ...loginData, token: 'tok-stored' };

function info(roles: string[], rolePermissions = roles, permissions: string[] | null = null): UserInfo {
  return {
    roles,
    rolePermissions,
    permissions,
    user: {
      id: 7,
      name: 'seller',
      avatar: '',
      introduction: '',
      followValidTime: 1_900_000_000_000,
      plugValidTime: null,
      searchWordValidTime: null,
      keyWordValidTime: null,
      rightInfo: { activeRoles: rolePermissions, expiredRoles: [], isAdmin: roles.includes('admin') },
    },
  };
}
const adminInfo = info(['admin']);
const routes: RouteNode[] = [{ path: '/home/introduction' }, { path: '/store/store-list' }];
const wrongCredentials: ApiFailure = { type: 'Failed', code: 400, message: '用户名或密码错误', silent: false };
const wrongCode: ApiFailure = { type: 'Failed', code: 400, message: '动态口令错误或已使用', silent: false };
const asksCode: SecondStep = { secondStep: 'otp', ticket: 'ticket-1', otpType: 'totp' };
const asksEnrolment: SecondStep = { secondStep: 'enrol', ticket: 'ticket-2', otpType: null };
const enrolment: OtpEnrolment = { uri: 'otpauth://totp/x?secret=ABC', secret: 'ABC', type: 'totp', algorithm: 'SHA1', digits: 6, period: 30 };
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `code-${i}`);
const expiredNotice = '密码已过期，请修改密码后继续';
const mustChangeInfo: UserInfo = { ...info(['admin']), passwordChange: 'expired', passwordNotice: expiredNotice };
const policyRefusal: ApiFailure = { type: 'Failed', code: 400, message: '密码不符合密码策略：包含特殊字符（如 !@#$%）', field: 'newPassword', silent: false };
const changeEvent = { type: 'session.changePassword', oldPassword: 'seller123', newPassword: 'Seller#2025-a' } as const;

type PromiseActor = 'restoreSession' | 'login' | 'loadInfo' | 'generateRoutes' | 'logout' | 'verifyCode' | 'startEnrolment' | 'confirmEnrolment' | 'changePassword';

function startHarness(options: { clock?: SimulatedClock; poller?: 'callback' | ReturnType<typeof createMachine> } = {}) {
  const pending = new Map<PromiseActor, Deferred<unknown>>();
  const calls = {
    persistSession: [] as StoredSession[],
    persistToken: [] as string[],
    persistAuto: [] as string[],
    persistInfo: [] as UserInfo[],
    clearPersistedSession: 0,
    checkNow: 0,
    pollerInputs: [] as LoginCheckPollerInput[],
    generateInputs: [] as { roles: readonly string[]; rolePermissions: readonly string[]; permissions: readonly string[] | null }[],
    secondStepInputs: [] as unknown[],
  };
  const emitted: SessionEmitted[] = [];
  let pollerSendBack: ((event: SessionEvent) => void) | null = null;

  const fake =
    <T,>(name: PromiseActor) =>
    () => {
      const deferred = defer<unknown>();
      pending.set(name, deferred);
      return deferred.promise as Promise<T>;
    };

  const callbackPoller = fromCallback<LoginCheckPollerEvent, LoginCheckPollerInput>(({ sendBack, receive, input }) => {
    calls.pollerInputs.push(input);
    pollerSendBack = sendBack;
    receive(() => {
      calls.checkNow += 1;
    });
    return () => {
      pollerSendBack = null;
    };
  });

  const machine = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(fake<StoredSession | null>('restoreSession')),
      login: fromPromise(fake<LoginAnswer>('login')),
      verifyCode: fromPromise(({ input }) => {
        calls.secondStepInputs.push(input);
        return fake<LoginData>('verifyCode')();
      }),
      startEnrolment: fromPromise(({ input }) => {
        calls.secondStepInputs.push(input);
        return fake<OtpEnrolment>('startEnrolment')();
      }),
      confirmEnrolment: fromPromise(({ input }) => {
        calls.secondStepInputs.push(input);
        return fake<EnrolLoginData>('confirmEnrolment')();
      }),
      changePassword: fromPromise(({ input }) => {
        calls.secondStepInputs.push(input);
        return fake<{ auto: string }>('changePassword')();
      }),
      loadInfo: fromPromise(fake<UserInfo | null>('loadInfo')),
      generateRoutes: fromPromise(({ input }) => {
        calls.generateInputs.push(input);
        return fake<readonly RouteNode[]>('generateRoutes')();
      }),
      logout: fromPromise(fake<void>('logout')),
      loginCheckPoller:
        options.poller && options.poller !== 'callback'
          ? // A machine fake stands in for the callback actor so the simulated clock can drive it.
            (options.poller as unknown as typeof callbackPoller)
          : callbackPoller,
    },
    actions: {
      persistSession: (_, session) => void calls.persistSession.push(session),
      persistToken: (_, token) => void calls.persistToken.push(token),
      persistAuto: (_, auto) => void calls.persistAuto.push(auto),
      persistInfo: (_, kept) => void calls.persistInfo.push(kept),
      clearPersistedSession: () => void (calls.clearPersistedSession += 1),
    },
  });
  const actor = createActor(machine, options.clock ? { clock: options.clock } : {});
  for (const type of ['session.message', 'session.loggedIn', 'session.loggedOut', 'tabs.closeAll'] as const) {
    actor.on(type, (event) => void emitted.push(event));
  }
  actor.start();

  const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  return {
    actor,
    calls,
    emitted,
    settle,
    get pollerSendBack() {
      return pollerSendBack;
    },
    async resolve(name: PromiseActor, value: unknown) {
      const deferred = pending.get(name);
      if (!deferred) throw new Error(`${name} was not invoked`);
      pending.delete(name);
      deferred.resolve(value);
      await settle();
    },
    async reject(name: PromiseActor, error: unknown) {
      const deferred = pending.get(name);
      if (!deferred) throw new Error(`${name} was not invoked`);
      pending.delete(name);
      deferred.reject(error);
      await settle();
    },
  };
}
type Harness = ReturnType<typeof startHarness>;

const loginEvent = {
  type: 'session.login',
  username: 'seller',
  password: 'seller123',
  code: '2468',
  uuid: 'u-1',
  redirect: '/store/store-list?x=1',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// The model: the session machine's graph with every actor answer made an event, and the message the user must be
// left with in its context. Every simple path of it is replayed against the real machine with the fakes above.

type ModelEvent =
  | { type: 'restore.found' }
  | { type: 'restore.withInfo' }
  | { type: 'info.otherRoles' }
  | { type: 'restore.none' }
  | { type: 'session.login' }
  | { type: 'login.ok' }
  | { type: 'login.fail' }
  | { type: 'login.needsCode' }
  | { type: 'login.needsEnrolment' }
  | { type: 'session.otp' }
  | { type: 'session.cancelSecondStep' }
  | { type: 'otp.ok' }
  | { type: 'otp.fail' }
  | { type: 'enrol.ok' }
  | { type: 'enrol.fail' }
  | { type: 'confirm.ok' }
  | { type: 'confirm.fail' }
  | { type: 'session.recoveryCodesSaved' }
  | { type: 'info.mustChange' }
  | { type: 'session.changePassword' }
  | { type: 'change.ok' }
  | { type: 'change.fail' }
  | { type: 'info.ok' }
  | { type: 'info.noResponse' }
  | { type: 'info.emptyRoles' }
  | { type: 'info.fail' }
  | { type: 'routes.ok' }
  | { type: 'session.refreshing' }
  | { type: 'session.tokenRefreshed' }
  | { type: 'check.invalid' }
  | { type: 'session.expired' }
  | { type: 'session.logout' }
  | { type: 'session.changeRole' }
  | { type: 'logout.done' };

const expiredText = '登录状态已过期，请重新登录';
const failure = (error: SessionMessage | null) => ({ type: 'fail' as const, params: { error } });

const model = setup({
  types: { context: {} as { error: SessionMessage | null; stepped?: true; changed?: true }, events: {} as ModelEvent },
  actions: {
    fail: assign((_, params: { error: SessionMessage | null }) => ({ error: params.error })),
    step: assign({ stepped: true as const }),
    change: assign({ changed: true as const }),
  },
}).createMachine({
  id: 'model',
  context: { error: null },
  initial: 'checkingSession',
  states: {
    checkingSession: { on: { 'restore.found': 'loadingInfo', 'restore.withInfo': 'resuming', 'restore.none': 'loggedOut' } },
    // A stored session with the info of its last load: routes from that info, then the app, while getInfo checks.
    resuming: { on: { 'routes.ok': 'loggedIn.verifying' } },
    loggedOut: { on: { 'session.login': { target: 'loggingIn', actions: failure(null) } } },
    loggingIn: {
      on: {
        'login.ok': 'loadingInfo',
        'login.fail': { target: 'loggedOut', actions: failure({ text: wrongCredentials.message }) },
        'login.needsCode': { target: 'secondStep.code', actions: 'step' },
        'login.needsEnrolment': { target: 'secondStep.enrolling', actions: 'step' },
      },
    },
    // The one-time password: no session until the code (or the required set-up) is accepted.
    secondStep: {
      initial: 'code',
      states: {
        code: { on: { 'session.otp': { target: 'verifying', actions: failure(null) }, 'session.cancelSecondStep': { target: '#model.loggedOut', actions: failure(null) } } },
        verifying: { on: { 'otp.ok': '#model.loadingInfo', 'otp.fail': { target: 'code', actions: failure({ text: wrongCode.message }) } } },
        enrolling: { on: { 'enrol.ok': 'enrolReady', 'enrol.fail': { target: '#model.loggedOut', actions: failure({ text: wrongCode.message }) } } },
        enrolReady: { on: { 'session.otp': { target: 'confirming', actions: failure(null) }, 'session.cancelSecondStep': { target: '#model.loggedOut', actions: failure(null) } } },
        confirming: { on: { 'confirm.ok': 'recoveryCodes', 'confirm.fail': { target: 'enrolReady', actions: failure({ text: wrongCode.message }) } } },
        recoveryCodes: { on: { 'session.recoveryCodesSaved': '#model.loadingInfo' } },
      },
    },
    // The password expired (or the policy no longer accepts it): a new one before the app; no other call goes through.
    passwordChange: {
      initial: 'form',
      states: {
        form: {
          on: {
            'session.changePassword': { target: 'changing', actions: failure(null) },
            'session.logout': { target: '#model.loggingOut', actions: failure(null) },
          },
        },
        changing: { on: { 'change.ok': '#model.reloadingInfo', 'change.fail': { target: 'form', actions: failure({ text: policyRefusal.message }) } } },
      },
    },
    // The info again after the change: from here on it is a plain session start's path.
    reloadingInfo: {},
    loadingInfo: {
      on: {
        'info.mustChange': { target: 'passwordChange', actions: 'change' },
        'info.ok': 'generatingRoutes',
        'info.noResponse': { target: 'loggingOut', actions: failure({ key: 'verificationFailed' }) },
        'info.emptyRoles': { target: 'loggingOut', actions: failure({ key: 'rolesEmpty' }) },
        'info.fail': { target: 'loggingOut', actions: failure({ text: 'boom' }) },
      },
    },
    generatingRoutes: { on: { 'routes.ok': 'loggedIn' } },
    loggedIn: {
      initial: 'idle',
      states: {
        verifying: {
          on: {
            'info.mustChange': { target: '#model.passwordChange', actions: 'change' },
            'info.ok': 'idle',
            'info.otherRoles': 'rerouting',
            'info.noResponse': { target: '#model.loggingOut', actions: failure({ key: 'verificationFailed' }) },
            'info.emptyRoles': { target: '#model.loggingOut', actions: failure({ key: 'rolesEmpty' }) },
            'info.fail': { target: '#model.loggingOut', actions: failure({ text: 'boom' }) },
          },
        },
        rerouting: { on: { 'routes.ok': 'idle' } },
        idle: { on: { 'session.refreshing': 'refreshingToken' } },
        refreshingToken: { on: { 'session.tokenRefreshed': 'idle' } },
      },
      on: {
        'check.invalid': { target: 'loggingOut', actions: failure({ key: 'passwordChanged' }) },
        'session.expired': { target: 'loggingOut', actions: failure({ text: expiredText }) },
        'session.logout': { target: 'loggingOut', actions: failure(null) },
        'session.changeRole': 'changingRole',
      },
    },
    // Change-role reloads the user info: every getInfo outcome must end as it does in loadingInfo.
    changingRole: {
      on: {
        'info.ok': 'generatingRoutes',
        'info.noResponse': { target: 'loggingOut', actions: failure({ key: 'verificationFailed' }) },
        'info.emptyRoles': { target: 'loggingOut', actions: failure({ key: 'rolesEmpty' }) },
        'info.fail': { target: 'loggingOut', actions: failure({ text: 'boom' }) },
      },
    },
    loggingOut: { on: { 'logout.done': 'loggedOut' } },
  },
});

let h: Harness;

const testModel = createTestModel(model);
// A resumed session's paths stop at a change of role and at a new login: past those they walk what the paths of a
// login or a plain restore already walk, and the paths numbered over a thousand.
const resumed = (path: { steps: readonly { event: { type: string } }[] }) => path.steps.some((step) => step.event.type === 'restore.withInfo');
// A login through the second step stops where it reaches the user info: from there it is a plain login's path.
const secondStepped = (path: { steps: readonly { event: { type: string } }[] }) =>
  path.steps.some((step) => step.event.type === 'login.needsCode' || step.event.type === 'login.needsEnrolment');
// A login through the second step stops where it reaches the user info or the login page again: from there on it
// walks what a plain login's paths walk.
const stepDone = (state: { context: { stepped?: true; changed?: true }; matches: (value: never) => boolean }) =>
  (state.context.stepped === true && (state.matches('loadingInfo' as never) || state.matches('loggedOut' as never))) ||
  // A password change stops where it leaves: the info read again, or the login page.
  (state.context.changed === true && state.matches('loggedOut' as never));
const paths = [
  ...testModel.getSimplePaths({ stopWhen: stepDone }).filter((path) => !resumed(path) && (!secondStepped(path) || path.steps.some((step) => step.event.type === 'restore.none'))),
  ...testModel.getSimplePaths({ stopWhen: (state) => state.matches('changingRole') || state.matches('loggingIn') }).filter(resumed),
];

const stateChecks = {
  checkingSession: () => expect(h.actor.getSnapshot().value).toBe('checkingSession'),
  loggingIn: () => expect(h.actor.getSnapshot().value).toBe('loggingIn'),
  // No session yet: nothing stored, the ticket kept for the code.
  'secondStep.code': (state: { context: { error: SessionMessage | null } }) => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toEqual({ secondStep: 'code' });
    expect(selectPhase(snapshot)).toBe('loggedOut');
    expect(snapshot.context.user.token).toBe('');
    expect(snapshot.context.secondStep).toEqual(asksCode);
    expect(snapshot.context.error).toEqual(state.context.error);
  },
  'secondStep.verifying': () => {
    expect(h.actor.getSnapshot().value).toEqual({ secondStep: 'verifying' });
    expect(h.calls.secondStepInputs.at(-1)).toEqual({ ticket: 'ticket-1', code: '123456', recovery: false });
  },
  'secondStep.enrolling': () => {
    expect(h.actor.getSnapshot().value).toEqual({ secondStep: 'enrolling' });
    expect(h.calls.persistSession).toEqual([]);
    expect(h.calls.secondStepInputs.at(-1)).toEqual({ ticket: 'ticket-2' });
  },
  'secondStep.enrolReady': (state: { context: { error: SessionMessage | null } }) => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toEqual({ secondStep: 'enrolReady' });
    expect(snapshot.context.enrolment).toEqual(enrolment);
    expect(snapshot.context.user.token).toBe('');
    expect(snapshot.context.error).toEqual(state.context.error);
  },
  'secondStep.confirming': () => {
    expect(h.actor.getSnapshot().value).toEqual({ secondStep: 'confirming' });
    expect(h.calls.secondStepInputs.at(-1)).toEqual({ ticket: 'ticket-2', code: '123456' });
  },
  // The session is stored, and the codes are on screen until the user says they kept them.
  'secondStep.recoveryCodes': () => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toEqual({ secondStep: 'recoveryCodes' });
    expect(snapshot.context.recoveryCodes).toEqual(recoveryCodes);
    expect(h.calls.persistSession.at(-1)?.token).toBe('tok-1');
  },
  loadingInfo: () => {
    expect(h.actor.getSnapshot().value).toBe('loadingInfo');
    expect(selectUser(h.actor.getSnapshot()).token).not.toBe('');
    expect(h.actor.getSnapshot().context.secondStep).toBeNull();
    expect(h.actor.getSnapshot().context.recoveryCodes).toBeNull();
  },
  // A token, but nothing of the app: no routes, no login check, the reason on screen.
  'passwordChange.form': (state: { context: { error: SessionMessage | null } }) => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toEqual({ passwordChange: 'form' });
    expect(selectPhase(snapshot)).toBe('loggedOut');
    expect(snapshot.context.user.token).not.toBe('');
    expect(snapshot.context.permittedRoutes).toEqual([]);
    expect(snapshot.context.passwordChange).toEqual({ reason: 'expired', notice: expiredNotice });
    expect(snapshot.context.error).toEqual(state.context.error);
    expect(h.pollerSendBack).toBeNull();
  },
  'passwordChange.changing': () => {
    expect(h.actor.getSnapshot().value).toEqual({ passwordChange: 'changing' });
    expect(h.calls.secondStepInputs.at(-1)).toEqual({ oldPassword: 'seller123', newPassword: 'Seller#2025-a' });
  },
  // The new password token is kept, and the info is asked again.
  reloadingInfo: () => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toBe('loadingInfo');
    expect(snapshot.context.passwordChange).toBeNull();
    expect(snapshot.context.user.auto).toBe('auto-2');
    expect(h.calls.persistAuto.at(-1)).toBe('auto-2');
  },
  generatingRoutes: () => {
    expect(h.actor.getSnapshot().value).toBe('generatingRoutes');
    expect(h.actor.getSnapshot().context.resumed).toBe(false);
  },
  resuming: () => {
    expect(h.actor.getSnapshot().value).toBe('generatingRoutes');
    expect(h.actor.getSnapshot().context.resumed).toBe(true);
    expect(h.calls.generateInputs.at(-1)).toEqual({ roles: ['admin'], rolePermissions: ['admin'], permissions: null });
  },
  // The app is on screen (phase loggedIn) with the kept info; getInfo has not answered.
  'loggedIn.verifying': () => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.matches({ loggedIn: 'verifying' })).toBe(true);
    expect(selectPhase(snapshot)).toBe('loggedIn');
    expect(snapshot.context.permittedRoutes).toEqual(routes);
    expect(snapshot.context.user).toMatchObject({ token: 'tok-stored', realRole: 'admin' });
    expect(h.pollerSendBack).not.toBeNull();
  },
  'loggedIn.rerouting': () => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.matches({ loggedIn: 'rerouting' })).toBe(true);
    expect(selectPhase(snapshot)).toBe('loggedIn');
    expect(h.calls.generateInputs.at(-1)).toEqual({ roles: ['admin', 'follow'], rolePermissions: ['admin', 'follow'], permissions: null });
  },
  'loggedIn.idle': () => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.matches({ loggedIn: 'idle' })).toBe(true);
    expect(selectPhase(snapshot)).toBe('loggedIn');
    expect(snapshot.context.permittedRoutes).toEqual(routes);
    expect(snapshot.context.user.realRole).toBe('admin');
    // The login check runs exactly while logged in, for this user and password token.
    expect(h.pollerSendBack).not.toBeNull();
    expect(h.calls.pollerInputs.at(-1)).toEqual({ username: 'seller', auto: 'auto-1' });
  },
  'loggedIn.refreshingToken': () => expect(h.actor.getSnapshot().matches({ loggedIn: 'refreshingToken' })).toBe(true),
  changingRole: () => {
    expect(h.actor.getSnapshot().value).toBe('changingRole');
    expect(h.emitted.at(-1)).toEqual({ type: 'tabs.closeAll' });
  },
  loggingOut: (state: { context: { error: SessionMessage | null } }) => {
    expect(h.actor.getSnapshot().value).toBe('loggingOut');
    expect(h.calls.clearPersistedSession).toBeGreaterThan(0);
    expect(h.actor.getSnapshot().context.error).toEqual(state.context.error);
    expect(h.pollerSendBack).toBeNull();
  },
  loggedOut: (state: { context: { error: SessionMessage | null } }) => {
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toBe('loggedOut');
    expect(selectPhase(snapshot)).toBe('loggedOut');
    expect(snapshot.context.user.token).toBe('');
    expect(snapshot.context.user.realRole).toBe('common');
    expect(snapshot.context.user.roles).toEqual([]);
    expect(snapshot.context.permittedRoutes).toEqual([]);
    expect(snapshot.context.error).toEqual(state.context.error);
  },
};

const eventExecs = {
  'restore.found': () => h.resolve('restoreSession', stored),
  'restore.withInfo': () => h.resolve('restoreSession', { ...stored, info: adminInfo }),
  'info.otherRoles': () => h.resolve('loadInfo', info(['admin', 'follow'])),
  'restore.none': () => h.resolve('restoreSession', null),
  'session.login': () => h.actor.send(loginEvent),
  'login.ok': () => h.resolve('login', loginData),
  'login.fail': () => h.reject('login', wrongCredentials),
  'login.needsCode': () => h.resolve('login', asksCode),
  'login.needsEnrolment': () => h.resolve('login', asksEnrolment),
  'session.otp': () => h.actor.send({ type: 'session.otp', code: '123456' }),
  'session.cancelSecondStep': () => h.actor.send({ type: 'session.cancelSecondStep' }),
  'otp.ok': () => h.resolve('verifyCode', loginData),
  'otp.fail': () => h.reject('verifyCode', wrongCode),
  'enrol.ok': () => h.resolve('startEnrolment', enrolment),
  'enrol.fail': () => h.reject('startEnrolment', wrongCode),
  'confirm.ok': () => h.resolve('confirmEnrolment', { ...loginData, recoveryCodes }),
  'confirm.fail': () => h.reject('confirmEnrolment', wrongCode),
  'session.recoveryCodesSaved': () => h.actor.send({ type: 'session.recoveryCodesSaved' }),
  'info.ok': () => h.resolve('loadInfo', adminInfo),
  'info.mustChange': () => h.resolve('loadInfo', mustChangeInfo),
  'session.changePassword': () => h.actor.send(changeEvent),
  'change.ok': () => h.resolve('changePassword', { auto: 'auto-2' }),
  'change.fail': () => h.reject('changePassword', policyRefusal),
  'info.noResponse': () => h.resolve('loadInfo', null),
  'info.emptyRoles': () => h.resolve('loadInfo', { ...adminInfo, roles: [] }),
  'info.fail': () => h.reject('loadInfo', new Error('boom')),
  'routes.ok': () => h.resolve('generateRoutes', routes),
  'session.refreshing': () => h.actor.send({ type: 'session.refreshing' }),
  'session.tokenRefreshed': () => h.actor.send({ type: 'session.tokenRefreshed', token: 'tok-2' }),
  'check.invalid': () => h.pollerSendBack?.({ type: 'session.loginChecked', valid: false }),
  'session.expired': () => h.actor.send({ type: 'session.expired', message: expiredText }),
  'session.logout': () => h.actor.send({ type: 'session.logout' }),
  'session.changeRole': () => h.actor.send({ type: 'session.changeRole', role: 'follow' }),
  'logout.done': () => h.resolve('logout', undefined),
};

describe('session machine: every simple path of its graph', () => {
  it('has paths to every state', () => {
    const reached = new Set(
      paths.flatMap((path) => [path.state, ...path.steps.map((step) => step.state)]).map((state) => JSON.stringify(state.value)),
    );
    expect(reached.size).toBe(21);
    expect(reached).toContain(JSON.stringify({ passwordChange: 'changing' }));
    expect(reached).toContain(JSON.stringify({ secondStep: 'recoveryCodes' }));
    expect(reached).toContain(JSON.stringify({ loggedIn: 'refreshingToken' }));
    expect(reached).toContain('"changingRole"');
    expect(reached).toContain('"loggedOut"');
  });

  for (const path of paths) {
    it(path.description, async () => {
      h = startHarness();
      await path.test({ states: stateChecks, events: eventExecs });
      h.actor.stop();
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------

async function loggedInHarness(roles = ['admin'], options: Parameters<typeof startHarness>[0] = {}) {
  const harness = startHarness(options);
  await harness.resolve('restoreSession', null);
  harness.actor.send(loginEvent);
  await harness.resolve('login', loginData);
  await harness.resolve('loadInfo', info(roles));
  await harness.resolve('generateRoutes', routes);
  return harness;
}

describe('session machine: what callers notice', () => {
  it('stores the login in cookies and local storage and tells the app where to go', async () => {
    const harness = await loggedInHarness(['follow']);
    expect(harness.calls.persistSession).toEqual([loginData]);
    expect(harness.emitted).toContainEqual({ type: 'session.loggedIn', redirect: '/store/store-list?x=1' });
    expect(harness.actor.getSnapshot().context.user).toMatchObject({
      token: 'tok-1',
      roles: ['follow'],
      realRole: 'follow',
      roleTime: { followValidTime: 1_900_000_000_000, plugValidTime: null },
    });
    expect(selectIsAdmin(harness.actor.getSnapshot())).toBe(false);
  });

  it('an expired password at login leads to the change first, then into the app where the login meant to go', async () => {
    h = startHarness();
    await h.resolve('restoreSession', null);
    h.actor.send(loginEvent);
    await h.resolve('login', { ...loginData, passwordChange: 'expired' });
    await h.resolve('loadInfo', mustChangeInfo);
    expect(selectPasswordChangeStep(h.actor.getSnapshot())).toBe('form');
    expect(h.calls.generateInputs).toEqual([]);
    h.actor.send(changeEvent);
    await h.reject('changePassword', policyRefusal);
    // The worker showed the refusal; the form stays with it.
    expect(selectPasswordChangeStep(h.actor.getSnapshot())).toBe('form');
    expect(h.actor.getSnapshot().context.error).toEqual({ text: policyRefusal.message });
    h.actor.send(changeEvent);
    await h.resolve('changePassword', { auto: 'auto-2' });
    await h.resolve('loadInfo', adminInfo);
    await h.resolve('generateRoutes', routes);
    expect(h.actor.getSnapshot().matches({ loggedIn: 'idle' })).toBe(true);
    expect(h.calls.pollerInputs.at(-1)).toEqual({ username: 'seller', auto: 'auto-2' });
    expect(h.emitted).toContainEqual({ type: 'session.loggedIn', redirect: '/store/store-list?x=1' });
    h.actor.stop();
  });

  it('a password near its end is told as the app opens', async () => {
    h = startHarness();
    await h.resolve('restoreSession', null);
    h.actor.send(loginEvent);
    await h.resolve('login', loginData);
    await h.resolve('loadInfo', { ...adminInfo, passwordNotice: '密码将在3天后过期，请及时修改' });
    expect(h.emitted).toContainEqual({ type: 'session.message', message: { text: '密码将在3天后过期，请及时修改' } });
    h.actor.stop();
  });

  it('restores a stored session without a login call', async () => {
    const harness = startHarness();
    await harness.resolve('restoreSession', stored);
    await harness.resolve('loadInfo', info(['search', 'keyword']));
    await harness.resolve('generateRoutes', routes);
    expect(harness.actor.getSnapshot().context.user).toMatchObject({ token: 'tok-stored', realRole: 'search' });
    expect(harness.calls.persistSession).toEqual([]);
  });

  it('keeps each user info it loads, for the next page load', async () => {
    const harness = await loggedInHarness(['follow']);
    expect(harness.calls.persistInfo).toEqual([info(['follow'])]);
  });

  it('a stored session with its last info shows the app before getInfo answers, and stays when the answer agrees', async () => {
    const harness = startHarness();
    const phases: string[] = [];
    harness.actor.subscribe((snapshot) => void phases.push(selectPhase(snapshot)));
    await harness.resolve('restoreSession', { ...stored, info: info(['follow']) });
    expect(harness.calls.generateInputs).toEqual([{ roles: ['follow'], rolePermissions: ['follow'], permissions: null }]);
    await harness.resolve('generateRoutes', routes);
    // On screen with the kept roles; getInfo still on its way.
    expect(selectPhase(harness.actor.getSnapshot())).toBe('loggedIn');
    expect(harness.actor.getSnapshot().context.user).toMatchObject({ token: 'tok-stored', realRole: 'follow', roles: ['follow'] });
    // No navigation: the page the reload opened stays.
    expect(harness.emitted.filter((event) => event.type === 'session.loggedIn')).toEqual([]);

    await harness.resolve('loadInfo', { ...info(['follow']), user: { ...info(['follow']).user, avatar: 'new.png' } });
    expect(harness.actor.getSnapshot().matches({ loggedIn: 'idle' })).toBe(true);
    expect(harness.actor.getSnapshot().context.user.avatar).toBe('new.png');
    expect(harness.calls.generateInputs).toHaveLength(1);
    expect(harness.calls.persistInfo).toHaveLength(1);
    expect(phases.slice(phases.indexOf('loggedIn'))).not.toContain('pending');
  });

  it('a resumed session whose roles changed since gets its routes made again without leaving the app', async () => {
    const harness = startHarness();
    const phases: string[] = [];
    harness.actor.subscribe((snapshot) => void phases.push(selectPhase(snapshot)));
    await harness.resolve('restoreSession', { ...stored, info: info(['follow', 'search']) });
    await harness.resolve('generateRoutes', routes);
    await harness.resolve('loadInfo', info(['follow']));
    expect(harness.calls.generateInputs.at(-1)).toEqual({ roles: ['follow'], rolePermissions: ['follow'], permissions: null });
    const fewer = [routes[0]!];
    await harness.resolve('generateRoutes', fewer);
    expect(harness.actor.getSnapshot().matches({ loggedIn: 'idle' })).toBe(true);
    expect(harness.actor.getSnapshot().context.permittedRoutes).toEqual(fewer);
    expect(phases.slice(phases.indexOf('loggedIn'))).not.toContain('pending');
  });

  it("a resumed member whose role's grants changed since gets the menus of the new grants", async () => {
    const harness = startHarness();
    await harness.resolve('restoreSession', { ...stored, info: info(['follow'], ['follow'], ['orders:view']) });
    expect(harness.calls.generateInputs.at(-1)).toEqual({ roles: ['follow'], rolePermissions: ['follow'], permissions: ['orders:view'] });
    await harness.resolve('generateRoutes', routes);
    await harness.resolve('loadInfo', info(['follow'], ['follow'], ['orders:view', 'products:view']));
    expect(harness.calls.generateInputs.at(-1)).toEqual({ roles: ['follow'], rolePermissions: ['follow'], permissions: ['orders:view', 'products:view'] });
    await harness.resolve('generateRoutes', routes);
    expect(harness.actor.getSnapshot().matches({ loggedIn: 'idle' })).toBe(true);
    expect(harness.actor.getSnapshot().context.user.permissions).toEqual(['orders:view', 'products:view']);
  });

  it("a member whose role changes while signed in gets the new grants' menus on screen, and none when nothing changed", async () => {
    const harness = await loggedInHarness(['follow']);
    const phases: string[] = [];
    harness.actor.subscribe((snapshot) => void phases.push(selectPhase(snapshot)));
    const asked = harness.calls.generateInputs.length;
    harness.actor.send({ type: 'session.grantsChanged' });
    await harness.settle();
    await harness.resolve('loadInfo', info(['follow']));
    expect(harness.actor.getSnapshot().matches({ loggedIn: 'idle' })).toBe(true);
    expect(harness.calls.generateInputs).toHaveLength(asked);

    harness.actor.send({ type: 'session.grantsChanged' });
    await harness.settle();
    await harness.resolve('loadInfo', info(['follow'], ['follow'], ['orders:view']));
    expect(harness.calls.generateInputs.at(-1)).toEqual({ roles: ['follow'], rolePermissions: ['follow'], permissions: ['orders:view'] });
    await harness.resolve('generateRoutes', routes);
    expect(harness.actor.getSnapshot().matches({ loggedIn: 'idle' })).toBe(true);
    expect(phases).not.toContain('pending');
    expect(harness.emitted.filter((event) => event.type === 'session.loggedIn')).toHaveLength(1);
  });

  it('a resumed session the server refuses ends on the login page with the server\'s message', async () => {
    const harness = startHarness();
    await harness.resolve('restoreSession', { ...stored, info: info(['follow']) });
    await harness.resolve('generateRoutes', routes);
    await harness.reject('loadInfo', { type: 'Failed', code: 401, message: '登录状态已过期，请重新登录', silent: false });
    expect(harness.actor.getSnapshot().value).toBe('loggingOut');
    expect(harness.calls.clearPersistedSession).toBe(1);
    await harness.resolve('logout', undefined);
    expect(harness.emitted).toContainEqual({ type: 'session.loggedOut', reason: 'forced' });
    expect(selectUser(harness.actor.getSnapshot()).roles).toEqual([]);
  });

  it('an admin changing role while the resumed session is checked gets the chosen role\'s routes', async () => {
    const harness = startHarness();
    await harness.resolve('restoreSession', { ...stored, info: adminInfo });
    await harness.resolve('generateRoutes', routes);
    harness.actor.send({ type: 'session.changeRole', role: 'follow' });
    await harness.settle();
    await harness.resolve('loadInfo', adminInfo);
    expect(harness.calls.generateInputs.at(-1)).toEqual({ roles: ['follow'], rolePermissions: ['follow'], permissions: null });
    await harness.resolve('generateRoutes', routes);
    expect(harness.actor.getSnapshot().matches({ loggedIn: 'idle' })).toBe(true);
    expect(harness.actor.getSnapshot().context.viewRole).toBe('follow');
  });

  it('keeps and stores a refreshed token', async () => {
    const harness = await loggedInHarness();
    harness.actor.send({ type: 'session.refreshing' });
    harness.actor.send({ type: 'session.tokenRefreshed', token: 'tok-9' });
    expect(harness.actor.getSnapshot().context.user.token).toBe('tok-9');
    expect(harness.calls.persistToken).toEqual(['tok-9']);
  });

  it('a password change made here keeps this session and restarts the login check with the new token', async () => {
    const harness = await loggedInHarness();
    harness.actor.send({ type: 'session.passwordChanged', auto: 'auto-2' });
    expect(selectPhase(harness.actor.getSnapshot())).toBe('loggedIn');
    expect(harness.calls.pollerInputs.at(-1)).toEqual({ username: 'seller', auto: 'auto-2' });
    expect(harness.calls.persistAuto).toEqual(['auto-2']);
  });

  it('a valid login check keeps the user logged in; session.checkNow asks the poller to check at once', async () => {
    const harness = await loggedInHarness();
    harness.pollerSendBack?.({ type: 'session.loginChecked', valid: true });
    harness.actor.send({ type: 'session.checkNow' });
    expect(selectPhase(harness.actor.getSnapshot())).toBe('loggedIn');
    expect(harness.calls.checkNow).toBe(1);
  });

  it('an invalid login check logs out with the password-changed message and announces a forced logout', async () => {
    const harness = await loggedInHarness();
    harness.pollerSendBack?.({ type: 'session.loginChecked', valid: false });
    await harness.resolve('logout', undefined);
    expect(harness.emitted).toContainEqual({ type: 'session.message', message: { key: 'passwordChanged' } });
    expect(harness.emitted).toContainEqual({ type: 'session.loggedOut', reason: 'forced' });
    expect(harness.emitted).toContainEqual({ type: 'tabs.closeAll' });
  });

  it('a user logout clears every stored item even when the server cannot be reached', async () => {
    const harness = await loggedInHarness();
    harness.actor.send({ type: 'session.logout' });
    await harness.reject('logout', { type: 'Network', code: 0, message: '网络问题，请重试', silent: false });
    expect(harness.calls.clearPersistedSession).toBe(1);
    expect(harness.emitted.at(-1)).toEqual({ type: 'session.loggedOut', reason: 'user' });
    expect(harness.actor.getSnapshot().context.user.realRole).toBe('common');
  });

  it('a failed getInfo that the worker already reported is not shown twice; a foreign error is', async () => {
    const harness = startHarness();
    await harness.resolve('restoreSession', stored);
    await harness.reject('loadInfo', { type: 'Unauthorized', code: 401, message: '权限已过期', silent: false });
    expect(harness.actor.getSnapshot().context.error).toEqual({ text: '权限已过期' });
    expect(harness.emitted.filter((event) => event.type === 'session.message')).toEqual([]);

    const other = startHarness();
    await other.resolve('restoreSession', stored);
    await other.reject('loadInfo', 'weird');
    expect(other.emitted).toContainEqual({ type: 'session.message', message: { key: 'hasError' } });
  });

  it('a reload whose token has expired shows the expired message itself (no logged-in session hears the worker say so)', async () => {
    const harness = startHarness();
    await harness.resolve('restoreSession', stored);
    await harness.reject('loadInfo', { type: 'TokenExpired', code: 402, message: expiredText, silent: false });
    expect(harness.emitted).toContainEqual({ type: 'session.message', message: { text: expiredText } });

    const resumed = startHarness();
    await resumed.resolve('restoreSession', { ...stored, info: adminInfo });
    await resumed.resolve('generateRoutes', routes);
    await resumed.reject('loadInfo', { type: 'TokenExpired', code: 402, message: expiredText, silent: false });
    expect(resumed.emitted.filter((event) => event.type === 'session.message')).toEqual([{ type: 'session.message', message: { text: expiredText } }]);
    // The worker's own announcement, coming after, adds nothing.
    resumed.actor.send({ type: 'session.expired', message: expiredText });
    expect(resumed.emitted.filter((event) => event.type === 'session.message')).toHaveLength(1);
  });

  it('no answer on getInfo is "Verification failed"', async () => {
    const harness = startHarness();
    await harness.resolve('restoreSession', stored);
    await harness.reject('loadInfo', { type: 'Network', code: 0, message: '网络问题，请重试', silent: false });
    expect(harness.actor.getSnapshot().context.error).toEqual({ key: 'verificationFailed' });
  });

  it('change-role is for admins only and regenerates routes with the chosen role as the view', async () => {
    const follower = await loggedInHarness(['follow']);
    follower.actor.send({ type: 'session.changeRole', role: 'search' });
    expect(follower.actor.getSnapshot().matches('loggedIn')).toBe(true);

    const admin = await loggedInHarness(['admin']);
    admin.actor.send({ type: 'session.changeRole', role: 'search' });
    await admin.resolve('loadInfo', adminInfo);
    expect(admin.calls.generateInputs.at(-1)).toEqual({ roles: ['search'], rolePermissions: ['search'], permissions: null });
    await admin.resolve('generateRoutes', [routes[0]]);
    expect(admin.actor.getSnapshot().context.user.token).toBe('tok-1');
    expect(admin.actor.getSnapshot().context.viewRole).toBe('search');
  });
});

// Every getInfo outcome the spec and the worker can produce, with what the user must be left with (spec §4, §8).
type InfoOutcome = {
  name: string;
  answer: (harness: Harness) => Promise<void>;
  state: 'generatingRoutes' | 'loggingOut';
  error: SessionMessage | null;
  /** What the machine itself shows; a failure the worker already showed is not shown again. */
  shown: SessionMessage[];
};
const infoOutcomes: InfoOutcome[] = [
  { name: 'roles', answer: (x) => x.resolve('loadInfo', adminInfo), state: 'generatingRoutes', error: null, shown: [] },
  {
    name: 'an empty answer',
    answer: (x) => x.resolve('loadInfo', null),
    state: 'loggingOut',
    error: { key: 'verificationFailed' },
    shown: [{ key: 'verificationFailed' }],
  },
  {
    name: 'empty roles',
    answer: (x) => x.resolve('loadInfo', { ...adminInfo, roles: [] }),
    state: 'loggingOut',
    error: { key: 'rolesEmpty' },
    shown: [{ key: 'rolesEmpty' }],
  },
  {
    name: 'no answer (network)',
    answer: (x) => x.reject('loadInfo', { type: 'Network', code: 0, message: '网络问题，请重试', silent: false }),
    state: 'loggingOut',
    error: { key: 'verificationFailed' },
    shown: [{ key: 'verificationFailed' }],
  },
  {
    name: 'a failure the worker showed',
    answer: (x) => x.reject('loadInfo', { type: 'Unauthorized', code: 401, message: '权限已过期', silent: false }),
    state: 'loggingOut',
    error: { text: '权限已过期' },
    shown: [],
  },
  {
    name: 'a silent failure',
    answer: (x) => x.reject('loadInfo', { type: 'Failed', code: 500, message: '服务器开小差', silent: true }),
    state: 'loggingOut',
    error: { text: '服务器开小差' },
    shown: [{ text: '服务器开小差' }],
  },
  {
    name: 'a foreign error',
    answer: (x) => x.reject('loadInfo', 'weird'),
    state: 'loggingOut',
    error: { key: 'hasError' },
    shown: [{ key: 'hasError' }],
  },
];

/** Answers the pending getInfo and reports what a user and the app would notice. */
async function answerInfo(harness: Harness, outcome: InfoOutcome) {
  const before = harness.emitted.length;
  await outcome.answer(harness);
  const snapshot = harness.actor.getSnapshot();
  return {
    state: snapshot.value,
    error: snapshot.context.error,
    shown: harness.emitted
      .slice(before)
      .flatMap((event) => (event.type === 'session.message' ? [event.message] : [])),
  };
}

describe('session machine: change-role answers getInfo exactly as loading the session does', () => {
  it('an empty getInfo answer while changing role is "Verification failed", and the user is logged out', async () => {
    const harness = await loggedInHarness(['admin']);
    harness.actor.send({ type: 'session.changeRole', role: 'follow' });
    await harness.resolve('loadInfo', null);
    expect(harness.actor.getSnapshot().context.error).toEqual({ key: 'verificationFailed' });
    expect(harness.emitted).toContainEqual({ type: 'session.message', message: { key: 'verificationFailed' } });
    expect(harness.emitted).not.toContainEqual({ type: 'session.message', message: { key: 'rolesEmpty' } });
    await harness.resolve('logout', undefined);
    expect(harness.actor.getSnapshot().value).toBe('loggedOut');
    expect(harness.emitted.at(-1)).toEqual({ type: 'session.loggedOut', reason: 'forced' });
  });

  for (const outcome of infoOutcomes) {
    it(`getInfo with ${outcome.name}: same outcome on session start and on change-role`, async () => {
      const starting = startHarness();
      await starting.resolve('restoreSession', stored);
      const onStart = await answerInfo(starting, outcome);

      const changing = await loggedInHarness(['admin']);
      changing.actor.send({ type: 'session.changeRole', role: 'follow' });
      const onChange = await answerInfo(changing, outcome);

      const expected = { state: outcome.state, error: outcome.error, shown: outcome.shown };
      expect(onStart).toEqual(expected);
      expect(onChange).toEqual(expected);
      starting.actor.stop();
      changing.actor.stop();
    });
  }
});

describe('session machine: the 75 s login check on a simulated clock', () => {
  const pollerFake = (valid: boolean) =>
    createMachine({
      initial: 'waiting',
      states: {
        waiting: {
          after: { 75_000: { target: 'waiting', reenter: true, actions: sendParent({ type: 'session.loginChecked', valid }) } },
        },
      },
    });

  it('a valid answer keeps the user logged in', async () => {
    const clock = new SimulatedClock();
    const harness = await loggedInHarness(['follow'], { clock, poller: pollerFake(true) });
    clock.increment(74_999);
    clock.increment(1);
    clock.increment(75_000);
    expect(selectPhase(harness.actor.getSnapshot())).toBe('loggedIn');
  });

  it('an invalid answer after 75 s logs out with 该用户密码已被修改，请重新登录！', async () => {
    const clock = new SimulatedClock();
    const harness = await loggedInHarness(['follow'], { clock, poller: pollerFake(false) });
    clock.increment(74_999);
    expect(selectPhase(harness.actor.getSnapshot())).toBe('loggedIn');
    clock.increment(1);
    expect(harness.actor.getSnapshot().value).toBe('loggingOut');
    await harness.resolve('logout', undefined);
    const done = await waitFor(harness.actor, (snapshot) => snapshot.matches('loggedOut'));
    expect(done.context.error).toEqual({ key: 'passwordChanged' });
    expect(harness.emitted).toContainEqual({ type: 'session.message', message: { key: 'passwordChanged' } });
  });
});
