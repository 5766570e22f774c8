import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyRuleSchema, STRATEGIES, type PolicyRule } from '../../contract/accessPolicy';
import { compilePolicies, evaluate, type CallFacts, type PolicyInput, type Subject } from '../../server/areas/access/evaluate';

/**
 * `npm run bench -- --scenario policies` (issue 44): the access hook's policy evaluation (server/areas/access/evaluate.ts)
 * at 1,000 policies of one organisation, per call, in the process (no database: the compiled policies are cached per
 * organisation, so a call pays only this). Target: under 0.2 ms a call. Three mixes of calls:
 *   walkCold no policy names the caller, and the caller's candidates are looked for among all 1,000 on every call
 *   walk     the same, with each caller's candidates found once and kept (as a running server does)
 *   mixed    members, calls, addresses and times drawn at random
 *   dryRuns  the same with a tenth of the policies dry runs (a second walk per allowed call)
 */
export async function runPolicyBench(options: { resultsDir: string; runs: number }): Promise<void> {
  let state = 44;
  const random = () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const areas = ['orders', 'products', 'store', 'returns', 'chat', 'actions', 'research', 'team'];
  const calls = ['GET /order/list', 'POST /shipOrder', 'GET /product/oz-product-list', 'GET /store/list', 'POST /chat/send'];
  const patterns = ['10.1.*.*', '10.0.0.0/8', '192.0.2.7', '2001:db8::/32', '127.0.0.1', '172.16.0.0/12', '203.0.113.*'];
  const policies = (dryRunShare: number, applies: boolean): PolicyInput[] =>
    Array.from({ length: 1000 }, (_, i) => {
      const raw: Record<string, unknown> = {
        // The walk: who names nobody who calls, so each policy is looked at and passed over.
        ...(applies ? (random() < 0.9 ? { roleIds: [1 + Math.floor(random() * 20)] } : {}) : { memberIds: [100_000 + i] }),
        resources: random() < 0.05 ? [] : [random() < 0.5 ? `area:${pick(areas)}` : `call:${pick(calls)}`],
        ...(random() < 0.4 ? { blacklist: [pick(patterns), pick(patterns)] } : {}),
        ...(random() < 0.3 ? { whitelist: [pick(patterns)] } : {}),
        ...(random() < 0.4 ? { time: { weekdays: [1, 2, 3, 4, 5], from: '09:00', to: '18:00', timeZone: pick(['Asia/Shanghai', 'Europe/Moscow', 'UTC']) } } : {}),
      };
      const rule: PolicyRule = policyRuleSchema.parse(raw);
      return { id: i + 1, name: `p${i}`, strategy: pick(STRATEGIES), priority: 1 + Math.floor(random() * 4), status: 1, dryRun: random() < dryRunShare, rule };
    });
  const addresses = ['10.1.2.3', '10.9.0.1', '192.0.2.7', '127.0.0.1', '2001:db8::5', '198.51.100.20'];
  const start = Date.parse('2026-12-01T02:00:00Z');
  const cases = Array.from({ length: 20_000 }, () => ({
    subject: { memberId: 7, deptId: 1 + Math.floor(random() * 5), positionId: null, roleId: 1 + Math.floor(random() * 20) } satisfies Subject,
    call: { area: pick(areas), key: pick(calls), ip: pick(addresses), nowMs: start + Math.floor(random() * 7 * 86_400_000), stepUpAt: null } satisfies CallFacts,
  }));
  const figures: Record<string, { msPerCall: number; compileMs: number; denies: number }> = {};
  const walk = policies(0, false);
  for (const [name, list, cold] of [
    ['walkCold', walk, true],
    ['walk', walk, false],
    ['mixed', policies(0, true), false],
    ['dryRuns', policies(0.1, true), false],
  ] as const) {
    const compileStarted = performance.now();
    const compiled = compilePolicies(list);
    const compileMs = performance.now() - compileStarted;
    let best = Infinity;
    let denies = 0;
    for (let run = 0; run < options.runs; run++) {
      denies = 0;
      const started = performance.now();
      for (const { subject, call } of cases) {
        if (cold) compiled.bySubject.clear();
        if (evaluate(compiled, subject, call).decision !== 'allow') denies++;
      }
      best = Math.min(best, (performance.now() - started) / cases.length);
    }
    figures[name] = { msPerCall: Number(best.toFixed(4)), compileMs: Number(compileMs.toFixed(1)), denies };
  }
  const lines = Object.entries(figures).map(([name, f]) => `${name.padEnd(8)} ${f.msPerCall.toFixed(4)} ms a call (target < 0.2), compiled in ${f.compileMs} ms, ${f.denies} of ${cases.length} refused`);
  console.log(`\naccess policies: 1,000 policies, ${cases.length} calls, best of ${options.runs}\n${lines.join('\n')}\n`);
  mkdirSync(options.resultsDir, { recursive: true });
  writeFileSync(join(options.resultsDir, 'policies.json'), `${JSON.stringify({ date: new Date().toISOString(), policies: 1000, calls: cases.length, figures }, null, 2)}\n`);
}
