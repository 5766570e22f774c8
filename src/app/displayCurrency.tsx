import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import type { DisplayCurrency } from '@contract/preferences';
import { displayCurrencyMachine, selectSaveError, selectSaving, selectShown, type DisplayCurrencySnapshot } from '@machines/displayCurrencyMachine';
import { appActorOptions } from './createAppActor';
import { useDataClient } from './dataClient';
import { calendarDate } from './formats';
import { toLang } from './i18n';
import { AS_STORED, showMoney, type MoneyShown, type MoneyTexts, type MoneyView } from './money';

/**
 * The display currency for the signed-in shell: the preference the server keeps and the rates of the day
 * (machines/displayCurrencyMachine.ts), given to every amount through one context value. Amounts outside it (a
 * page rendered alone in a test) show as stored.
 */

type Choice = { shown: DisplayCurrency; saving: boolean; saveError: string | null; choose(currency: DisplayCurrency): void };

const MoneyContext = createContext<MoneyView>(AS_STORED);
const ChoiceContext = createContext<Choice | null>(null);

const selectRates = (s: DisplayCurrencySnapshot) => s.context.rates;
const selectRatesProblem = (s: DisplayCurrencySnapshot) => s.context.ratesProblem;

export function DisplayCurrencyProvider({ children }: { children: ReactNode }) {
  const client = useDataClient();
  const { t, i18n } = useTranslation();
  const lang = toLang(i18n.language);
  const machine = useMemo(
    () =>
      displayCurrencyMachine.provide({
        actors: {
          loadPreferences: fromPromise(() => client.tools.preferences()),
          savePreferences: fromPromise(({ input }) => client.tools.savePreferences(input)),
          loadRates: fromPromise(() => client.tools.displayRates()),
        },
      }),
    [client],
  );
  const actor = useActorRef(machine, appActorOptions());
  const shown = useSelector(actor, selectShown);
  const rates = useSelector(actor, selectRates);
  const ratesProblem = useSelector(actor, selectRatesProblem);
  const saving = useSelector(actor, selectSaving);
  const saveError = useSelector(actor, selectSaveError);
  const texts = useMemo<MoneyTexts>(
    () => ({
      rateOn: (values) => t('money.rateOn', { ...values, date: calendarDate(lang, values.date) }),
      stale: (values) => t('money.stale', values),
      reading: (values) => t('money.reading', values),
      unavailable: (values) => t('money.unavailable', values),
      noRate: (values) => t('money.noRate', values),
    }),
    [t, lang],
  );
  const view = useMemo<MoneyView>(() => ({ lang, shown, rates, ratesProblem, texts }), [lang, shown, rates, ratesProblem, texts]);
  const choice = useMemo<Choice>(() => ({ shown, saving, saveError, choose: (currency) => actor.send({ type: 'currency.choose', currency }) }), [shown, saving, saveError, actor]);
  return (
    <ChoiceContext.Provider value={choice}>
      <MoneyContext.Provider value={view}>{children}</MoneyContext.Provider>
    </ChoiceContext.Provider>
  );
}

/** The display currency, for a page or column list that formats amounts itself (a big list's cells). */
export function useMoneyView(): MoneyView {
  return useContext(MoneyContext);
}

/** The settings drawer's control: null outside the signed-in shell. */
export function useDisplayCurrencyChoice(): Choice | null {
  return useContext(ChoiceContext);
}

/** The formatter of the display currency: `format(amount, currency)` for texts an amount goes into. */
export function useMoney(): { view: MoneyView; format(amount: number, currency: string): MoneyShown } {
  const view = useMoneyView();
  return useMemo(() => ({ view, format: (amount: number, currency: string) => showMoney(amount, currency, view) }), [view]);
}
