import {
  ACCESS_ENDPOINTS as E,
  type AccessLogPage,
  type AccessLogQuery,
  type Explanation,
  type ExplainQuery,
  type Policy,
  type PolicyListQuery,
  type PolicyPage,
  type SavePolicyBody,
} from '../contract/accessPolicy';
import type { HttpClient } from './http/client';

/** Access policies, the access log, "explain and try" and the person's step-up (contract/accessPolicy.ts). */
export type AccessApi = {
  policies(query: PolicyListQuery): Promise<PolicyPage>;
  savePolicy(body: SavePolicyBody): Promise<Policy>;
  deletePolicies(ids: number[]): Promise<{ count: number }>;
  log(query: AccessLogQuery): Promise<AccessLogPage>;
  logExport(query: AccessLogQuery): Promise<Blob>;
  explain(query: ExplainQuery): Promise<Explanation>;
  /** Gives a one-time code; the calls that waited for one (a policy's step-up) are replayed. */
  stepUp(code: string): Promise<{ stepUpAt: number }>;
  /** The person closed the code dialog: the waiting calls fail with the policy's words. */
  cancelStepUp(): Promise<void>;
};

export function createAccessApi(client: HttpClient): AccessApi {
  return {
    policies: (query) => client.call(E.policies, query),
    savePolicy: (body) => client.call(E.savePolicy, body, { silent: true }),
    deletePolicies: (ids) => client.call(E.deletePolicies, { ids }),
    log: (query) => client.call(E.log, query),
    logExport: (query) => client.call(E.logExport, query),
    explain: (query) => client.call(E.explain, query, { silent: true }),
    stepUp: async (code) => {
      const answer = await client.call(E.stepUp, { code });
      client.stepUpGiven();
      return answer;
    },
    cancelStepUp: async () => client.stepUpCancelled(),
  };
}
