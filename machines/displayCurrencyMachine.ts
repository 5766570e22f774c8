import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { DEFAULT_PREFERENCES, type DisplayCurrency, type Preferences, type PreferencesInput } from '@contract/preferences';
import type { DisplayRates } from '@workers/tools';
import { reasonOf } from './batchOutcomes';

/**
 * The display currency (contract/preferences.ts) and the rates it converts at. Two regions: the preference, read
 * from the server at start and saved there when the user chooses (the choice shows at once and goes back to the
 * saved one if the save fails); and the Bank of Russia's rates of the day, read (through the worker, once a day)
 * only while a currency to convert to is chosen. Amounts read the context: without rates they stay as they are.
 */

export type DisplayCurrencyContext = {
  /** What amounts are shown in now. */
  shown: DisplayCurrency;
  /** What the server holds. */
  saved: DisplayCurrency;
  rates: DisplayRates | null;
  /** Why the rates could not be read, when they could not. */
  ratesProblem: string | null;
  /** Why the last choice could not be saved. */
  saveError: string | null;
};

export type DisplayCurrencyEvent = { type: 'currency.choose'; currency: DisplayCurrency };

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

export const displayCurrencyMachine = setup({
  types: {
    context: {} as DisplayCurrencyContext,
    events: {} as DisplayCurrencyEvent,
  },
  actors: {
    loadPreferences: fromPromise<Preferences>(notProvided('loadPreferences')),
    savePreferences: fromPromise<Preferences, PreferencesInput>(notProvided('savePreferences')),
    loadRates: fromPromise<DisplayRates>(notProvided('loadRates')),
  },
  actions: {
    choose: assign(({ event }) => {
      assertEvent(event, 'currency.choose');
      return { shown: event.currency, saveError: null };
    }),
  },
  guards: {
    needsRates: ({ context }) => context.shown !== 'original' && context.rates === null,
  },
}).createMachine({
  id: 'displayCurrency',
  type: 'parallel',
  context: { shown: DEFAULT_PREFERENCES.displayCurrency, saved: DEFAULT_PREFERENCES.displayCurrency, rates: null, ratesProblem: null, saveError: null },
  states: {
    preference: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadPreferences',
            onDone: { target: 'ready', actions: assign(({ event }) => ({ shown: event.output.displayCurrency, saved: event.output.displayCurrency })) },
            // Unreadable now: amounts as they are (the default), and the user can still choose.
            onError: 'ready',
          },
          on: { 'currency.choose': { target: 'saving', actions: 'choose' } },
        },
        ready: {
          on: { 'currency.choose': { target: 'saving', actions: 'choose' } },
        },
        saving: {
          invoke: {
            src: 'savePreferences',
            input: ({ context }) => ({ displayCurrency: context.shown }),
            onDone: { target: 'ready', actions: assign(({ event }) => ({ saved: event.output.displayCurrency })) },
            onError: { target: 'ready', actions: assign(({ context, event }) => ({ shown: context.saved, saveError: reasonOf(event.error) })) },
          },
          // A later choice wins: it is saved after this one.
          on: { 'currency.choose': { target: 'saving', reenter: true, actions: 'choose' } },
        },
      },
    },
    rates: {
      initial: 'idle',
      states: {
        idle: { always: { guard: 'needsRates', target: 'reading' } },
        reading: {
          invoke: {
            src: 'loadRates',
            onDone: { target: 'known', actions: assign(({ event }) => ({ rates: event.output, ratesProblem: null })) },
            onError: { target: 'unavailable', actions: assign(({ event }) => ({ ratesProblem: reasonOf(event.error) })) },
          },
        },
        known: {},
        // Choosing again reads again (when it converts): the bank may be back.
        unavailable: { on: { 'currency.choose': 'idle' } },
      },
    },
  },
});

export type DisplayCurrencySnapshot = SnapshotFrom<typeof displayCurrencyMachine>;
export const selectShown = (snapshot: DisplayCurrencySnapshot) => snapshot.context.shown;
export const selectSaving = (snapshot: DisplayCurrencySnapshot) => snapshot.matches({ preference: 'saving' });
export const selectSaveError = (snapshot: DisplayCurrencySnapshot) => snapshot.context.saveError;
