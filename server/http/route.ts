import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Lang } from '../../contract/errors';
import {
  routePath,
  type AnswerInputOf,
  type Endpoint,
  type EndpointSpec,
  type ParsedInputOf,
  type ParsedParamsOf,
} from '../../contract/endpoint';
import type { AuthUser } from '../areas/session/service';
import { requireUser } from '../plugins/auth';
import { withCallerScope } from '../areas/team/shopScope';
import { ApiError } from './errors';
import { ok } from './envelope';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint object a route was registered from (server/http/route.ts). */
    endpoint?: Endpoint;
  }
}

export type RouteContext<E extends EndpointSpec> = {
  /** The query (GET) or JSON body (POST) after the endpoint's input schema. */
  input: ParsedInputOf<E>;
  params: ParsedParamsOf<E>;
  /** The caller; null only on public endpoints. */
  user: E extends { readonly access: 'public' } ? AuthUser | null : AuthUser;
  lang: Lang;
  request: FastifyRequest;
  reply: FastifyReply;
};

/** The envelope's `data`; an endpoint with a raw answer may instead send its body itself and return the reply. */
export type RouteAnswer<E extends EndpointSpec> = E extends { readonly raw: object } ? AnswerInputOf<E> | FastifyReply : AnswerInputOf<E>;

export type RouteHandler<E extends EndpointSpec> = (context: RouteContext<E>) => Promise<RouteAnswer<E>>;

/**
 * The schema Fastify is given for a 200 answer: the endpoint's answer inside the envelope (the answer itself for a
 * site file). The serializer compiler (plugins/envelope.ts) parses every JSON answer with it before sending, so an
 * answer that breaks its contract is a logged 500, never a silent surprise in the browser. Raw bodies (strings and
 * buffers the handler sends itself, e.g. the order sync's prebuilt JSON text and binary frames) skip the serializer.
 */
function answerSchema(endpoint: EndpointSpec): z.ZodType | undefined {
  if (!endpoint.answer) return undefined;
  return endpoint.site ? endpoint.answer : z.object({ code: z.literal(200), msg: z.string(), data: endpoint.answer });
}

const SHOP_KEYS = ['storeId', 'shopId'] as const;
const SHOP_LIST_KEYS = ['storeIds', 'shopIds'] as const;

/** The shops an input names: its `storeId`/`shopId`, `storeIds`/`shopIds`, and those of the items of its lists. */
export function shopIdsOfInput(input: unknown, depth = 0): number[] {
  if (typeof input !== 'object' || input === null || depth > 2) return [];
  if (Array.isArray(input)) return input.flatMap((item) => shopIdsOfInput(item, depth + 1));
  const record = input as Record<string, unknown>;
  const ids: number[] = [];
  for (const key of SHOP_KEYS) if (typeof record[key] === 'number') ids.push(record[key]);
  for (const key of SHOP_LIST_KEYS) {
    const list = record[key];
    if (Array.isArray(list)) for (const id of list) if (typeof id === 'number') ids.push(id);
  }
  for (const value of Object.values(record)) if (Array.isArray(value)) ids.push(...shopIdsOfInput(value, depth + 1));
  return ids;
}

/**
 * A member scoped to some shops names another shop of the organisation: 401, as for a permission they do not
 * hold. Calls that name no shop filter their rows by the scope in the area's service.
 */
function refuseShopsOutside(scope: readonly number[], input: unknown): void {
  if (shopIdsOfInput(input).some((id) => !scope.includes(id))) throw new ApiError(401, 'unauthorized');
}

/**
 * Registers the route of one endpoint object: method, path, input and answer schemas and the access gate all come
 * from the object; the handler gets the parsed input and the caller and returns the answer's data.
 */
export function route<const E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: RouteHandler<E>, options: RouteOptions = {}): void {
  for (const base of options.bases ?? []) {
    if (!endpoint.settings.swapBase || endpoint.site) throw new Error(`${endpoint.path}: only a swapBase endpoint is served under alternate bases`);
    register(app, endpoint, handler, `${base}${endpoint.path}`);
  }
  register(app, endpoint, handler, routePath(endpoint));
}

export type RouteOptions = {
  /** Alternate bases (ALTERNATE_BASES) the endpoint is also served under, for the browser's retry on another host. */
  bases?: readonly string[];
};

function register<const E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: RouteHandler<E>, url: string): void {
  const inputPart = endpoint.method === 'GET' ? 'querystring' : 'body';
  const response = answerSchema(endpoint);
  app.route({
    method: endpoint.method,
    url,
    config: endpoint.access === 'public' ? { public: true, endpoint } : { area: endpoint.access, endpoint },
    schema: {
      ...(endpoint.input ? { [inputPart]: endpoint.input } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(response ? { response: { 200: response } } : {}),
    },
    handler: async (request, reply) => {
      const user = endpoint.access === 'public' ? request.user : requireUser(request.user);
      if (user?.shopScope) refuseShopsOutside(user.shopScope, endpoint.method === 'GET' ? request.query : request.body);
      const context = {
        input: endpoint.method === 'GET' ? request.query : request.body,
        params: request.params,
        user,
        lang: request.lang,
        request,
        reply,
      } as RouteContext<E>;
      const scope = { shops: user?.shopScope ?? null, ownRecordsOf: user?.ownRecords ? user.id : null };
      const answer = await withCallerScope(scope, () => handler(context));
      // A handler that sent its body itself returns the reply; but Fastify's reply is a thenable (it resolves when the
      // answer has gone out), so awaiting the handler gives undefined, not the reply. Answering data after it would
      // be a second reply ("Reply was already sent"), or, when the client left before the end, a second head.
      if (answer === reply || reply.sent || reply.raw.headersSent) return reply;
      return endpoint.site ? answer : ok(answer);
    },
  });
}
