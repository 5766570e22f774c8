/**
 * Per-path call settings from the spec (seller-tool §7, §9). Paths are relative to the API base (`/api`); a call's own
 * options override these, and these override the client's defaults.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** 'arraybuffer' and 'blob' take a non-JSON body as it is; a JSON body is still read as the envelope (a failure). */
export type ResponseType = 'json' | 'blob' | 'arraybuffer';

export type CallSettings = {
  method?: HttpMethod;
  timeout?: number;
  retries?: number;
  retryDelay?: number;
  silent?: boolean;
  responseType?: ResponseType;
  /** A newer call to the same path aborts the older one (the path is the cancel key). */
  cancellable?: boolean;
  /** Before a retry, swap in a random base from ALTERNATE_BASES (the copy and history back ends run on several hosts). */
  swapBase?: boolean;
};

export const DEFAULT_BASE = '/api';
export const ALTERNATE_BASES = ['/api', '/e-api', '/x-api'] as const;

export const DEFAULT_SETTINGS = {
  method: 'POST',
  timeout: 150_000,
  retries: 1,
  retryDelay: 800,
  silent: false,
  responseType: 'json',
  cancellable: false,
  swapBase: false,
} as const satisfies Required<CallSettings>;

export const CALL_SETTINGS: Readonly<Record<string, CallSettings>> = {
  // Session and account
  '/loginCheck': { timeout: 30_000, cancellable: true, silent: true },
  '/noticeCheck': { method: 'GET', timeout: 30_000, silent: true },
  '/captchaImage': { method: 'GET', timeout: 5_000 },
  '/getInfo': { method: 'GET' },
  '/limitInfo': { method: 'GET' },
  '/getBrand': { method: 'GET' },
  // Orders and shipping
  '/order/list': { method: 'GET', cancellable: true, retryDelay: 1_500 },
  '/order/get': { method: 'GET', timeout: 6_000 },
  '/syncOrderList': { timeout: 250_000 },
  '/ets/pdf': { responseType: 'blob', timeout: 4_000 },
  '/store/list': { method: 'GET' },
  // Products and listing
  '/AlternateOne': { timeout: 200_000 },
  '/CreateProduct': { timeout: 200_000 },
  '/CopyProduct': { timeout: 200_000, swapBase: true },
  '/history/list': { method: 'GET', timeout: 15_000, swapBase: true },
  '/history/allList': { method: 'GET', swapBase: true },
  '/history/add': { silent: true },
  '/description-category/attribute': { timeout: 15_000 },
  '/collection/list': { method: 'GET' },
  '/upload/list': { method: 'GET' },
  '/removeFailToArch': { timeout: 10_000, retries: 1, retryDelay: 800 },
  '/updateSkuImage': { timeout: 10_000 },
  // Research
  '/search/hotProductPro': { timeout: 60_000, cancellable: true },
  '/search/cnProductPro': { timeout: 60_000, cancellable: true },
  '/search/hotProductProNew': { timeout: 60_000, cancellable: true },
  '/getCategory': { timeout: 10_000 },
  '/getQueryResult': { cancellable: true },
  '/getPotentialResult': { cancellable: true },
};

/**
 * The marketplace lists are named per marketplace (`/ozonProduct/list`, ...). The spec gives five retry delays for
 * these in order: 5 s for the four lists, 1 s for the seller analysis.
 */
const MARKETPLACE_PATTERNS: ReadonlyArray<readonly [RegExp, CallSettings]> = [
  [/^\/[a-z]+Product\/list$/, { retryDelay: 5_000 }],
  [/^\/[a-z]+ProductPro\/list$/, { retryDelay: 5_000 }],
  [/^\/[a-z]+Return\/list$/, { retryDelay: 5_000 }],
  [/^\/[a-z]+ReturnNew\/list$/, { retryDelay: 5_000 }],
  [/^\/[a-z]+SellerAnalyze$/, { retryDelay: 1_000 }],
];

export function settingsFor(path: string): CallSettings {
  const exact = CALL_SETTINGS[path];
  if (exact) return exact;
  for (const [pattern, settings] of MARKETPLACE_PATTERNS) if (pattern.test(path)) return settings;
  return {};
}
