import {
  inRanges,
  isDeny,
  parseAddress,
  parseAddressPattern,
  type AddressRange,
  type PolicyRule,
  type Strategy,
} from '../../../contract/accessPolicy';

/**
 * The one evaluator of access policies (contract/accessPolicy.ts has the rule in words): the access hook
 * (./plugin.ts) and the console's "explain and try" both call `evaluate`. An organisation's policies are compiled
 * once (sets, parsed address ranges, minutes of the day) and kept until one is saved; a call then costs a walk over
 * the compiled list in decision order that stops at the first policy that decides.
 */

export type PolicyInput = { id: number; name: string; strategy: Strategy; priority: number; status: number; dryRun: boolean; rule: PolicyRule };

/** Who calls: a member's (or an API token's) department, position, person and role. */
export type Subject = { memberId: number | null; deptId: number | null; positionId: number | null; roleId: number | null };

export type CallFacts = {
  /** The endpoint's area, and its key `METHOD /path` (`WS /ws` for the push socket). */
  area: string;
  key: string;
  ip: string;
  nowMs: number;
  /** When the session last took a one-time code; null: never. */
  stepUpAt: number | null;
};

type CompiledTime = { weekdays: number; from: number | null; to: number | null; startDate: string | null; endDate: string | null; timeZone: string; outside: boolean };

type Compiled = {
  id: number;
  name: string;
  strategy: Strategy;
  deny: boolean;
  priority: number;
  dryRun: boolean;
  log: boolean;
  anyone: boolean;
  depts: ReadonlySet<number>;
  positions: ReadonlySet<number>;
  members: ReadonlySet<number>;
  roles: ReadonlySet<number>;
  everyCall: boolean;
  areas: ReadonlySet<string>;
  calls: ReadonlySet<string>;
  white: AddressRange[];
  black: AddressRange[];
  time: CompiledTime | null;
  /** Multi-factor: the code must be at most this old (ms); null: none asked. */
  stepUpMs: number | null;
  stepUpMinutes: number;
};

export type CompiledPolicies = {
  /** In force and not dry runs, in decision order: priority 1 first, denies before allows, then by id. */
  live: Compiled[];
  /** `live` with the dry runs merged in, in the same order (empty when there are no dry runs). */
  withDryRuns: Compiled[];
  /** Per subject (member, role, department, position), the policies of each list whose "who" names it, in order. */
  bySubject: Map<string, { live: Compiled[]; withDryRuns: Compiled[] }>;
  /** Switched off (status 0): named by the explainer only. */
  off: { id: number; name: string }[];
  size: number;
};

export const NO_POLICIES: CompiledPolicies = { live: [], withDryRuns: [], bySubject: new Map(), off: [], size: 0 };

/** An organisation has few members and roles: their candidate lists are kept beside the compiled policies. */
const SUBJECT_CACHE_MAX = 5_000;

function candidates(compiled: CompiledPolicies, subject: Subject): { live: Compiled[]; withDryRuns: Compiled[] } {
  const key = `${subject.memberId}|${subject.roleId}|${subject.deptId}|${subject.positionId}`;
  let found = compiled.bySubject.get(key);
  if (!found) {
    found = { live: compiled.live.filter((policy) => whoMatches(policy, subject)), withDryRuns: compiled.withDryRuns.filter((policy) => whoMatches(policy, subject)) };
    if (compiled.bySubject.size >= SUBJECT_CACHE_MAX) compiled.bySubject.clear();
    compiled.bySubject.set(key, found);
  }
  return found;
}

function minutesOf(hhmm: string): number | null {
  if (!hhmm) return null;
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

function compileOne(policy: PolicyInput): Compiled {
  const { rule } = policy;
  const areas = new Set<string>();
  const calls = new Set<string>();
  for (const resource of rule.resources) {
    if (resource.startsWith('area:')) areas.add(resource.slice(5));
    else if (resource.startsWith('call:')) calls.add(resource.slice(5));
  }
  const ranges = (list: readonly string[]) => list.map(parseAddressPattern).filter((range): range is AddressRange => range !== null);
  const time = rule.time;
  return {
    id: policy.id,
    name: policy.name,
    strategy: policy.strategy,
    deny: isDeny(policy.strategy),
    priority: policy.priority,
    dryRun: policy.dryRun,
    log: policy.strategy === 'allowLog' || policy.strategy === 'denyLog',
    anyone: rule.deptIds.length + rule.positionIds.length + rule.memberIds.length + rule.roleIds.length === 0,
    depts: new Set(rule.deptIds),
    positions: new Set(rule.positionIds),
    members: new Set(rule.memberIds),
    roles: new Set(rule.roleIds),
    everyCall: rule.resources.length === 0,
    areas,
    calls,
    white: ranges(rule.whitelist),
    black: ranges(rule.blacklist),
    time: time
      ? {
          weekdays: time.weekdays.reduce((mask, day) => mask | (1 << day), 0),
          from: minutesOf(time.from),
          to: minutesOf(time.to),
          startDate: time.startDate,
          endDate: time.endDate,
          timeZone: time.timeZone,
          outside: time.outside,
        }
      : null,
    stepUpMs: rule.multiFactor ? rule.multiFactor.minutes * 60_000 : null,
    stepUpMinutes: rule.multiFactor?.minutes ?? 0,
  };
}

const byDecisionOrder = (a: Compiled, b: Compiled) => a.priority - b.priority || Number(b.deny) - Number(a.deny) || a.id - b.id;

export function compilePolicies(policies: readonly PolicyInput[]): CompiledPolicies {
  const on = policies.filter((policy) => policy.status === 1).map(compileOne);
  const live = on.filter((policy) => !policy.dryRun).sort(byDecisionOrder);
  const withDryRuns = on.some((policy) => policy.dryRun) ? [...on].sort(byDecisionOrder) : [];
  const off = policies.filter((policy) => policy.status !== 1).map(({ id, name }) => ({ id, name }));
  return { live, withDryRuns, bySubject: new Map(), off, size: policies.length };
}

// ---------------------------------------------------------------- local time

type LocalTime = { weekday: number; minute: number; date: string };
const formatters = new Map<string, Intl.DateTimeFormat>();
/** Local time per zone and minute: a call reads each zone once, and calls in the same minute share it. */
const localCache = new Map<string, LocalTime>();
let localCacheMinute = -1;
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

function localTime(timeZone: string, nowMs: number): LocalTime {
  const minuteKey = Math.floor(nowMs / 60_000);
  if (minuteKey !== localCacheMinute || localCache.size > 64) {
    localCache.clear();
    localCacheMinute = minuteKey;
  }
  const cached = localCache.get(timeZone);
  if (cached) return cached;
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(minuteKey * 60_000))) parts[part.type] = part.value;
  const local = {
    weekday: WEEKDAYS[parts.weekday ?? 'Mon'] ?? 1,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
    date: `${parts.year}-${parts.month}-${parts.day}`,
  };
  localCache.set(timeZone, local);
  return local;
}

function inWindow(time: CompiledTime, nowMs: number): boolean {
  const local = localTime(time.timeZone, nowMs);
  let inside = true;
  if (time.startDate !== null && local.date < time.startDate) inside = false;
  else if (time.endDate !== null && local.date > time.endDate) inside = false;
  else if (time.weekdays !== 0 && (time.weekdays & (1 << local.weekday)) === 0) inside = false;
  else if (time.from !== null || time.to !== null) {
    const from = time.from ?? 0;
    const to = time.to ?? 24 * 60;
    // From after to: the window runs past midnight (22:00-06:00).
    inside = from <= to ? local.minute >= from && local.minute < to : local.minute >= from || local.minute < to;
  }
  return time.outside ? !inside : inside;
}

// ---------------------------------------------------------------- matching

export type SkipReason = 'who' | 'resource' | 'address' | 'time';

function whoMatches(policy: Compiled, subject: Subject): boolean {
  if (policy.anyone) return true;
  return (
    (subject.memberId !== null && policy.members.has(subject.memberId)) ||
    (subject.roleId !== null && policy.roles.has(subject.roleId)) ||
    (subject.deptId !== null && policy.depts.has(subject.deptId)) ||
    (subject.positionId !== null && policy.positions.has(subject.positionId))
  );
}

/** Why the policy does not apply to the call, or null when it does. */
function mismatch(policy: Compiled, subject: Subject, call: CallFacts, address: ReturnType<typeof parseAddress>): SkipReason | null {
  if (!whoMatches(policy, subject)) return 'who';
  if (!policy.everyCall && !policy.areas.has(call.area) && !policy.calls.has(call.key)) return 'resource';
  if (policy.white.length > 0 || policy.black.length > 0) {
    const refused = inRanges(address, policy.black) || (policy.white.length > 0 && !inRanges(address, policy.white));
    // A deny applies where the lists refuse the address; an allow where they let it through.
    if (policy.deny ? !refused : refused) return 'address';
  }
  if (policy.time && !inWindow(policy.time, call.nowMs)) return 'time';
  return null;
}

export type Verdict = {
  decision: 'allow' | 'deny' | 'stepUp';
  /** The policy that decided; null: none applied. */
  policy: { id: number; name: string; strategy: Strategy; priority: number } | null;
  /** The code's age limit in minutes, for a stepUp. */
  stepUpMinutes: number;
  /** Whether the decision writes the access log ("and log" strategies). */
  log: boolean;
  /** A dry-run policy that would have refused an allowed call. */
  wouldDeny: { id: number; name: string } | null;
};

export type Trace = {
  matched: { id: number; name: string; strategy: Strategy; priority: number; dryRun: boolean }[];
  skipped: { id: number; name: string; reason: SkipReason | 'status' }[];
};

type Outcome = { decision: Verdict['decision']; by: Compiled | null };

/**
 * The combining rule over one ordered list: the first policy that applies fixes the deciding priority; a deny there
 * decides at once (denies come first within a priority); otherwise the allows of that priority decide, and one that
 * asks for multi-factor without a fresh code makes it a step-up.
 */
function combine(list: readonly Compiled[], subject: Subject, call: CallFacts, address: ReturnType<typeof parseAddress>, trace: Trace | null): Outcome {
  let outcome: Outcome | null = null;
  let level = 0;
  for (const policy of list) {
    if (outcome && policy.priority !== level && !trace) break;
    const reason = mismatch(policy, subject, call, address);
    if (trace) {
      if (reason) trace.skipped.push({ id: policy.id, name: policy.name, reason });
      else trace.matched.push({ id: policy.id, name: policy.name, strategy: policy.strategy, priority: policy.priority, dryRun: policy.dryRun });
    }
    if (reason || (outcome && policy.priority !== level)) continue;
    if (!outcome) {
      level = policy.priority;
      if (policy.deny) {
        outcome = { decision: 'deny', by: policy };
        if (!trace) break;
        continue;
      }
      outcome = { decision: 'allow', by: policy };
    }
    if (outcome.decision === 'allow' && policy.stepUpMs !== null && (call.stepUpAt === null || call.nowMs - call.stepUpAt > policy.stepUpMs)) {
      outcome = { decision: 'stepUp', by: policy };
    }
  }
  return outcome ?? { decision: 'allow', by: null };
}

export function evaluate(compiled: CompiledPolicies, subject: Subject, call: CallFacts, trace: Trace | null = null): Verdict {
  if (compiled.live.length === 0 && compiled.withDryRuns.length === 0) return { decision: 'allow', policy: null, stepUpMinutes: 0, log: false, wouldDeny: null };
  const address = parseAddress(call.ip);
  // The explainer walks every policy to say why each one did or did not apply; a call walks those naming its caller.
  const lists = trace ? compiled : candidates(compiled, subject);
  const real = combine(lists.live, subject, call, address, compiled.withDryRuns.length === 0 ? trace : null);
  let wouldDeny: Verdict['wouldDeny'] = null;
  if (compiled.withDryRuns.length > 0) {
    const hypothetical = combine(lists.withDryRuns, subject, call, address, trace);
    if (real.decision === 'allow' && hypothetical.decision !== 'allow' && hypothetical.by?.dryRun) wouldDeny = { id: hypothetical.by.id, name: hypothetical.by.name };
  }
  if (trace) for (const off of compiled.off) trace.skipped.push({ ...off, reason: 'status' });
  const by = real.by;
  return {
    decision: real.decision,
    policy: by ? { id: by.id, name: by.name, strategy: by.strategy, priority: by.priority } : null,
    stepUpMinutes: real.decision === 'stepUp' && by ? by.stepUpMinutes : 0,
    log: by !== null && (by.log || real.decision === 'stepUp'),
    wouldDeny,
  };
}
