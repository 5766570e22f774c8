import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';
import { queryEpochMs, queryInt, ROW_ID_MAX, rowId } from './fields';
import { lazySchema } from './lazySchema';
import { rolePageSchema } from './team';

/**
 * Access policies (issue 44): conditions on who calls what, from where and when, checked by the server's one access
 * hook on every /api call and the WebSocket after the role and shop-scope checks. The console's texts about the
 * combining rule say what `server/areas/access/evaluate.ts` does:
 *
 * - A policy applies to a call when every condition it names holds: who (any listed department, position, member or
 *   role; nobody listed: every member), which calls (any listed area or endpoint; none: every call), the address, the
 *   time window. An owner's own calls are never subject to policies (nobody locks the owner out of the console).
 * - Addresses: for a deny, the policy applies from a blocked address, or from any address outside a non-empty allow
 *   list (both empty: every address); for an allow, it applies from an address in the allow list (empty: any) that is
 *   not blocked.
 * - Among the policies that apply, the highest priority decides (1 is the highest, 4 the lowest); at equal priority a
 *   deny wins. An allow that asks for multi-factor needs a one-time code given within its minutes, else the call is
 *   refused until the person gives one. No policy applies: the call goes through (the role has already allowed it).
 * - "And log" strategies write the access log; a dry-run policy decides nothing and logs what it would have denied.
 */

export const STRATEGIES = ['allow', 'allowLog', 'deny', 'denyLog'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export const isDeny = (strategy: Strategy) => strategy === 'deny' || strategy === 'denyLog';
export const PRIORITIES = [1, 2, 3, 4] as const;
export const MULTI_FACTOR_KINDS = ['otp'] as const;
export const DECISIONS = ['allow', 'deny', 'stepUp', 'wouldDeny'] as const;
export type Decision = (typeof DECISIONS)[number];

/** The WebSocket is a resource of its own: it has no endpoint object. */
export const PUSH_RESOURCE = 'WS /ws';
/** An endpoint's key as a policy names it: `METHOD /path`. */
export const endpointKey = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;
/** Resources a policy lists: `area:<area>` or `call:<METHOD /path>`. */
export const areaResource = (area: string) => `area:${area}`;
export const callResource = (key: string) => `call:${key}`;

// ---------------------------------------------------------------- addresses

/** One entry of an allow or block list, parsed: an inclusive range of IPv4 (numbers) or IPv6 (bigints) addresses. */
export type AddressRange = { v: 4; lo: number; hi: number } | { v: 6; lo: bigint; hi: bigint };

function ipv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

function groupsOf(items: readonly string[], last: boolean): number[] | null {
  const groups: number[] = [];
  for (const [index, item] of items.entries()) {
    if (last && index === items.length - 1 && item.includes('.')) {
      const v4 = ipv4(item);
      if (v4 === null) return null;
      groups.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(item)) groups.push(parseInt(item, 16));
    else return null;
  }
  return groups;
}

function ipv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  let groups: number[];
  if (halves.length === 1) {
    const all = groupsOf(text.split(':'), true);
    if (!all || all.length !== 8) return null;
    groups = all;
  } else {
    const head = groupsOf(halves[0] === '' ? [] : halves[0]!.split(':'), false);
    const tail = groupsOf(halves[1] === '' ? [] : halves[1]!.split(':'), true);
    if (!head || !tail || head.length + tail.length > 7) return null;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(group), 0n);
}

const MAPPED_V4 = 0xffff00000000n;

/** The caller's address as a number: IPv4 as itself, an IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as its IPv4. */
export function parseAddress(text: string): { v: 4; n: number } | { v: 6; n: bigint } | null {
  const v4 = ipv4(text);
  if (v4 !== null) return { v: 4, n: v4 };
  const v6 = ipv6(text);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { v: 4, n: Number(v6 - MAPPED_V4) };
  return { v: 6, n: v6 };
}

/**
 * A list entry: a single address (`203.0.113.7`, `2001:db8::1`), a wildcard of trailing parts (`192.168.1.*`,
 * `10.*.*.*`) or CIDR (`10.0.0.0/8`, `2001:db8::/32`). Null: not an address pattern.
 */
export function parseAddressPattern(raw: string): AddressRange | null {
  const text = raw.trim();
  if (text.includes('*')) {
    const parts = text.split('.');
    if (parts.length !== 4) return null;
    const first = parts.indexOf('*');
    if (first < 1 || parts.slice(first).some((part) => part !== '*')) return null;
    const lo = ipv4(parts.map((part) => (part === '*' ? '0' : part)).join('.'));
    const hi = ipv4(parts.map((part) => (part === '*' ? '255' : part)).join('.'));
    return lo === null || hi === null ? null : { v: 4, lo, hi };
  }
  const [base = '', bits, extra] = text.split('/');
  if (extra !== undefined) return null;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const address = parseAddress(base);
  if (!address) return null;
  if (address.v === 4) {
    const prefix = bits === undefined ? 32 : Number(bits);
    if (prefix > 32 || (base.includes(':') && bits !== undefined)) return null;
    const size = 2 ** (32 - prefix);
    const lo = Math.floor(address.n / size) * size;
    return { v: 4, lo, hi: lo + size - 1 };
  }
  const prefix = bits === undefined ? 128 : Number(bits);
  if (prefix > 128) return null;
  const size = 1n << BigInt(128 - prefix);
  const lo = (address.n / size) * size;
  return { v: 6, lo, hi: lo + size - 1n };
}

export function inRanges(address: ReturnType<typeof parseAddress>, ranges: readonly AddressRange[]): boolean {
  if (!address) return false;
  for (const range of ranges) {
    if (range.v === address.v && address.n >= range.lo && address.n <= range.hi) return true;
  }
  return false;
}

// ---------------------------------------------------------------- schemas

export const ACCESS_MESSAGES = {
  nameTaken: { zh: '该策略名称已存在', en: 'A policy of this name already exists', pt: 'Já existe uma política com este nome' },
  unknownResource: { zh: '包含未知的资源', en: 'Contains an unknown resource', pt: 'Contém um recurso desconhecido' },
  notFound: { zh: '策略不存在或不属于该组织', en: 'The policy does not exist or belongs to another organisation', pt: 'A política não existe ou pertence a outra organização' },
  notMember: { zh: '请选择组织内的成员', en: 'Choose a member of the organisation', pt: 'Escolha um membro da organização' },
} as const satisfies Record<string, Localized>;

/** The 401 of a deny: names the policy, not its conditions. */
export function policyDenied(name: string): Localized {
  return {
    zh: `访问策略「${name}」拒绝了此请求，请联系主账号`,
    en: `The access policy "${name}" refuses this call; please contact the owner of your organisation`,
    pt: `A política de acesso "${name}" recusa esta chamada; fale com o titular da sua organização`,
  };
}

/** The 401 of an allow whose multi-factor step is due (field `stepUp`: the app asks for a code and tries again). */
export function stepUpNeeded(name: string, minutes: number): Localized {
  return {
    zh: `访问策略「${name}」要求 ${minutes} 分钟内验证过动态口令，请输入动态口令后重试`,
    en: `The access policy "${name}" needs a one-time code given within ${minutes} minutes; enter one and try again`,
    pt: `A política de acesso "${name}" pede um código de uso único dado nos últimos ${minutes} minutos; informe um e tente de novo`,
  };
}
export const STEP_UP_FIELD = 'stepUp';
/** The field of a deny's 401: the app shows the policy's words rather than the generic 401 text. */
export const POLICY_FIELD = 'policy';

const HOUR = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const addressList = () =>
  z.array(z.string().trim().max(60).refine((text) => parseAddressPattern(text) !== null, 'addressPattern')).max(200);
const idList = () => z.array(rowId()).max(500);

export const timeWindowSchema = lazySchema(() => z.object({
  /** ISO days of the week, 1 Monday to 7 Sunday; empty: every day. */
  weekdays: z.array(z.number().int().min(1).max(7)).max(7).default([]),
  /** HH:MM; from after to runs past midnight; both empty: the whole day. */
  from: z.string().regex(HOUR, 'hourFormat').or(z.literal('')).default(''),
  to: z.string().regex(HOUR, 'hourFormat').or(z.literal('')).default(''),
  startDate: z.string().regex(DAY, 'invalid').nullable().default(null),
  endDate: z.string().regex(DAY, 'invalid').nullable().default(null),
  timeZone: z.string().max(60).refine(knownTimeZone, 'timeZone').default('Asia/Shanghai'),
  /** Applies outside the window instead of inside it ("deny outside office hours"). */
  outside: z.boolean().default(false),
}));
export type TimeWindow = z.output<typeof timeWindowSchema>;

export const policyRuleSchema = lazySchema(() => z.object({
  deptIds: idList().default([]),
  /** The spec's userGroup: positions. */
  positionIds: idList().default([]),
  memberIds: idList().default([]),
  roleIds: idList().default([]),
  /** `area:<area>` or `call:<METHOD /path>`; empty: every call. */
  resources: z.array(z.string().max(160)).max(500).default([]),
  whitelist: addressList().default([]),
  blacklist: addressList().default([]),
  time: timeWindowSchema.nullable().default(null),
  multiFactor: z.object({ kind: z.enum(MULTI_FACTOR_KINDS), minutes: z.number().int().min(1).max(1440) }).nullable().default(null),
}));
export type PolicyRule = z.output<typeof policyRuleSchema>;

const policyFields = () => ({
  name: z.string().trim().min(1, 'required').max(60),
  strategy: z.enum(STRATEGIES),
  priority: z.number().int().min(1).max(4),
  status: z.union([z.literal(0), z.literal(1)]),
  dryRun: z.boolean(),
});

// POST /api/access-manager/save: id absent adds one.
export const savePolicyBodySchema = lazySchema(() => {
  const fields = policyFields();
  return z
    .object({
      orgId: rowId().optional(),
      id: rowId().optional(),
      name: fields.name,
      strategy: fields.strategy,
      priority: fields.priority.default(4),
      status: fields.status.default(1),
      dryRun: fields.dryRun.default(false),
      rule: policyRuleSchema,
    })
    .superRefine((body, ctx) => {
      if (body.rule.multiFactor && isDeny(body.strategy)) ctx.addIssue({ code: 'custom', path: ['rule', 'multiFactor'], message: 'multiFactorDeny' });
      const time = body.rule.time;
      if (time?.startDate && time.endDate && time.endDate < time.startDate) ctx.addIssue({ code: 'custom', path: ['rule', 'time', 'endDate'], message: 'dateOrder' });
    });
});
export type SavePolicyBody = z.input<typeof savePolicyBodySchema>;

export const policySchema = lazySchema(() => z.object({
  id: z.number().int(),
  orgId: z.number().int(),
  name: z.string(),
  founder: z.string(),
  strategy: z.enum(STRATEGIES),
  priority: z.number().int(),
  status: z.number().int(),
  dryRun: z.boolean(),
  rule: policyRuleSchema,
  /** The spec's display fields: names of the listed departments, positions, members and roles. */
  dept: z.string(),
  userGroup: z.string(),
  user: z.string(),
  role: z.string(),
  accessResources: z.array(z.string()),
  enableTimePeriod: z.boolean(),
  createTime: z.number(),
  updateTime: z.number(),
}));
export type Policy = z.infer<typeof policySchema>;
export const policyPageSchema = lazySchema(() => z.object({ list: z.array(policySchema), total: z.number().int() }));
export type PolicyPage = z.infer<typeof policyPageSchema>;

const queryId = () => queryInt(1, ROW_ID_MAX);
const queryFlag = () => z.enum(['true', 'false']);

// GET /api/access-manager/list
export const policyListQuerySchema = lazySchema(() => pageQuerySchema.extend({
  orgId: queryId().optional(),
  keyword: z.string().trim().max(60).optional(),
  dept: queryId().optional(),
  userGroup: queryId().optional(),
  user: queryId().optional(),
  /** An area (every policy naming it or one of its calls) or one resource key. */
  accessResources: z.string().max(160).optional(),
  enableTimePeriod: queryFlag().optional(),
  priority: queryInt(1, 4).optional(),
  status: queryInt(0, 1).optional(),
  multiFactor: queryFlag().optional(),
  strategy: z.enum(STRATEGIES).optional(),
}));
export type PolicyListQuery = z.input<typeof policyListQuerySchema>;

export const deletePoliciesBodySchema = lazySchema(() => z.object({ ids: z.array(rowId()).min(1).max(500) }));

// GET /api/access-manager/log
export const accessLogQuerySchema = lazySchema(() => pageQuerySchema.extend({
  orgId: queryId().optional(),
  /** The spec's `id`: the entries one policy decided. */
  id: queryId().optional(),
  keyword: z.string().trim().max(60).optional(),
  decision: z.enum(DECISIONS).optional(),
  operatorId: queryId().optional(),
  from: queryEpochMs().optional(),
  to: queryEpochMs().optional(),
}));
export type AccessLogQuery = z.input<typeof accessLogQuerySchema>;
export const accessLogEntrySchema = lazySchema(() => z.object({
  id: z.number().int(),
  operationTime: z.number(),
  operator: z.string(),
  operatorId: z.number().int().nullable(),
  ip: z.string(),
  /** The area and the call: `orders · GET /order/list`. */
  operationType: z.string(),
  area: z.string(),
  call: z.string(),
  decision: z.enum(DECISIONS),
  policyId: z.number().int().nullable(),
  policyName: z.string(),
  strategy: z.string(),
}));
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;
export const accessLogPageSchema = lazySchema(() => z.object({ list: z.array(accessLogEntrySchema), total: z.number().int() }));
export type AccessLogPage = z.infer<typeof accessLogPageSchema>;

// GET /api/access-manager/explain
export const explainQuerySchema = lazySchema(() => z.object({
  orgId: queryId().optional(),
  memberId: queryId(),
  /** `METHOD /path` of an endpoint, or `WS /ws`. */
  call: z.string().max(160),
  ip: z.string().trim().max(60).refine((text) => parseAddress(text) !== null, 'addressPattern'),
  at: queryEpochMs(),
  /** Minutes since the person last gave a one-time code (absent: none in this session). */
  codeMinutesAgo: queryInt(0, 100_000).optional(),
}));
export type ExplainQuery = z.input<typeof explainQuerySchema>;
export const explanationSchema = lazySchema(() => z.object({
  decision: z.enum(['allow', 'deny', 'stepUp']),
  /** The policy that decided (null: none applied, the role's answer stands). */
  policyId: z.number().int().nullable(),
  policyName: z.string(),
  /** Whether the decision writes the access log. */
  logged: z.boolean(),
  /** A dry-run policy that would have denied it. */
  wouldDeny: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The member's role refuses the call before any policy (401 as for a missing permission). */
  roleRefuses: z.boolean(),
  matched: z.array(z.object({ id: z.number().int(), name: z.string(), strategy: z.enum(STRATEGIES), priority: z.number().int(), dryRun: z.boolean(), decides: z.boolean() })),
  /** The policies in force that did not apply, each with the first condition that failed. */
  skipped: z.array(z.object({ id: z.number().int(), name: z.string(), reason: z.enum(['who', 'resource', 'address', 'time', 'status']) })),
}));
export type Explanation = z.infer<typeof explanationSchema>;

// POST /api/user/otp/step-up
export const stepUpBodySchema = lazySchema(() => z.object({ code: z.string().trim().min(6).max(20) }));
export const stepUpAnswerSchema = lazySchema(() => z.object({ stepUpAt: z.number() }));

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The spec's role management lists (`name` a substring): the organisation's roles, and its strategies (access policies). */
export const roleManagementQuerySchema = lazySchema(() => pageQuerySchema.extend({ orgId: queryId().optional(), name: z.string().trim().max(60).optional() }));

/** The access policies' calls: the console's (`team:staff`) and the person's own step-up. */
export const ACCESS_ENDPOINTS = {
  roleManagementPage: defineEndpoint({ method: 'GET', path: '/role-management/getPage', summary: "The spec's role management page: the organisation's roles (name as a substring).", access: 'team', action: 'staff', input: roleManagementQuerySchema, answer: rolePageSchema }),
  roleManagementStrategy: defineEndpoint({ method: 'GET', path: '/role-management/getStrategy', summary: "The spec's strategies: the organisation's access policies (name as a substring).", access: 'team', action: 'staff', input: roleManagementQuerySchema, answer: policyPageSchema }),
  policies: defineEndpoint({ method: 'GET', path: '/access-manager/list', summary: "A page of the organisation's access policies (the spec's filters).", access: 'team', action: 'staff', input: policyListQuerySchema, answer: policyPageSchema }),
  savePolicy: defineEndpoint({ method: 'POST', path: '/access-manager/save', summary: 'Adds or changes an access policy; in force on the next call.', access: 'team', action: 'staff', input: savePolicyBodySchema, answer: policySchema }),
  deletePolicies: defineEndpoint({ method: 'POST', path: '/access-manager/delete', summary: 'Deletes access policies.', access: 'team', action: 'staff', input: deletePoliciesBodySchema, answer: z.object({ count: z.number().int() }) }),
  log: defineEndpoint({ method: 'GET', path: '/access-manager/log', summary: 'A page of the access log, newest first (`id`: one policy\'s entries).', access: 'team', action: 'staff', input: accessLogQuerySchema, answer: accessLogPageSchema }),
  logExport: defineEndpoint({
    method: 'GET',
    path: '/access-manager/log/export',
    summary: 'The access log as an Excel file (the same filters, at most 50,000 rows).',
    access: 'team',
    action: 'staff',
    input: accessLogQuerySchema,
    raw: { contentType: XLSX, description: 'access-log.xlsx' },
    settings: { responseType: 'blob', timeout: 60_000 },
  }),
  explain: defineEndpoint({ method: 'GET', path: '/access-manager/explain', summary: 'Which policies apply to a member\'s call from an address at a time, and the decision (the hook\'s own evaluator).', access: 'team', action: 'staff', input: explainQuerySchema, answer: explanationSchema }),
  stepUp: defineEndpoint({ method: 'POST', path: '/user/otp/step-up', summary: 'Gives a one-time code for the session: what policies with multi-factor ask for.', access: 'open', input: stepUpBodySchema, answer: stepUpAnswerSchema, settings: { silent: true } }),
} as const;

export const ACCESS_PATHS = routePaths(ACCESS_ENDPOINTS);
