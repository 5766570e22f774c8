/** A namespace's texts: strings, lists of strings (read with returnObjects) and groups of them. */
export type TextTree = { readonly [key: string]: string | readonly string[] | TextTree };

/** The same keys as `T` with any string: what every further language of a namespace must hold. */
export type Texts<T> = T extends string
  ? string
  : T extends readonly string[]
    ? readonly string[]
    : { readonly [K in keyof T]: Texts<T[K]> };

/** Some of `T`'s keys: a further language that holds part of a namespace (the rest falls back to English). */
export type PartialTexts<T> = T extends string | readonly string[] ? Texts<T> : { readonly [K in keyof T]?: PartialTexts<T[K]> };

/**
 * A namespace in every language: zh (the default and the keys' source), en and pt (Brazilian Portuguese) complete,
 * es and ja optional (they are not offered in the language picker).
 */
export type Locales<Zh extends TextTree = TextTree> = {
  zh: Zh;
  en: Texts<Zh>;
  pt: Texts<Zh>;
  es?: PartialTexts<Zh>;
  ja?: PartialTexts<Zh>;
};

/**
 * A feature's texts, `export const locales = defineLocales({ zh: {...}, en: {...}, pt: {...} })` in its `locales.ts`:
 * en and pt (and es, ja when given) are checked against zh's keys, so a key missing or misspelt in a language fails
 * typecheck.
 */
export function defineLocales<const Zh extends TextTree>(locales: Locales<Zh>): Locales<Zh> {
  return locales;
}
