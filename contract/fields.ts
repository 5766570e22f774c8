import { z } from 'zod';

/**
 * Shared input fields with sane ranges, so that no value a schema accepts can fail later in the database or in the
 * browser (an id past PostgreSQL's integer, a date JavaScript cannot show, `true` or `[1]` coerced into an id).
 */

/** The largest id of a PostgreSQL `integer` (serial) column. */
export const ROW_ID_MAX = 2_147_483_647;
/** Dates the product accepts, as epoch ms: from 2000-01-01 to 2100-01-01 (UTC). */
export const EPOCH_MS_MIN = Date.UTC(2000, 0, 1);
export const EPOCH_MS_MAX = Date.UTC(2100, 0, 1);

/** A query-string number: a plain decimal string becomes its number; anything else (true, [1], '') stays and fails. */
const fromDecimal = (value: unknown) => (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value);

/** A row id in a JSON body: a whole number from 1 to ROW_ID_MAX. */
export const rowId = () => z.number().int().min(1).max(ROW_ID_MAX);
/** A row id in a JSON body or a query string (`"12"`); `true` and `[1]` are not ids. */
export const looseRowId = () => z.preprocess(fromDecimal, rowId());
/** A date as epoch ms within EPOCH_MS_MIN..EPOCH_MS_MAX. */
export const epochMsInput = () => z.number().int().min(EPOCH_MS_MIN).max(EPOCH_MS_MAX);
/** A date bound in a query string. */
export const queryEpochMs = () => z.preprocess(fromDecimal, epochMsInput());
/** A number in a query string within [min, max]. */
export const queryNumber = (min: number, max: number) => z.preprocess(fromDecimal, z.number().min(min).max(max));
/** A whole number in a query string within [min, max] (page numbers, page sizes). */
export const queryInt = (min: number, max: number) => z.preprocess(fromDecimal, z.number().int().min(min).max(max));
