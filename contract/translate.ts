import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';

/**
 * Russian ↔ Chinese translation on demand (issue 47 item 8, issue 45 item 4): buyers write Russian, the seller reads
 * Chinese. The server translates through its provider adapter (server/integrations/translate: Yandex Cloud Translate
 * v2, or its in-process simulator) and keeps every translation, so a text translated once costs no second call.
 *
 * One call shape, served for each page that translates under that page's own permission: a buyer chat's messages
 * (chat), product names and descriptions (products), and the keyword research page's queries (research). A role
 * that cannot open a page cannot spend the provider's quota from it either.
 */

/** The languages translated between: the text is in one and wanted in the other. */
export const TRANSLATE_LANGUAGES = ['ru', 'zh'] as const;
export type TranslateLanguage = (typeof TRANSLATE_LANGUAGES)[number];

/** At most this many texts per call: one page of chat messages, products or keywords. */
export const TRANSLATE_MAX_TEXTS = 100;
/** At most this many characters per text: a long product description. */
export const TRANSLATE_MAX_TEXT_CHARS = 5000;
/** At most this many characters per call, all texts together (the server splits it into provider-sized requests). */
export const TRANSLATE_MAX_TOTAL_CHARS = 20_000;

export const translateInputSchema = lazySchema(() =>
  z
    .object({
      /** The texts, each in the language other than `to`; each answered in the same position. */
      texts: z
        .array(z.string({ error: 'translateEmptyText' }).max(TRANSLATE_MAX_TEXT_CHARS, 'translateTextTooLong').refine((text) => text.trim() !== '', 'translateEmptyText'), {
          error: 'translateNoTexts',
        })
        .min(1, 'translateNoTexts')
        .max(TRANSLATE_MAX_TEXTS, 'translateTooManyTexts'),
      /** The language wanted; the texts are read as the other one. */
      to: z.enum(TRANSLATE_LANGUAGES, { error: 'translateLanguage' }),
    })
    .superRefine((input, context) => {
      const total = input.texts.reduce((sum, text) => sum + text.length, 0);
      if (total > TRANSLATE_MAX_TOTAL_CHARS) context.addIssue({ code: 'custom', path: ['texts'], message: 'translateTooMuchText' });
    }),
);
export type TranslateInput = z.input<typeof translateInputSchema>;

export const translateAnswerSchema = lazySchema(() =>
  z.object({
    /** Each text's translation, in the order of `texts`; a text with nothing in the source language comes back as it is. */
    translations: z.array(z.string()),
    from: z.enum(TRANSLATE_LANGUAGES),
    to: z.enum(TRANSLATE_LANGUAGES),
    /** Who translated: Yandex Cloud Translate, or the demo's simulator (a small dictionary, marked where it guesses). */
    provider: z.enum(['yandex', 'simulator']),
    /** How many of the texts were answered from the stored translations (no provider call for them). */
    cached: z.number().int(),
  }),
);
export type TranslateAnswer = z.infer<typeof translateAnswerSchema>;

/** The language a text in `to`'s counterpart is read as. */
export const sourceOf = (to: TranslateLanguage): TranslateLanguage => (to === 'zh' ? 'ru' : 'zh');

const common = {
  method: 'POST',
  action: 'view',
  input: translateInputSchema,
  answer: translateAnswerSchema,
  settings: { timeout: 30_000, cancellable: false },
} as const;

export const TRANSLATE_ENDPOINTS = {
  chat: defineEndpoint({ ...common, path: '/chat/translate', summary: "Translates buyer chat messages between Russian and Chinese (kept: a repeat costs no provider call)", access: 'chat' }),
  products: defineEndpoint({ ...common, path: '/product/translate', summary: 'Translates product names and descriptions between Russian and Chinese', access: 'products' }),
  keywords: defineEndpoint({ ...common, path: '/search/keyword/translate', summary: "Translates the keyword page's search queries between Russian and Chinese", access: 'research' }),
} as const;
