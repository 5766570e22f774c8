import type { SuccessEnvelope } from '../../contract/envelope';

/** The success envelope; handlers return `ok(data)` so that `null`, 0 and false answers are wrapped the same way. */
export function ok<T>(data: T): SuccessEnvelope<T> {
  return { code: 200, msg: 'success', data };
}
