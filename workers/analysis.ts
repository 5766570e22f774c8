import { ANALYSIS_ENDPOINTS, type AnalysisAnswer, type AnalysisQuery } from '../contract/analysis';
import type { HttpClient } from './http/client';

/** Sales analysis: a period of the seller's shops (a newer question cancels the one still running). */
export type AnalysisApi = {
  analyze(query: AnalysisQuery): Promise<AnalysisAnswer>;
};

export function createAnalysisApi(client: HttpClient): AnalysisApi {
  return {
    analyze: (query) => client.call(ANALYSIS_ENDPOINTS.sellerAnalyze, query),
  };
}
