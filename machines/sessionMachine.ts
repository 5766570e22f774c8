import { assign, emit, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import type { MessageKey } from '../contract/errors';
import { COMMON_ROLE } from '../contract/access';
import type {
  ChangePswBody,
  ChangePswData,
  LoginAnswer,
  LoginBody,
  LoginData,
  PasswordChangeReason,
  RightInfo,
  RoleOrCommon,
  SecondStep,
  UserInfo,
  ValidityTimes,
} from '../contract/session';
import type { EnrolLoginBody, EnrolLoginData, LoginOtpBody, OtpEnrolment } from '../contract/signin';
import { isApiFailure } from '../workers/api';

/**
 * The session (seller-tool §3 session user, §4 states and transitions, §6 roles, §2.2 guard).
 *
 * Every I/O is an invoked actor; the stubs below throw until the app (real worker calls) or a test (fakes) provides
 * them. Persistence (cookies and local storage) is a set of injected actions so tests can observe it.
 *
 * Change-role: the original set the token to "<role>-token", which our server would refuse (tokens are opaque and
 * checked on every call; roles are enforced server-side). We keep the real token and only change the *view*: routes
 * are regenerated with the chosen role as the only permission, so an admin sees what that role sees.
 */

/** The least a route needs for the machine to hold it; the app's route table is a richer structural subtype. */
export type RouteNode = { readonly path: string; readonly children?: readonly RouteNode[] };

export type SessionMessage = { key: MessageKey } | { text: string };

export type SessionUser = {
  token: string;
  id: number | null;
  name: string;
  /** "1" for administrators, "0" otherwise (spec default "0"). */
  right: string;
  validTime: number | null;
  isAp: boolean;
  relative_id: number | null;
  /** The password token the login check posts. */
  auto: string;
  avatar: string;
  introduction: string;
  roles: string[];
  rolePermissions: string[];
  /** A member's granted `area:action` permissions (menus and buttons follow them); null for an owner or admin. */
  permissions: string[] | null;
  /** The first role, 'common' when none. */
  realRole: string;
  roleTime: ValidityTimes;
  rightInfo: RightInfo | null;
  category: string[];
};

export type SessionContext = {
  user: SessionUser;
  /** The role an admin chose to view the tool as (change-role), or null for the real roles. */
  viewRole: RoleOrCommon | null;
  permittedRoutes: readonly RouteNode[];
  error: SessionMessage | null;
  /** Where to go after a login started from the login page. */
  redirect: string | null;
  /** Shown with the user info kept from the last load; getInfo has not answered yet (`loggedIn.verifying`). */
  resumed: boolean;
  /** The password was right and the account needs a one-time code (or its set-up) before the session. */
  secondStep: SecondStep | null;
  /** The one-time password being set up during the login (`secondStep.enrolReady`). */
  enrolment: OtpEnrolment | null;
  /** The recovery codes of a set-up just confirmed, shown once (`secondStep.recoveryCodes`). */
  recoveryCodes: string[] | null;
  /** The password expired or the policy no longer accepts it: changed before the app (`passwordChange`). */
  passwordChange: { reason: PasswordChangeReason; notice: string | null } | null;
};

/**
 * What survives a page reload: the login answer, kept in cookies and local storage, and the user info last loaded
 * for it. With that info a reload shows the app at once and checks the session again behind it (`loggedIn.verifying`).
 */
export type StoredSession = Pick<LoginData, 'token' | 'id' | 'name' | 'right' | 'validTime' | 'isAp' | 'relative_id' | 'auto'> & {
  info?: UserInfo | null;
};

export type SessionEvent =
  | ({ type: 'session.login'; redirect?: string | null } & Required<Pick<LoginBody, 'username' | 'password'>> & {
        code: string;
        uuid: string;
      })
  | { type: 'session.logout' }
  | { type: 'session.changeRole'; role: RoleOrCommon }
  | { type: 'session.refreshing' }
  | { type: 'session.tokenRefreshed'; token: string }
  | { type: 'session.expired'; message: string }
  | { type: 'session.loginChecked'; valid: boolean }
  | { type: 'session.checkNow' }
  /** The person's organisation role or shops changed (the push's `scope.changed`): read the info, redo the menus. */
  | { type: 'session.grantsChanged' }
  /** This session changed the password: it keeps going with the new password token (the server ended the others). */
  | { type: 'session.passwordChanged'; auto: string }
  /** The login's second step: a one-time code, or one of the recovery codes. */
  | { type: 'session.otp'; code: string; recovery?: boolean }
  /** Back to the password (the second step's ticket is dropped). */
  | { type: 'session.cancelSecondStep' }
  /** The user has kept the recovery codes shown after a set-up: the session goes on. */
  | { type: 'session.recoveryCodesSaved' }
  /** The new password the sign-in must set before the app (`passwordChange`). */
  | ({ type: 'session.changePassword' } & Required<ChangePswBody>);

/** Events the machine emits for the app (`actor.on(type, handler)`). */
export type SessionEmitted =
  | { type: 'session.message'; message: SessionMessage }
  | { type: 'session.loggedIn'; redirect: string | null }
  | { type: 'session.loggedOut'; reason: 'user' | 'forced' }
  /** Every tab view closes (logout, change-role); the tabs machine listens. */
  | { type: 'tabs.closeAll' };

export type LoginInput = LoginBody;
/** `permissions`: a member's grants (contract/access.ts `areaGranted`), null for everyone else. */
export type GenerateRoutesInput = { roles: readonly string[]; rolePermissions: readonly string[]; permissions: readonly string[] | null };
export type LoginCheckPollerInput = { username: string; auto: string };
/** Sent to the poller child: run the check now (page visible again, window focused). */
export type LoginCheckPollerEvent = { type: 'session.checkNow' };

const emptyRoleTime: ValidityTimes = {
  followValidTime: null,
  plugValidTime: null,
  searchWordValidTime: null,
  keyWordValidTime: null,
};

export const anonymousUser: SessionUser = {
  token: '',
  id: null,
  name: '',
  right: '0',
  validTime: null,
  isAp: false,
  relative_id: null,
  auto: '',
  avatar: '',
  introduction: '',
  roles: [],
  rolePermissions: [],
  permissions: null,
  realRole: COMMON_ROLE,
  roleTime: emptyRoleTime,
  rightInfo: null,
  category: [],
};

const initialContext: SessionContext = {
  user: anonymousUser,
  viewRole: null,
  permittedRoutes: [],
  error: null,
  redirect: null,
  resumed: false,
  secondStep: null,
  enrolment: null,
  recoveryCodes: null,
  passwordChange: null,
};

function notProvided(name: string): never {
  throw new Error(`sessionMachine: actor '${name}' not provided`);
}

/** The failure of loading user info, as the spec words it (§4, §8). */
export function infoFailureMessage(error: unknown): SessionMessage {
  if (error === undefined || error === null) return { key: 'verificationFailed' };
  if (isApiFailure(error)) {
    // No answer at all is the spec's "no response".
    if (error.type === 'Network' || error.type === 'Timeout') return { key: 'verificationFailed' };
    return error.message ? { text: error.message } : { key: 'hasError' };
  }
  if (error instanceof Error && error.message) return { text: error.message };
  return { key: 'hasError' };
}

/** The worker already showed a non-silent API failure as a message; anything else the machine must show itself. */
function wasShownByWorker(error: unknown): boolean {
  // An expired token is not shown as a message by the worker: it announces 'session.expired', which only a
  // logged-in session listens to (a reload's session check fails with it before that).
  return isApiFailure(error) && !error.silent && error.type !== 'Network' && error.type !== 'Timeout' && error.type !== 'TokenExpired';
}

function failureMessage(error: unknown): SessionMessage {
  if (isApiFailure(error) && error.message) return { text: error.message };
  if (error instanceof Error && error.message) return { text: error.message };
  return { key: 'hasError' };
}

const sessionSetup = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as SessionEmitted,
  },
  actors: {
    restoreSession: fromPromise<StoredSession | null>(async () => notProvided('restoreSession')),
    /** The password step: a session, or the second step the account needs. */
    login: fromPromise<LoginAnswer, LoginInput>(async () => notProvided('login')),
    /** The second step: a one-time or recovery code for the ticket. */
    verifyCode: fromPromise<LoginData, LoginOtpBody>(async () => notProvided('verifyCode')),
    /** A required one-time password's set-up: the secret and its QR URI for the ticket. */
    startEnrolment: fromPromise<OtpEnrolment, { ticket: string }>(async () => notProvided('startEnrolment')),
    /** Confirms the set-up with a first code: the session and the recovery codes. */
    confirmEnrolment: fromPromise<EnrolLoginData, EnrolLoginBody>(async () => notProvided('confirmEnrolment')),
    /** Changes the password a sign-in must change first (the server refuses every other call until then). */
    changePassword: fromPromise<ChangePswData, ChangePswBody>(async () => notProvided('changePassword')),
    /** Resolves with the user info, or with null when the server gave no usable answer. */
    loadInfo: fromPromise<UserInfo | null>(async () => notProvided('loadInfo')),
    generateRoutes: fromPromise<readonly RouteNode[], GenerateRoutesInput>(async () => notProvided('generateRoutes')),
    /** Ends the session on the server (best effort) and makes the worker forget the credentials. */
    logout: fromPromise<void>(async () => notProvided('logout')),
    /** Lives as long as `loggedIn`: starts the worker's 75 s login check and forwards `session.loginChecked`. */
    loginCheckPoller: fromCallback<LoginCheckPollerEvent, LoginCheckPollerInput>(() => notProvided('loginCheckPoller')),
  },
  actions: {
    /** Writes the login to cookies (Admin-Token, Admin-MaxId) and local storage. */
    persistSession: (_, _session: StoredSession) => {},
    /** Writes a refreshed access token to the Admin-Token cookie. */
    persistToken: (_, _token: string) => {},
    /** Writes a new password token to local storage. */
    persistAuto: (_, _auto: string) => {},
    /** Keeps the user info just loaded with the stored session, for the next page load. */
    persistInfo: (_, _info: UserInfo) => {},
    /** Removes every stored item of the session (spec §4 logout). */
    clearPersistedSession: () => {},
    assignStoredSession: assign(({ context }, stored: StoredSession | null) => {
      if (!stored) return {};
      const { info: _info, ...session } = stored;
      return { user: { ...context.user, ...session } };
    }),
    assignInfo: assign(({ context }, info: UserInfo) => ({
      user: {
        ...context.user,
        name: info.user.name || context.user.name,
        avatar: info.user.avatar,
        introduction: info.user.introduction,
        roles: info.roles,
        rolePermissions: info.rolePermissions,
        // Info kept from before members had permissions has none: everything, until getInfo answers.
        permissions: info.permissions ?? null,
        realRole: info.roles[0] ?? COMMON_ROLE,
        roleTime: {
          followValidTime: info.user.followValidTime,
          plugValidTime: info.user.plugValidTime,
          searchWordValidTime: info.user.searchWordValidTime,
          keyWordValidTime: info.user.keyWordValidTime,
        },
        rightInfo: info.user.rightInfo,
      },
      resumed: false,
    })),
    /** Everything of the session but the error it ended with. */
    clearSession: assign(({ context }) => ({ ...initialContext, error: context.error })),
    /** The warning that the password ends in a few days. */
    warnPassword: emit((_, info: UserInfo) => ({ type: 'session.message' as const, message: { text: info.passwordNotice ?? '' } })),
    clearSecondStep: assign({ secondStep: null, enrolment: null, recoveryCodes: null }),
    setError: assign((_, message: SessionMessage) => ({ error: message })),
    clearError: assign({ error: null }),
    showMessage: emit((_, message: SessionMessage) => ({ type: 'session.message' as const, message })),
    announceLoggedOut: emit(({ context }) => ({
      type: 'session.loggedOut' as const,
      reason: context.error ? ('forced' as const) : ('user' as const),
    })),
    closeAllTabs: emit({ type: 'tabs.closeAll' as const }),
  },
  guards: {
    hasStoredSession: (_, stored: StoredSession | null) => stored !== null && stored.token !== '',
    hasStoredInfo: (_, stored: StoredSession | null) =>
      stored !== null && stored.token !== '' && Array.isArray(stored.info?.roles) && stored.info.roles.length > 0,
    /** A resumed session's info, with the roles and permissions its routes were made from. */
    resumedWithSameRoles: ({ context }, info: UserInfo | null) =>
      context.resumed &&
      info !== null &&
      info.roles.length > 0 &&
      sameList(info.roles, context.user.roles) &&
      sameList(info.rolePermissions, context.user.rolePermissions) &&
      sameGrants(info.permissions ?? null, context.user.permissions),
    resumedWithRoles: ({ context }, info: UserInfo | null) => context.resumed && info !== null && Array.isArray(info.roles) && info.roles.length > 0,
    hasRoles: (_, info: UserInfo | null) => info !== null && Array.isArray(info.roles) && info.roles.length > 0,
    hasInfo: (_, info: UserInfo | null) => info !== null && info !== undefined,
    /** The server refuses everything but the password change until it is made. */
    mustChangePassword: (_, info: UserInfo | null) => Boolean(info?.passwordChange),
    /** The password ends within the policy's warning days. */
    hasRolesAndPasswordNotice: (_, info: UserInfo | null) => info !== null && Array.isArray(info.roles) && info.roles.length > 0 && Boolean(info.passwordNotice),
    isAdmin: ({ context }) => context.user.realRole === 'admin' || context.user.rightInfo?.isAdmin === true,
    /** The worker reports every non-silent API failure itself; the machine must not show it twice. */
    wasShownByWorker: (_, params: { error: unknown }) => wasShownByWorker(params.error),
    isSessionInvalid: (_, valid: boolean) => !valid,
    asksCode: (_, answer: LoginAnswer) => 'secondStep' in answer && answer.secondStep === 'otp',
    asksEnrolment: (_, answer: LoginAnswer) => 'secondStep' in answer && answer.secondStep === 'enrol',
  },
});

/**
 * What a getInfo answer leads to (spec §4, §8). Every state that calls getInfo (loading the session, checking a
 * resumed one, changing role) takes this one definition so the user sees the same outcome for the same answer,
 * whichever of them asked. Targets are by id so the config does not depend on where a state using it sits.
 */
const loadingUserInfo = sessionSetup.createStateConfig({
  invoke: {
    src: 'loadInfo',
    onDone: [
      // A password that expired or that the policy no longer accepts: changed before anything of the app shows.
      {
        guard: { type: 'mustChangePassword', params: ({ event }) => event.output },
        target: '#session.passwordChange',
        actions: assign(({ event }) => ({
          passwordChange: { reason: event.output!.passwordChange!, notice: event.output!.passwordNotice ?? null },
          resumed: false,
          permittedRoutes: [],
        })),
      },
      // A resumed session, shown with the info kept from its last load: it goes on as it is, or with its routes made
      // again when its roles changed since.
      {
        guard: { type: 'resumedWithSameRoles', params: ({ event }) => event.output },
        target: '#session.loggedIn.idle',
        actions: [
          { type: 'assignInfo', params: ({ event }) => event.output as UserInfo },
          { type: 'persistInfo', params: ({ event }) => event.output as UserInfo },
        ],
      },
      {
        guard: { type: 'resumedWithRoles', params: ({ event }) => event.output },
        target: '#session.loggedIn.rerouting',
        actions: [
          { type: 'assignInfo', params: ({ event }) => event.output as UserInfo },
          { type: 'persistInfo', params: ({ event }) => event.output as UserInfo },
        ],
      },
      {
        // The password ends within the policy's warning days: the user is told as the app opens.
        guard: { type: 'hasRolesAndPasswordNotice', params: ({ event }) => event.output },
        target: '#session.generatingRoutes',
        actions: [
          { type: 'assignInfo', params: ({ event }) => event.output as UserInfo },
          { type: 'persistInfo', params: ({ event }) => event.output as UserInfo },
          { type: 'warnPassword', params: ({ event }) => event.output as UserInfo },
        ],
      },
      {
        guard: { type: 'hasRoles', params: ({ event }) => event.output },
        target: '#session.generatingRoutes',
        actions: [
          { type: 'assignInfo', params: ({ event }) => event.output as UserInfo },
          { type: 'persistInfo', params: ({ event }) => event.output as UserInfo },
        ],
      },
      {
        guard: { type: 'hasInfo', params: ({ event }) => event.output },
        target: '#session.loggingOut',
        actions: [
          { type: 'setError', params: { key: 'rolesEmpty' } },
          { type: 'showMessage', params: { key: 'rolesEmpty' } },
        ],
      },
      {
        target: '#session.loggingOut',
        actions: [
          { type: 'setError', params: { key: 'verificationFailed' } },
          { type: 'showMessage', params: { key: 'verificationFailed' } },
        ],
      },
    ],
    onError: [
      {
        guard: { type: 'wasShownByWorker', params: ({ event }) => ({ error: event.error }) },
        target: '#session.loggingOut',
        actions: { type: 'setError', params: ({ event }) => infoFailureMessage(event.error) },
      },
      {
        target: '#session.loggingOut',
        actions: [
          { type: 'setError', params: ({ event }) => infoFailureMessage(event.error) },
          { type: 'showMessage', params: ({ event }) => infoFailureMessage(event.error) },
        ],
      },
    ],
  },
});

/** Routes that could not be made end the session, with the failure shown unless the worker showed it. */
type FailedEvent = { event: { error: unknown } };
const routesFailed = [
  {
    guard: { type: 'wasShownByWorker', params: ({ event }: FailedEvent) => ({ error: event.error }) },
    target: '#session.loggingOut',
    actions: { type: 'setError', params: ({ event }: FailedEvent) => failureMessage(event.error) },
  },
  {
    target: '#session.loggingOut',
    actions: [
      { type: 'setError', params: ({ event }: FailedEvent) => failureMessage(event.error) },
      { type: 'showMessage', params: ({ event }: FailedEvent) => failureMessage(event.error) },
    ],
  },
] as const;

/** Back to the password from a step that holds no session yet. */
const cancelSecondStep = { target: '#session.loggedOut', actions: ['clearSecondStep', 'clearError'] } as const;

/** A refused second step: back to `target` with the reason, shown unless the worker showed it. */
function stepFailed(target: string) {
  return [
    {
      guard: { type: 'wasShownByWorker' as const, params: ({ event }: FailedEvent) => ({ error: event.error }) },
      target,
      actions: { type: 'setError' as const, params: ({ event }: FailedEvent) => failureMessage(event.error) },
    },
    {
      target,
      actions: [
        { type: 'setError' as const, params: ({ event }: FailedEvent) => failureMessage(event.error) },
        { type: 'showMessage' as const, params: ({ event }: FailedEvent) => failureMessage(event.error) },
      ],
    },
  ];
}

export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  context: initialContext,
  initial: 'checkingSession',
  on: {
    // A refresh can finish while info is still loading: keep the new token whatever the state.
    'session.tokenRefreshed': {
      actions: [
        assign(({ context, event }) => ({ user: { ...context.user, token: event.token } })),
        { type: 'persistToken', params: ({ event }) => event.token },
      ],
    },
  },
  states: {
    checkingSession: {
      invoke: {
        src: 'restoreSession',
        onDone: [
          {
            // Its user info from the last load: the app shows at once, and getInfo checks the session behind it.
            guard: { type: 'hasStoredInfo', params: ({ event }) => event.output },
            target: 'generatingRoutes',
            actions: [
              { type: 'assignStoredSession', params: ({ event }) => event.output },
              { type: 'assignInfo', params: ({ event }) => event.output!.info! },
              assign({ resumed: true }),
            ],
          },
          {
            guard: { type: 'hasStoredSession', params: ({ event }) => event.output },
            target: 'loadingInfo',
            actions: { type: 'assignStoredSession', params: ({ event }) => event.output },
          },
          { target: 'loggedOut' },
        ],
        onError: { target: 'loggedOut' },
      },
    },
    loggedOut: {
      on: {
        'session.login': {
          target: 'loggingIn',
          actions: [assign(({ event }) => ({ redirect: event.redirect ?? null })), 'clearError'],
        },
      },
    },
    loggingIn: {
      invoke: {
        src: 'login',
        input: ({ event }) => {
          if (event.type !== 'session.login') throw new Error('loggingIn entered without session.login');
          return { username: event.username, password: event.password, code: event.code, uuid: event.uuid };
        },
        onDone: [
          {
            guard: { type: 'asksCode', params: ({ event }) => event.output },
            target: 'secondStep.code',
            actions: assign(({ event }) => ({ secondStep: event.output as SecondStep })),
          },
          {
            guard: { type: 'asksEnrolment', params: ({ event }) => event.output },
            target: 'secondStep.enrolling',
            actions: assign(({ event }) => ({ secondStep: event.output as SecondStep })),
          },
          {
            target: 'loadingInfo',
            actions: [
              { type: 'assignStoredSession', params: ({ event }) => pickStored(event.output as LoginData) },
              { type: 'persistSession', params: ({ event }) => pickStored(event.output as LoginData) },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'wasShownByWorker', params: ({ event }) => ({ error: event.error }) },
            target: 'loggedOut',
            actions: { type: 'setError', params: ({ event }) => failureMessage(event.error) },
          },
          {
            target: 'loggedOut',
            actions: [
              { type: 'setError', params: ({ event }) => failureMessage(event.error) },
              { type: 'showMessage', params: ({ event }) => failureMessage(event.error) },
            ],
          },
        ],
      },
    },
    /**
     * The login's second step (a one-time password): the code, or a required set-up the user cannot skip (the QR
     * code, confirmed with a first code, then the recovery codes shown once). A refused code stays on the step with
     * the server's reason (wrong, used, locked for 10 minutes); cancelling goes back to the password.
     */
    secondStep: {
      initial: 'code',
      states: {
        code: { on: { 'session.otp': { target: 'verifying', actions: 'clearError' }, 'session.cancelSecondStep': cancelSecondStep } },
        verifying: {
          invoke: {
            src: 'verifyCode',
            input: ({ context, event }) => {
              if (event.type !== 'session.otp') throw new Error('verifying entered without session.otp');
              return { ticket: context.secondStep?.ticket ?? '', code: event.code, recovery: event.recovery ?? false };
            },
            onDone: {
              target: '#session.loadingInfo',
              actions: [
                { type: 'assignStoredSession', params: ({ event }) => pickStored(event.output) },
                { type: 'persistSession', params: ({ event }) => pickStored(event.output) },
                'clearSecondStep',
              ],
            },
            onError: stepFailed('code'),
          },
        },
        enrolling: {
          invoke: {
            src: 'startEnrolment',
            input: ({ context }) => ({ ticket: context.secondStep?.ticket ?? '' }),
            onDone: { target: 'enrolReady', actions: assign(({ event }) => ({ enrolment: event.output })) },
            onError: stepFailed('#session.loggedOut'),
          },
        },
        enrolReady: { on: { 'session.otp': { target: 'confirming', actions: 'clearError' }, 'session.cancelSecondStep': cancelSecondStep } },
        confirming: {
          invoke: {
            src: 'confirmEnrolment',
            input: ({ context, event }) => {
              if (event.type !== 'session.otp') throw new Error('confirming entered without session.otp');
              return { ticket: context.secondStep?.ticket ?? '', code: event.code };
            },
            onDone: {
              target: 'recoveryCodes',
              actions: [
                { type: 'assignStoredSession', params: ({ event }) => pickStored(event.output) },
                { type: 'persistSession', params: ({ event }) => pickStored(event.output) },
                assign(({ event }) => ({ recoveryCodes: event.output.recoveryCodes, enrolment: null })),
              ],
            },
            onError: stepFailed('enrolReady'),
          },
        },
        recoveryCodes: { on: { 'session.recoveryCodesSaved': { target: '#session.loadingInfo', actions: 'clearSecondStep' } } },
      },
    },
    /**
     * The password expired, or the policy in force no longer accepts it (getInfo says so): the session holds a token,
     * but the server refuses every call but the change, so the user sets a new password before the app. A refused
     * password stays on the form with the server's reason (the rule it breaks); logging out leaves.
     */
    passwordChange: {
      initial: 'form',
      states: {
        form: {
          on: {
            'session.changePassword': { target: 'changing', actions: 'clearError' },
            'session.logout': { target: '#session.loggingOut', actions: 'clearError' },
          },
        },
        changing: {
          invoke: {
            src: 'changePassword',
            input: ({ event }) => {
              if (event.type !== 'session.changePassword') throw new Error('changing entered without session.changePassword');
              return { oldPassword: event.oldPassword, newPassword: event.newPassword };
            },
            onDone: {
              target: '#session.loadingInfo',
              actions: [
                assign(({ context, event }) => ({ user: { ...context.user, auto: event.output.auto }, passwordChange: null })),
                { type: 'persistAuto', params: ({ event }) => event.output.auto },
              ],
            },
            onError: stepFailed('form'),
          },
        },
      },
    },
    loadingInfo: loadingUserInfo,
    generatingRoutes: {
      invoke: {
        src: 'generateRoutes',
        input: ({ context }) => ({
          roles: context.viewRole ? [context.viewRole] : context.user.roles,
          rolePermissions: context.viewRole ? [context.viewRole] : context.user.rolePermissions,
          permissions: context.viewRole ? null : context.user.permissions,
        }),
        onDone: [
          {
            guard: ({ context }) => context.resumed,
            target: 'loggedIn.verifying',
            actions: assign(({ event }) => ({ permittedRoutes: event.output })),
          },
          {
            target: 'loggedIn',
            actions: [
              assign(({ event }) => ({ permittedRoutes: event.output })),
              emit(({ context }) => ({ type: 'session.loggedIn' as const, redirect: context.redirect })),
              assign({ redirect: null }),
            ],
          },
        ],
        onError: routesFailed,
      },
    },
    loggedIn: {
      invoke: {
        id: 'loginCheckPoller',
        src: 'loginCheckPoller',
        input: ({ context }) => ({ username: context.user.name, auto: context.user.auto }),
      },
      initial: 'idle',
      states: {
        // A resumed session's getInfo. A token refresh meanwhile is the worker's: it replays the call, and this
        // state waits for its answer rather than dropping it for refreshingToken.
        verifying: loadingUserInfo,
        /** The info came back with other roles than the ones kept: the routes are made again, on screen. */
        rerouting: {
          invoke: {
            src: 'generateRoutes',
            input: ({ context }) => ({ roles: context.user.roles, rolePermissions: context.user.rolePermissions, permissions: context.user.permissions }),
            onDone: { target: 'idle', actions: assign(({ event }) => ({ permittedRoutes: event.output })) },
            onError: routesFailed,
          },
        },
        idle: {
          on: {
            'session.refreshing': { target: 'refreshingToken' },
            // Checked as a resumed session is: the same grants go on as they are, others get their routes again.
            'session.grantsChanged': { target: 'verifying', actions: assign({ resumed: true }) },
          },
        },
        refreshingToken: {
          on: {
            'session.tokenRefreshed': {
              target: 'idle',
              actions: [
                assign(({ context, event }) => ({ user: { ...context.user, token: event.token } })),
                { type: 'persistToken', params: ({ event }) => event.token },
              ],
            },
          },
        },
      },
      on: {
        'session.checkNow': { actions: sendTo('loginCheckPoller', { type: 'session.checkNow' }) },
        'session.loginChecked': {
          guard: { type: 'isSessionInvalid', params: ({ event }) => event.valid },
          target: '#session.loggingOut',
          actions: [
            { type: 'setError', params: { key: 'passwordChanged' } },
            { type: 'showMessage', params: { key: 'passwordChanged' } },
          ],
        },
        'session.expired': {
          target: 'loggingOut',
          actions: [
            { type: 'setError', params: ({ event }) => ({ text: event.message }) },
            { type: 'showMessage', params: ({ event }) => ({ text: event.message }) },
          ],
        },
        'session.logout': { target: 'loggingOut', actions: 'clearError' },
        'session.passwordChanged': {
          // Re-entering restarts the login check with the new token; the old one would now be answered 0.
          target: 'loggedIn',
          reenter: true,
          actions: [
            assign(({ context, event }) => ({ user: { ...context.user, auto: event.auto } })),
            { type: 'persistAuto', params: ({ event }) => event.auto },
          ],
        },
        'session.login': {
          // A logged-in user may log in again from /login (the guard lets /login pass): the new login replaces this one.
          target: 'loggingIn',
          actions: ['clearSession', assign(({ event }) => ({ redirect: event.redirect ?? null })), 'clearError'],
        },
        'session.changeRole': {
          guard: 'isAdmin',
          target: 'changingRole',
          actions: assign(({ event }) => ({ viewRole: event.role, resumed: false })),
        },
      },
    },
    // Change-role reloads the user info the same way a session start does.
    changingRole: { ...loadingUserInfo, entry: 'closeAllTabs' },
    loggingOut: {
      entry: ['clearPersistedSession', 'closeAllTabs'],
      invoke: {
        src: 'logout',
        onDone: { target: 'loggedOut', actions: ['clearSession', 'announceLoggedOut'] },
        // The server may be unreachable; locally the session is over all the same.
        onError: { target: 'loggedOut', actions: ['clearSession', 'announceLoggedOut'] },
      },
    },
  },
});

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((value, i) => value === b[i]);
}

/** The same member permissions, or both everything (null). */
function sameGrants(a: readonly string[] | null, b: readonly string[] | null): boolean {
  return a === null || b === null ? a === b : sameList(a, b);
}

function pickStored(data: LoginData): StoredSession {
  return {
    token: data.token,
    id: data.id,
    name: data.name,
    right: data.right,
    validTime: data.validTime,
    isAp: data.isAp,
    relative_id: data.relative_id,
    auto: data.auto,
  };
}

export type SessionMachine = typeof sessionMachine;

// Selectors: React reads the session through these, never through a whole snapshot.
type SessionSnapshot = { context: SessionContext; matches: (value: never) => boolean; value: unknown };

export type SessionPhase = 'pending' | 'loggedOut' | 'loggedIn';

export function selectPhase(snapshot: { value: unknown }): SessionPhase {
  const value = snapshot.value;
  // The second step of a login holds no session, and a password that must change first opens nothing of the app: the
  // guard sends every page but /login to the login page, which shows the step.
  if (value === 'loggedOut' || (typeof value === 'object' && value !== null && ('secondStep' in value || 'passwordChange' in value))) return 'loggedOut';
  if (typeof value === 'object' && value !== null && 'loggedIn' in value) return 'loggedIn';
  return 'pending';
}
/**
 * Whether the permitted routes are the server's word: not while a resumed session still shows the routes of the info
 * its last load kept (`loggedIn.verifying`), nor while they are being made again for other roles (`rerouting`).
 */
export function selectRoutesSettled(snapshot: { value: unknown }): boolean {
  const value = snapshot.value;
  if (typeof value !== 'object' || value === null || !('loggedIn' in value)) return true;
  const step = (value as Record<string, unknown>).loggedIn;
  return step !== 'verifying' && step !== 'rerouting';
}
export const selectIsLoggingIn = (snapshot: { value: unknown }) => snapshot.value === 'loggingIn';
/** The step of the login's second step on screen, or null outside it. */
export function selectSecondStep(snapshot: { value: unknown }): 'code' | 'verifying' | 'enrolling' | 'enrolReady' | 'confirming' | 'recoveryCodes' | null {
  const value = snapshot.value;
  if (typeof value !== 'object' || value === null || !('secondStep' in value)) return null;
  return (value as { secondStep: ReturnType<typeof selectSecondStep> }).secondStep;
}
/** The step of a password change the sign-in needs first, or null outside it. */
export function selectPasswordChangeStep(snapshot: { value: unknown }): 'form' | 'changing' | null {
  const value = snapshot.value;
  if (typeof value !== 'object' || value === null || !('passwordChange' in value)) return null;
  return (value as { passwordChange: 'form' | 'changing' }).passwordChange;
}
export const selectPasswordChange = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.passwordChange;
export const selectEnrolment = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.enrolment;
export const selectRecoveryCodes = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.recoveryCodes;
export const selectSecondStepInfo = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.secondStep;
export const selectIsRefreshingToken = (snapshot: { value: unknown }) =>
  typeof snapshot.value === 'object' && snapshot.value !== null && (snapshot.value as Record<string, unknown>).loggedIn === 'refreshingToken';
export const selectUser = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.user;
export const selectUserName = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.user.name;
export const selectRealRole = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.user.realRole;
export const selectViewRole = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.viewRole;
export const selectRoleTime = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.user.roleTime;
export const selectIsAdmin = (snapshot: Pick<SessionSnapshot, 'context'>) =>
  snapshot.context.user.realRole === 'admin' || snapshot.context.user.rightInfo?.isAdmin === true;
export const selectPermittedRoutes = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.permittedRoutes;
export const selectError = (snapshot: Pick<SessionSnapshot, 'context'>) => snapshot.context.error;
