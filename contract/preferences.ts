import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';

/**
 * A user's own preferences, kept by the server so they follow the user to any browser: for now the display currency.
 * 'original' shows every amount in its own currency (no conversion); CNY or RUB also converts it at the Bank of
 * Russia's rate of the day, shown first with the original beside it.
 */

export const DISPLAY_CURRENCIES = ['original', 'CNY', 'RUB'] as const;
export type DisplayCurrency = (typeof DISPLAY_CURRENCIES)[number];

export const preferencesSchema = lazySchema(() => z.object({ displayCurrency: z.enum(DISPLAY_CURRENCIES) }));
export type Preferences = z.infer<typeof preferencesSchema>;

export const DEFAULT_PREFERENCES: Preferences = { displayCurrency: 'original' };

/** What a save sends: any of the preferences, the others kept. */
export const preferencesInputSchema = lazySchema(() => preferencesSchema.partial().strict());
export type PreferencesInput = z.input<typeof preferencesInputSchema>;

export const PREFERENCE_ENDPOINTS = {
  get: defineEndpoint({ method: 'GET', path: '/user/preferences', summary: "The signed-in user's preferences (display currency).", access: 'open', answer: preferencesSchema, settings: { silent: true } }),
  save: defineEndpoint({
    method: 'POST',
    path: '/user/preferences',
    summary: "Changes the signed-in user's preferences; answers them all.",
    access: 'open',
    input: preferencesInputSchema,
    answer: preferencesSchema,
  }),
} as const;
