import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';
import { queryInt, ROW_ID_MAX, rowId } from './fields';
import { lazySchema } from './lazySchema';
import { parseAddressPattern } from './accessPolicy';

/**
 * Applications (the spec's licensable systems) and their API tokens (issue 44): the clients an owner creates for
 * their own scripts and ERP links. A token carries a role and a shop scope of the organisation, expires, can be
 * revoked, is kept hashed, and opens only the calls its role grants, within its shops and its client's addresses.
 */

/** `Authorization: Bearer sbo_...`: a token is told from a session by its prefix. */
export const API_TOKEN_PREFIX = 'sbo_';
export const API_TOKEN_MAX_DAYS = 366;

export const CLIENT_TYPES = ['script', 'erp', 'other'] as const;
export const SOURCE_TYPES = ['internal', 'thirdParty'] as const;

export const API_CLIENT_MESSAGES = {
  tokenUnknown: { zh: 'API 令牌无效、已过期或已被撤销', en: 'The API token is unknown, expired or revoked', pt: 'O token de API é desconhecido, expirou ou foi revogado' },
  tokenAddress: { zh: '该应用不允许从这个地址调用', en: 'This application may not call from this address', pt: 'Este aplicativo não pode chamar a partir deste endereço' },
  clientOff: { zh: '该应用已停用', en: 'This application is switched off', pt: 'Este aplicativo está desativado' },
  tokenSocket: { zh: 'API 令牌不能打开推送连接', en: 'An API token cannot open the push socket', pt: 'Um token de API não abre o canal de notificações' },
  notFound: { zh: '应用或令牌不存在或不属于该组织', en: 'The application or token does not exist or belongs to another organisation', pt: 'O aplicativo ou token não existe ou pertence a outra organização' },
  nameTaken: { zh: '该应用名称已存在', en: 'An application of this name already exists', pt: 'Já existe um aplicativo com este nome' },
} as const satisfies Record<string, Localized>;

const queryId = () => queryInt(1, ROW_ID_MAX);

export const apiClientSchema = lazySchema(() => z.object({
  id: z.number().int(),
  orgId: z.number().int(),
  name: z.string(),
  type: z.enum(CLIENT_TYPES),
  sourceType: z.enum(SOURCE_TYPES),
  deptId: z.number().int().nullable(),
  deptName: z.string(),
  /** The addresses its tokens may call from (single, wildcard, CIDR); empty: any. */
  mainConfig: z.array(z.string()),
  status: z.number().int(),
  creator: z.string(),
  note: z.string(),
  tokens: z.number().int(),
  createTime: z.number(),
}));
export type ApiClient = z.infer<typeof apiClientSchema>;
export const apiClientPageSchema = lazySchema(() => z.object({ list: z.array(apiClientSchema), total: z.number().int() }));
export type ApiClientPage = z.infer<typeof apiClientPageSchema>;

// GET /api/id-manager/licensable-system/list (the spec's filters)
export const apiClientListQuerySchema = lazySchema(() => pageQuerySchema.extend({
  orgId: queryId().optional(),
  name: z.string().trim().max(60).optional(),
  source_type: z.enum(SOURCE_TYPES).optional(),
  deptName: z.string().trim().max(60).optional(),
  status: queryInt(0, 1).optional(),
}));
export type ApiClientListQuery = z.input<typeof apiClientListQuerySchema>;
export const findQuerySchema = lazySchema(() => z.object({ id: queryId() }));

export const saveApiClientBodySchema = lazySchema(() => z.object({
  id: rowId().optional(),
  name: z.string().trim().min(1, 'required').max(60),
  type: z.enum(CLIENT_TYPES).default('script'),
  sourceType: z.enum(SOURCE_TYPES).default('internal'),
  deptId: rowId().nullable().default(null),
  mainConfig: z.array(z.string().trim().max(60).refine((text) => parseAddressPattern(text) !== null, 'addressPattern')).max(100).default([]),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  note: z.string().trim().max(200).default(''),
}));
export type SaveApiClientBody = z.input<typeof saveApiClientBodySchema>;

export const apiTokenSchema = lazySchema(() => z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  name: z.string(),
  /** The first characters, to tell tokens apart. */
  prefix: z.string(),
  roleId: z.number().int(),
  role: z.string(),
  /** null: the role's shops as they are. */
  shopIds: z.array(z.number().int()).nullable(),
  expiresAt: z.number(),
  revokedAt: z.number().nullable(),
  lastUsedAt: z.number().nullable(),
  createTime: z.number(),
}));
export type ApiToken = z.infer<typeof apiTokenSchema>;
export const tokenListQuerySchema = lazySchema(() => z.object({ clientId: queryId() }));
export const issueTokenBodySchema = lazySchema(() => z.object({
  clientId: rowId(),
  name: z.string().trim().min(1, 'required').max(60),
  roleId: rowId(),
  shopIds: z.array(rowId()).max(500).nullable().default(null),
  days: z.number().int().min(1).max(API_TOKEN_MAX_DAYS).default(90),
}));
export type IssueTokenBody = z.input<typeof issueTokenBodySchema>;
/** The token itself is in this answer only; the server keeps its hash. */
export const issuedTokenSchema = lazySchema(() => apiTokenSchema.extend({ token: z.string() }));
export type IssuedToken = z.infer<typeof issuedTokenSchema>;

/** The worked example of the API reference (/api/docs): a seller's script reading one shop's orders with a token. */
export const API_TOKEN_EXAMPLE = [
  '## Calling the API from your own scripts',
  '',
  "1. In the console, **Team → Application systems**, add an application (your script or ERP link; list the addresses it calls from to refuse any other).",
  '2. Issue a token for it with a role (for a reader: a role granting only `orders:view`) and, if you like, the shops it may see. The token is shown once: keep it like a password.',
  '3. Send it as `Authorization: Bearer <token>` on every call. It opens only the calls its role grants, only its shops, until it expires or you revoke it (at once).',
  '',
  '```sh',
  'TOKEN=sbo_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  "curl -s -H \"Authorization: Bearer $TOKEN\" 'https://your-host/api/order/list?page=1&rows=50&storeId=1001'",
  '# {"code":200,"msg":"success","data":{"list":[{"postingNumber":"...","storeId":1001,...}],"total":37}}',
  '',
  '# A call the role does not grant, or another shop, is refused:',
  "curl -s -X POST -H \"Authorization: Bearer $TOKEN\" -H 'content-type: application/json' -d '{\"ids\":[\"1001-1\"]}' https://your-host/api/shipOrder",
  '# {"code":401,"msg":"...","data":null}',
  '```',
].join('\n');

export const API_CLIENT_ENDPOINTS = {
  list: defineEndpoint({ method: 'GET', path: '/id-manager/licensable-system/list', summary: "A page of the organisation's applications (the spec's licensable systems).", access: 'team', action: 'staff', input: apiClientListQuerySchema, answer: apiClientPageSchema }),
  find: defineEndpoint({ method: 'GET', path: '/id-manager/licensable-system/find', summary: 'One application by id.', access: 'team', action: 'staff', input: findQuerySchema, answer: apiClientSchema }),
  save: defineEndpoint({ method: 'POST', path: '/id-manager/licensable-system/save', summary: 'Adds or changes an application (switched off: its tokens are refused).', access: 'team', action: 'staff', input: saveApiClientBodySchema, answer: apiClientSchema }),
  remove: defineEndpoint({ method: 'POST', path: '/id-manager/licensable-system/delete', summary: 'Deletes an application and its tokens.', access: 'team', action: 'staff', input: findQuerySchema, answer: z.object({ count: z.number().int() }) }),
  tokens: defineEndpoint({ method: 'GET', path: '/id-manager/token/list', summary: "An application's tokens (never the tokens themselves).", access: 'team', action: 'staff', input: tokenListQuerySchema, answer: z.array(apiTokenSchema) }),
  issue: defineEndpoint({ method: 'POST', path: '/id-manager/token/issue', summary: 'Issues a token with a role and shops; answers it once.', access: 'team', action: 'staff', input: issueTokenBodySchema, answer: issuedTokenSchema, settings: { silent: true } }),
  revoke: defineEndpoint({ method: 'POST', path: '/id-manager/token/revoke', summary: 'Revokes a token; it is refused from the next call.', access: 'team', action: 'staff', input: findQuerySchema, answer: apiTokenSchema }),
} as const;

export const API_CLIENT_PATHS = routePaths(API_CLIENT_ENDPOINTS);
