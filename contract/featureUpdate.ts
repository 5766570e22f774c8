/**
 * The feature-update dialog's rule (seller-tool §2.4), in a module without schemas: the browser's start-up reads it
 * without evaluating zod.
 */

/** The dialog shows an announcement while fewer than this many days have passed since its start date (§4). */
export const FEATURE_UPDATE_SHOW_DAYS = 30;
