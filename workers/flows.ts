import { FLOWS_ENDPOINTS, type FlowsSettings } from '../contract/flows';
import type { HttpClient } from './http/client';

export type FlowsApi = { settings(): Promise<FlowsSettings> };

export function createFlowsApi(client: HttpClient): FlowsApi {
  return { settings: () => client.call(FLOWS_ENDPOINTS.settings) };
}
