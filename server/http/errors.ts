import { MESSAGE_BY_CODE, MESSAGES, message, type Lang, type Localized, type MessageKey, type MessageParams } from '../../contract/errors';

/** Messages only the server produces; the catalogue's own texts live in contract/errors.ts. */
export const SERVER_MESSAGES = {
  required: { zh: '不能为空', en: 'is required', pt: 'é obrigatório' },
  invalid: { zh: '格式不正确', en: 'is invalid', pt: 'é inválido' },
  unsafeText: { zh: '含有不允许的字符（空字符或不成对的代理字符）', en: 'contains characters that are not allowed (NUL or an unpaired surrogate)', pt: 'contém caracteres não permitidos (NUL ou um surrogate sem par)' },
} as const satisfies Record<string, Localized>;

/**
 * What an error says: a catalogue key (contract/errors.ts), a key with values for its placeholders, or a text that
 * is already in both languages because it comes from elsewhere (the marketplace's own error texts).
 */
export type ErrorText = MessageKey | { key: MessageKey; params: MessageParams } | Localized;

/**
 * An answer other than success, thrown from services and hooks; the one error handler turns it into the envelope
 * `{ code, msg, data }` with `code` also as HTTP status. `field` names the offending input for 400s.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: number;
  readonly text: ErrorText;
  readonly field: string | null;

  constructor(code: number, text?: ErrorText, field: string | null = null) {
    // A code without a catalogue text: a refusal of the input reads as such, never as an internal error.
    const resolved = text ?? MESSAGE_BY_CODE[code] ?? (code < 500 ? 'invalidInput' : 'serverError');
    super(typeof resolved === 'string' ? resolved : 'key' in resolved ? resolved.key : resolved.en);
    this.code = code;
    this.text = resolved;
    this.field = field;
  }

  localized(lang: Lang): string {
    if (typeof this.text === 'string') return message(this.text, lang);
    return 'key' in this.text ? message(this.text.key, lang, this.text.params) : this.text[lang];
  }
}

/** A request part failed its zod schema: `field` is the path, `text` what the user reads after "field: ". */
export class ValidationFailure extends Error {
  override name = 'ValidationFailure';
  readonly statusCode = 400;

  constructor(
    readonly field: string,
    readonly text: Localized,
  ) {
    super(`${field}: ${text.en}`);
  }
}

/**
 * Catalogue codes that answer the user's own input (a taken user name, a missing or wrong captcha): expected
 * answers, not failures of the server, so they are not logged as errors with a stack.
 */
export const INPUT_ERROR_CODES: ReadonlySet<number> = new Set([507, 508, 509]);

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(MESSAGES, value);
}
