import { TOOL_ENDPOINTS, type ConvertAnswer, type ConvertQuery, type HistoryAnswer, type HistoryQuery, type RatesAnswer } from '../contract/tools';
import { TRACK_ENDPOINTS, type Carrier, type PrefixesAnswer, type TrackSearchAnswer } from '../contract/tracking';
import { POSTCODE_ENDPOINTS, type LookupAnswer, type PostcodeDataset, type PostcodeSearchAnswer } from '../contract/postcodes';
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
  postcodeLookup(index: string): Promise<LookupAnswer>;
  postcodeSearch(q: string): Promise<PostcodeSearchAnswer>;
  postcodeDataset(): Promise<PostcodeDataset>;
  /** Replaces the postcode database with the post's file (administrators). */
  importPostcodes(file: File): Promise<{ dataset: PostcodeDataset }>;
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
    postcodeLookup: (index) => client.call(POSTCODE_ENDPOINTS.lookup, { index }),
    postcodeSearch: (q) => client.call(POSTCODE_ENDPOINTS.search, { q }),
    postcodeDataset: () => client.call(POSTCODE_ENDPOINTS.dataset),
    importPostcodes: (file) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return client.call(POSTCODE_ENDPOINTS.import, form);
    },
  };
}
