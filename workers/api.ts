import type { ProxyMarked } from 'comlink';
import type { Lang } from '../contract/errors';
import type { OrdersApi, OrdersEvents } from './orders/area';
import type { ProductsApi, ProductsEvents } from './products/area';
import type { ReturnsApi, ReturnsEvents } from './returns/area';
import type { AdminApi, NoticeApi } from './admin';
import type { TeamApi } from './team';
import type { AccessApi } from './access';
import type { ApiClientsApi } from './apiClients';
import type { SigninApi } from './signin';
import type { EnrolLoginBody, EnrolLoginData, LoginOtpBody, OtpEnrolment } from '../contract/signin';
import type { ChatApi, ChatEvents } from './chat';
import type { ToolsApi } from './tools';
import type { AnalysisApi } from './analysis';
import type { ResearchApi, ResearchEvents } from './research';
import type { EditApi } from './edit';
import type { CollectionApi } from './collection';
import type { PluginApi } from './plugin';
import type { ImagesApi } from './images';
import type { CopyApi } from './copy';
import type { CreateApi } from './create';
import type { PromotionsApi } from './promotions';
import type { FlowsApi } from './flows';
import type { PushMessage } from '../contract/push';
import type {
  Brand,
  CaptchaImage,
  ChangePswBody,
  ChangePswData,
  LimitInfo,
  LoginBody,
  LoginCheckBody,
  LoginAnswer,
  LoginData,
  Notice,
  RegisterBody,
  RegisterData,
  UserInfo,
  VersionFile,
} from '../contract/session';
import type { AddStoreBody, ArchiveResult, Store, UpdateStoreBody } from '../contract/store';

/**
 * The one surface of the data worker (architecture: "one worker, one typed surface").
 * Composed per area; only plain data crosses. Every call either resolves with the envelope's `data`
 * or rejects with an `ApiFailure` (a plain object, never an Error instance), which machines turn into decisions.
 */

export type ApiFailureType =
  | 'InvalidInput' // 400: `field` names the offending field
  | 'Unauthorized' // 401
  | 'TokenExpired' // 402 that the single-flight refresh could not cure
  | 'NotFound' // 404
  | 'RateLimited' // 429
  | 'PageExpired' // 468
  | 'MarketplaceTimeout' // 504
  | 'DuplicateUser' // 507
  | 'CaptchaMissing' // 508
  | 'CaptchaWrong' // 509
  | 'Network' // no answer; retried once already
  | 'Timeout' // the per-call timeout elapsed; retried once already
  | 'Server' // 5xx or an answer that is not an envelope
  | 'Aborted' // cancelled by a newer call or by the caller
  | 'Failed'; // any other code: `message` is the server's text, shown as-is

export type ApiFailure = {
  type: ApiFailureType;
  code: number;
  /** What the user is shown: the catalogue's text for the code, or the server's message. */
  message: string;
  field?: string;
  /** Silent calls report failures without a message event. */
  silent: boolean;
};

export function isApiFailure(value: unknown): value is ApiFailure {
  return typeof value === 'object' && value !== null && 'type' in value && 'code' in value && 'message' in value;
}

export type Credentials = { token: string; userId: number };

/** Push topics from the worker to the app. */
export type DataEvents = {
  /** A non-silent failure's text, for the app to show as a message for 5 s. */
  'http.message': { text: string; kind: 'error' | 'warning' };
  /** A 402 was answered and the single-flight refresh started. */
  'session.refreshing': Record<string, never>;
  /** The refresh succeeded: the app stores the new token (cookie Admin-Token). */
  'session.tokenRefreshed': { token: string };
  /** The refresh failed: the session is over. */
  'session.expired': { message: string };
  /**
   * An access policy wants a one-time code for a call (a 401 with field `stepUp`): the app asks for one and gives it
   * with access.stepUp (the waiting calls are replayed) or closes the dialog with access.cancelStepUp (they fail).
   */
  'session.stepUpNeeded': { message: string };
  /** One answer of the login-check poller: false means the password changed elsewhere. */
  'session.loginChecked': { valid: boolean };
  /** One answer of the notice poller. */
  'notice.checked': { notice: Notice | null };
  /** A message the server pushed over the WebSocket (contract/push.ts), already checked against the contract. */
  'push.message': { message: PushMessage };
  /** The push channel opened or closed. */
  'push.status': { connected: boolean };
  /**
   * The person's role or shops in their organisation changed: the big lists dropped their rows and caches, so the
   * open page opens them again (and syncs only what it may still see).
   */
  'session.scopeChanged': Record<string, never>;
} & OrdersEvents & ProductsEvents & ReturnsEvents & ChatEvents & ResearchEvents;
export type Topic = keyof DataEvents;

export type Unsubscribe = (() => void) & ProxyMarked;

export type SessionApi = {
  /** The worker cannot read cookies: the app hands it the session's credentials (or null at logout). */
  setCredentials(credentials: Credentials | null): Promise<void>;
  /** Language of the messages the worker produces. */
  setLanguage(lang: Lang): Promise<void>;
  captchaImage(): Promise<CaptchaImage>;
  register(body: RegisterBody): Promise<RegisterData>;
  /** Logs in and keeps the new credentials for every later call; or answers the second step the account needs. */
  login(body: LoginBody): Promise<LoginAnswer>;
  /** The login's second step: a one-time or recovery code for the ticket; keeps the new credentials. */
  loginOtp(body: LoginOtpBody): Promise<LoginData>;
  /** A required one-time password's set-up during the login. */
  loginEnrol(ticket: string): Promise<OtpEnrolment>;
  /** Confirms that set-up with a first code and signs in; keeps the new credentials. */
  loginEnrolConfirm(body: EnrolLoginBody): Promise<EnrolLoginData>;
  getInfo(): Promise<UserInfo>;
  loginCheck(body: LoginCheckBody): Promise<0 | 1>;
  checkPsw(password: string): Promise<boolean>;
  changePsw(body: ChangePswBody): Promise<ChangePswData>;
  /** Ends the session on the server (best effort) and forgets the credentials. */
  logout(): Promise<void>;
  noticeCheck(): Promise<Notice | null>;
  limitInfo(): Promise<LimitInfo>;
  getBrand(): Promise<Brand>;
  versionFile(): Promise<VersionFile>;
};

export type PollerName = 'loginCheck' | 'noticeCheck';

export type PollerApi = {
  /** Every 75 s posts the login check; answers arrive as `session.loginChecked`. */
  startLoginCheck(body: LoginCheckBody): Promise<void>;
  /** Every 65 s fetches the notice; answers arrive as `notice.checked`. The caller starts it only while follow or plug validity is current. */
  startNoticeCheck(): Promise<void>;
  /** Runs a started poller's call at once (the app does so when the page becomes visible again or gains focus). */
  runNow(name: PollerName): Promise<void>;
  stop(name: PollerName): Promise<void>;
  stopAll(): Promise<void>;
};

/** Shops (workers/store.ts). Sync progress arrives as 'push.message' with type 'sync.progress'. */
export type StoreApi = {
  list(): Promise<Store[]>;
  /** Silent: a refused key is the dialog's to show (failure.message, failure.field). */
  add(body: AddStoreBody): Promise<Store>;
  update(body: UpdateStoreBody): Promise<Store>;
  remove(id: number): Promise<number>;
  multiDelete(ids: number[]): Promise<number>;
  /** Re-authorize: checks the stored key again and resumes sync. */
  apply(id: number): Promise<Store>;
  syncNow(id: number): Promise<{ storeIds: number[] }>;
  removeDownToArch(id: number): Promise<ArchiveResult>;
  removeFailToArch(id: number): Promise<ArchiveResult>;
};

export type DataApi = {
  session: SessionApi;
  pollers: PollerApi;
  store: StoreApi;
  /** The user's orders: cache, list engine, order and shipping calls (workers/orders/area.ts). */
  orders: OrdersApi;
  /** The user's products: cache, list engine, price, stock and archive calls (workers/products/area.ts). */
  products: ProductsApi;
  /** The user's returns of every shop: cache, list engine, details and rFBS decisions (workers/returns/area.ts). */
  returns: ReturnsApi;
  admin: AdminApi;
  /** The seller's organisation: members, roles, departments, positions, the operation log (workers/team.ts). */
  team: TeamApi;
  /** Sign-in security: one-time passwords and the sign-in log (workers/signin.ts). */
  signin: SigninApi;
  /** Access policies, the access log and "explain and try" (workers/access.ts). */
  access: AccessApi;
  /** Applications and their API tokens (workers/apiClients.ts). */
  apiClients: ApiClientsApi;
  notice: NoticeApi;
  /** Buyer chats across shops and team contacts (workers/chat.ts). */
  chat: ChatApi;
  tools: ToolsApi;
  /** Sales analysis of the seller's shops (workers/analysis.ts). */
  analysis: AnalysisApi;
  /** Market research: server queries loaded into the list engine, details, keywords (workers/research.ts). */
  research: ResearchApi;
  /** The poster designer's designs and edited images (workers/edit.ts). */
  edit: EditApi;
  /** Copying cards between shops and the copy history (workers/copy.ts). */
  copy: CopyApi;
  /** Ozon's categories, attributes and dictionaries, and creating cards (workers/create.ts). */
  create: CreateApi;
  /** Collected products and their uploads (workers/collection.ts). */
  collection: CollectionApi;
  /** The browser plugin's download and tokens (workers/plugin.ts). */
  plugin: PluginApi;
  /** Another site's pictures through the server (workers/images.ts). */
  images: ImagesApi;
  /** Ozon actions, the price guard, discount requests and cost prices (workers/promotions.ts). */
  promotions: PromotionsApi;
  flows: FlowsApi;
  subscribe<T extends Topic>(topic: T, callback: ((payload: DataEvents[T]) => void) & ProxyMarked): Promise<Unsubscribe>;
};

export const LOGIN_CHECK_INTERVAL_MS = 75_000;
export const NOTICE_CHECK_INTERVAL_MS = 65_000;
export const VERSION_CHECK_INTERVAL_MS = 60_000;
