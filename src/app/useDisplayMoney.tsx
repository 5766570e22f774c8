import { useEffect, useMemo, useState } from 'react';
import { selectSettings } from '@machines/settingsMachine';
import type { DataClient } from '@workers/client';
import { SettingsContext } from './displaySettings';
import { roublesPerUnit, type DisplayCurrency, type RoublesPerUnit } from './money';

/** The day's rates, read once per page load (the server keeps them from the Bank of Russia: server/integrations/cbr). */
let todays: Promise<RoublesPerUnit> | null = null;

function ratesOf(client: DataClient): Promise<RoublesPerUnit> {
  todays ??= client.tools.rates({}).then(
    (answer) => roublesPerUnit(answer.rates),
    (error: unknown) => {
      todays = null;
      throw error;
    },
  );
  return todays;
}

/** The display-currency setting and, when it converts, the day's rates (null until read, or when they cannot be). */
export function useDisplayCurrency(client: DataClient): { shown: DisplayCurrency; rates: RoublesPerUnit | null } {
  const shown = SettingsContext.useSelector((s) => selectSettings(s).displayCurrency) as DisplayCurrency;
  const [rates, setRates] = useState<RoublesPerUnit | null>(null);
  useEffect(() => {
    if (shown === 'original') return;
    let live = true;
    ratesOf(client).then(
      (read) => live && setRates(read),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, shown]);
  return useMemo(() => ({ shown, rates: shown === 'original' ? null : rates }), [shown, rates]);
}
