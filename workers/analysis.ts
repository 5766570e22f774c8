import {
  ANALYSIS_ENDPOINTS,
  type AnalysisAnswer,
  type AnalysisExportQuery,
  type AnalysisQuery,
  type AnalysisSkuPage,
  type AnalysisSkuQuery,
} from '../contract/analysis';
import type { HttpClient } from './http/client';

/** Sales analysis: a period of the seller's shops (a newer question cancels the one still running). */
export type AnalysisApi = {
  analyze(query: AnalysisQuery): Promise<AnalysisAnswer>;
  /** A page of the period's SKU table, sorted and narrowed on the server. */
  skus(query: AnalysisSkuQuery): Promise<AnalysisSkuPage>;
  /** The period's SKU table as a file (xlsx or csv), as the table sorts and narrows it. */
  exportSkus(query: AnalysisExportQuery): Promise<ArrayBuffer>;
};

export function createAnalysisApi(client: HttpClient): AnalysisApi {
  return {
    analyze: (query) => client.call(ANALYSIS_ENDPOINTS.sellerAnalyze, query),
    skus: (query) => client.call(ANALYSIS_ENDPOINTS.sellerAnalyzeSkus, query),
    exportSkus: async (query) => (await client.call(ANALYSIS_ENDPOINTS.sellerAnalyzeExport, query)).arrayBuffer(),
  };
}
