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
  stepUp(code: string): Promise<{ stepUpAt: number }>;
};

export function createAccessApi(client: HttpClient): AccessApi {
  return {
    policies: (query) => client.call(E.policies, query),
    savePolicy: (body) => client.call(E.savePolicy, body, { silent: true }),
    deletePolicies: (ids) => client.call(E.deletePolicies, { ids }),
    log: (query) => client.call(E.log, query),
    logExport: (query) => client.call(E.logExport, query),
    explain: (query) => client.call(E.explain, query, { silent: true }),
    stepUp: (code) => client.call(E.stepUp, { code }),
  };
}
