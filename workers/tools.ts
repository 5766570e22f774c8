import { TOOL_ENDPOINTS, type ConvertAnswer, type ConvertQuery, type HistoryAnswer, type HistoryQuery, type RatesAnswer } from '../contract/tools';
import { TRACK_ENDPOINTS, type Carrier, type PrefixesAnswer, type TrackSearchAnswer } from '../contract/tracking';
import type { HttpClient } from './http/client';

/** The tools open to every signed-in user: exchange rates and parcel tracking (more tools join here as they are built). */
export type ToolsApi = {
  rates(query: { date?: string }): Promise<RatesAnswer>;
  convert(query: ConvertQuery): Promise<ConvertAnswer>;
  history(query: HistoryQuery): Promise<HistoryAnswer>;
  /** A newer search cancels the one still running. */
  track(numbers: string[]): Promise<TrackSearchAnswer>;
  trackPrefixes(): Promise<PrefixesAnswer>;
  saveTrackPrefix(prefix: string, carrier: Exclude<Carrier, 'ozon'>): Promise<PrefixesAnswer>;
  deleteTrackPrefix(prefix: string): Promise<PrefixesAnswer>;
};

export function createToolsApi(client: HttpClient): ToolsApi {
  return {
    rates: (query) => client.call(TOOL_ENDPOINTS.rates, query),
    convert: (query) => client.call(TOOL_ENDPOINTS.convert, query),
    history: (query) => client.call(TOOL_ENDPOINTS.history, query),
    track: (numbers) => client.call(TRACK_ENDPOINTS.search, { numbers }),
    trackPrefixes: () => client.call(TRACK_ENDPOINTS.prefixes),
    saveTrackPrefix: (prefix, carrier) => client.call(TRACK_ENDPOINTS.savePrefix, { prefix, carrier }),
    deleteTrackPrefix: (prefix) => client.call(TRACK_ENDPOINTS.deletePrefix, { prefix }),
  };
}
