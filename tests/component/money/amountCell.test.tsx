import { screen, waitFor } from '@testing-library/react';
import type { Preferences, PreferencesInput } from '@contract/preferences';
import type { DataClient } from '@workers/client';
import type { DisplayRates } from '@workers/tools';
import { DisplayCurrencyProvider } from '@/app/displayCurrency';
import { SettingsProvider } from '@/app/displaySettings';
import { SettingsDrawer } from '@/app/layout/SettingsDrawer';
import { formatAmount } from '@/features/orders/OrderColumns';
import { fakeDataClient, pickOption, renderWithApp } from '../renderApp';

const RATES: DisplayRates = {
  date: '2026-12-02',
  fetchedAt: '2026-12-02T09:00:00.000Z',
  stale: false,
  problem: null,
  rates: [{ code: 'CNY', numCode: '156', name: 'Юань', nominal: 1, value: '11.4286' }],
};

function clientWith(saved: Preferences, rates: () => Promise<DisplayRates>) {
  const saves: PreferencesInput[] = [];
  const client = fakeDataClient();
  const tools = {
    preferences: async () => saved,
    savePreferences: async (change: PreferencesInput) => {
      saves.push(change);
      return { ...saved, ...change };
    },
    displayRates: rates,
  };
  return { client: { ...client, tools } as unknown as DataClient, saves };
}

/** An order's amount cell, as the order list renders it, beside the settings drawer the user chooses in. */
function renderCell(client: DataClient, lang: 'zh' | 'en' = 'zh') {
  return renderWithApp(
    <SettingsProvider>
      <DisplayCurrencyProvider>
        <div role="gridcell" aria-label="amount">
          {formatAmount({ amount: 399, currency: 'CNY' })}
        </div>
        <SettingsDrawer open onClose={() => undefined} />
      </DisplayCurrencyProvider>
    </SettingsProvider>,
    { client, lang },
  );
}

const cell = () => screen.getByRole('gridcell', { name: 'amount' });

describe('an amount cell in the display currency', () => {
  it('shows the amount in its own currency by default, and in roubles with the original beside it once chosen', async () => {
    const { client, saves } = clientWith({ displayCurrency: 'original' }, async () => RATES);
    renderCell(client);
    await waitFor(() => expect(screen.getByRole('combobox', { name: '金额显示币种' })).toBeEnabled());
    expect(cell()).toHaveTextContent(/^¥399\.00$/);
    expect(cell().querySelector('[title]')).toBeNull();

    await pickOption('金额显示币种', '卢布 RUB');
    await waitFor(() => expect(cell()).toHaveTextContent('₽4,560.01 (¥399.00)'));
    expect(cell().querySelector('.money')).toHaveAttribute('title', '俄罗斯央行 2026-12-02 汇率：1 CNY = 11.4286 RUB');
    expect(saves).toEqual([{ displayCurrency: 'RUB' }]);
  }, 20_000);

  it('keeps the original, and says why in the tooltip, when the rate cannot be read', async () => {
    const { client } = clientWith({ displayCurrency: 'RUB' }, () => Promise.reject({ type: 'Network', code: 502, message: 'the Bank of Russia cannot be reached' }));
    renderCell(client, 'en');
    await waitFor(() =>
      expect(cell().querySelector('.money')).toHaveAttribute(
        'title',
        'Not converted to RUB: the Bank of Russia’s rate cannot be read (the Bank of Russia cannot be reached); shown in its own currency',
      ),
    );
    expect(cell()).toHaveTextContent(/^¥399\.00$/);
    expect(screen.getByRole('combobox', { name: 'Show amounts in' }).closest('.ant-select')).toHaveTextContent('Roubles RUB');
  }, 20_000);
});
