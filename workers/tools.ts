import { TOOL_ENDPOINTS, type ConvertAnswer, type ConvertQuery, type HistoryAnswer, type HistoryQuery, type RatesAnswer } from '../contract/tools';
import type { HttpClient } from './http/client';

/** The tools open to every signed-in user: exchange rates (more tools join here as they are built). */
export type ToolsApi = {
  rates(query: { date?: string }): Promise<RatesAnswer>;
  convert(query: ConvertQuery): Promise<ConvertAnswer>;
  history(query: HistoryQuery): Promise<HistoryAnswer>;
};

export function createToolsApi(client: HttpClient): ToolsApi {
  return {
    rates: (query) => client.call(TOOL_ENDPOINTS.rates, query),
    convert: (query) => client.call(TOOL_ENDPOINTS.convert, query),
    history: (query) => client.call(TOOL_ENDPOINTS.history, query),
  };
}
