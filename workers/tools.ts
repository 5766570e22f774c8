import { TOOL_ENDPOINTS, type ConvertAnswer, type ConvertQuery, type HistoryAnswer, type HistoryQuery, type RatesAnswer } from '../contract/tools';
import { TRACK_ENDPOINTS, type Carrier, type PrefixesAnswer, type TrackSearchAnswer } from '../contract/tracking';
import { POSTCODE_ENDPOINTS, type LookupAnswer, type PostcodeDataset, type PostcodeSearchAnswer } from '../contract/postcodes';
import { PREFERENCE_ENDPOINTS, type Preferences, type PreferencesInput } from '../contract/preferences';
import type { HttpClient } from './http/client';

/** The Bank of Russia's rates in force on a day, for showing amounts converted (src/app/money.ts). */
export type DisplayRates = Pick<RatesAnswer, 'date' | 'fetchedAt' | 'stale' | 'problem' | 'rates'>;

/** Today's date in Moscow (yyyy-mm-dd): the bank's rate of the day is the one set for it. */
export function moscowDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The tools open to every signed-in user: exchange rates and parcel tracking (more tools join here as they are built). */
export type ToolsApi = {
  rates(query: { date?: string }): Promise<RatesAnswer>;
  convert(query: ConvertQuery): Promise<ConvertAnswer>;
  history(query: HistoryQuery): Promise<HistoryAnswer>;
  /** The rates of the day for the display currency: read once a day (in Moscow) for every page, the rest from memory. */
  displayRates(): Promise<DisplayRates>;
  /** The signed-in person's preferences (the display currency), kept by the server. */
  preferences(): Promise<Preferences>;
  savePreferences(change: PreferencesInput): Promise<Preferences>;
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

export function createToolsApi(client: HttpClient, now: () => Date = () => new Date()): ToolsApi {
  // One read per day shared by every caller; a failed read is not kept, so the next page asks again.
  let daily: { day: string; rates: Promise<DisplayRates> } | null = null;
  const displayRates = (): Promise<DisplayRates> => {
    const day = moscowDate(now());
    if (daily?.day !== day) {
      const rates = client.call(TOOL_ENDPOINTS.rates, { date: day }).then(({ date, fetchedAt, stale, problem, rates: list }) => ({ date, fetchedAt, stale, problem, rates: list }));
      const entry = { day, rates };
      daily = entry;
      rates.catch(() => {
        if (daily === entry) daily = null;
      });
    }
    return daily.rates;
  };
  return {
    displayRates,
    preferences: () => client.call(PREFERENCE_ENDPOINTS.get),
    savePreferences: (change) => client.call(PREFERENCE_ENDPOINTS.save, change),
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
