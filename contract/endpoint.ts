import type { z } from 'zod';
import type { Area, PermissionAction } from './access';

/**
 * One API call as data: the server registers its route from this object (server/http/route.ts), the worker calls it
 * with `client.call(endpoint, input)` (workers/http/client.ts), and the OpenAPI document at /api/openapi.json is
 * generated from it. A reader who finds an endpoint's name anywhere can jump to the other places by that name.
 */

/** Every endpoint's path hangs under this base (the worker's and the server's). */
export const API_BASE = '/api';
/** The copy and history back ends run on several hosts: a call with `swapBase` retries on a random one of these. */
export const ALTERNATE_BASES = [API_BASE, '/e-api', '/x-api'] as const;

export type HttpMethod = 'GET' | 'POST';
/** 'blob' and 'arraybuffer' take a non-JSON success body as it is; a JSON body is still read as the envelope (a failure). */
export type ResponseType = 'json' | 'blob' | 'arraybuffer';

/** The spec's per-call settings (seller-tool §7, §9); the client's defaults fill in what a call leaves out. */
export type CallSettings = {
  /** Milliseconds before an attempt gives up (default 150 s). */
  timeout?: number;
  /** Retries after a network failure, a timeout, a 502 or a 503 (the database away for a moment) (default 1). */
  retries?: number;
  /** Milliseconds before a retry (default 800). */
  retryDelay?: number;
  /** A failure shows no message (the caller shows its own, or nothing). */
  silent?: boolean;
  /** A newer call of the same endpoint aborts the older one. */
  cancellable?: boolean;
  /** Before a retry, swap in a random base from ALTERNATE_BASES. */
  swapBase?: boolean;
  responseType?: ResponseType;
};

export const DEFAULT_CALL_SETTINGS = {
  timeout: 150_000,
  retries: 1,
  retryDelay: 800,
  silent: false,
  cancellable: false,
  swapBase: false,
  responseType: 'json',
} as const satisfies Required<CallSettings>;

/**
 * Who may call: 'public' needs no session (login, captcha, refresh); an area of contract/access.ts needs a session
 * whose roles reach that area ('open': any signed-in user). The server answers 402 without a session, 401 outside the area.
 */
export type Access = 'public' | Area;

/** A success answer that is not the JSON envelope: a file, a PDF, a binary frame. */
export type RawAnswer = { contentType: string; description: string };

/** A multipart/form-data body: its text fields (documented and checked by the handler) and the name of its file part. */
export type MultipartBody = { fields: z.ZodType; file: string };

export type EndpointSpec = {
  method: HttpMethod;
  /** Relative to API_BASE (e.g. '/order/list'); `:name` marks a path parameter given by `params`. */
  path: string;
  /** One line for the API reference. */
  summary: string;
  access: Access;
  /**
   * What a member's role must grant to call it, with the area of `access` (`orders:ship`): a GET is `view` unless it
   * says otherwise, every other call says which. Public and 'open' calls need none (see `permissionOf`).
   */
  action?: PermissionAction;
  /** The query string for GET, the JSON body for POST; absent when the call takes none. */
  input?: z.ZodType;
  /** Path parameters (`:name` in the path). */
  params?: z.ZodType;
  /** The body is multipart/form-data instead of JSON (the worker sends a FormData). */
  multipart?: MultipartBody;
  /** The `data` inside the `{ code, msg, data }` envelope of a success; absent when every success is `raw`. */
  answer?: z.ZodType;
  /** A success answered as this body instead of the envelope (failures are still the envelope). */
  raw?: RawAnswer;
  settings?: CallSettings;
  /** Served at the site root, not under API_BASE, and answered without the envelope (a static-like file). */
  site?: boolean;
  /**
   * The browser plugin's long-lived token (contract/plugin.ts) is taken here as well as a session. Only the calls the
   * plugin makes carry this: a plugin token opens nothing else.
   */
  pluginToken?: true;
};

export type Endpoint<S extends EndpointSpec = EndpointSpec> = Readonly<S> & { readonly settings: Readonly<CallSettings> };

/** A frozen endpoint object; `const` keeps its literal types (method, access, the schemas) for the helpers below. */
export function defineEndpoint<const S extends EndpointSpec>(spec: S): Endpoint<S> {
  if (!spec.path.startsWith('/')) throw new Error(`endpoint path must start with '/': ${spec.path}`);
  if (spec.method === 'GET' && spec.multipart) throw new Error(`a GET endpoint has no body: ${spec.path}`);
  if (!spec.answer && !spec.raw) throw new Error(`endpoint ${spec.path} declares neither answer nor raw`);
  return Object.freeze({ ...spec, settings: Object.freeze({ ...spec.settings }) }) as Endpoint<S>;
}

type SchemaAt<E, K extends string> = E extends { readonly [P in K]: infer T extends z.ZodType } ? T : undefined;
type In<T> = T extends z.ZodType ? z.input<T> : unknown;

/** What the caller gives: query or JSON body merged with the path parameters, or a FormData for a multipart body. */
export type InputOf<E extends EndpointSpec> = E extends { readonly multipart: MultipartBody }
  ? FormData
  : SchemaAt<E, 'input'> extends z.ZodType
    ? In<SchemaAt<E, 'input'>> & In<SchemaAt<E, 'params'>>
    : SchemaAt<E, 'params'> extends z.ZodType
      ? In<SchemaAt<E, 'params'>>
      : void;

/** What the handler gets: the input after its schema (coerced, defaulted). */
export type ParsedInputOf<E extends EndpointSpec> = SchemaAt<E, 'input'> extends infer T extends z.ZodType ? z.output<T> : undefined;
export type ParsedParamsOf<E extends EndpointSpec> = SchemaAt<E, 'params'> extends infer T extends z.ZodType ? z.output<T> : undefined;

/** What the handler returns as `data` (before the answer schema). */
export type AnswerInputOf<E extends EndpointSpec> = SchemaAt<E, 'answer'> extends infer T extends z.ZodType ? z.input<T> : never;

/** What the worker's `call` resolves with: the parsed answer, or the raw body when the call reads one. */
export type AnswerOf<E extends EndpointSpec> = E extends { readonly settings: { readonly responseType: 'blob' } }
  ? Blob
  : E extends { readonly settings: { readonly responseType: 'arraybuffer' } }
    ? ArrayBuffer
    : SchemaAt<E, 'answer'> extends infer T extends z.ZodType
      ? z.output<T>
      : never;

/**
 * The permission a member needs for the call (`area:action`): null when the call needs none (public, or open to every
 * signed-in user); undefined when a non-GET endpoint declares no action (the server then refuses members, and
 * tests/server/endpoints.test.ts fails).
 */
export function permissionOf(endpoint: EndpointSpec): `${Area}:${PermissionAction}` | null | undefined {
  if (endpoint.access === 'public' || endpoint.access === 'open') return null;
  const action = endpoint.action ?? (endpoint.method === 'GET' ? 'view' : undefined);
  return action === undefined ? undefined : `${endpoint.access}:${action}`;
}

/** The path as the server registers it: under API_BASE unless the endpoint is a site file. */
export function routePath(endpoint: EndpointSpec): string {
  return endpoint.site ? endpoint.path : `${API_BASE}${endpoint.path}`;
}

/** The path with its parameters filled in (relative to API_BASE, as `path` is). */
export function fillPath(endpoint: EndpointSpec, params: Record<string, string | number>): string {
  return endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint.path}: missing path parameter '${name}'`);
    return encodeURIComponent(String(value));
  });
}

/** The names of the path's parameters, in order. */
export function pathParams(endpoint: EndpointSpec): string[] {
  return [...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
}

/** Each endpoint's full route path by name: for tests and links that need the URL itself. */
export function routePaths<T extends Record<string, EndpointSpec>>(endpoints: T): { readonly [K in keyof T]: string } {
  return Object.fromEntries(Object.entries(endpoints).map(([key, endpoint]) => [key, routePath(endpoint)])) as { [K in keyof T]: string };
}

/** The developer's API reference (server/plugins/apiDocs.ts), under API_BASE; not endpoints of the product. */
export const API_DOCS_PATHS = { document: '/openapi.json', page: '/docs' } as const;
