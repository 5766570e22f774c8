/**
 * One text cell of a CSV the app writes (the server's exports and the data worker's): quoted when it holds a
 * separator, a quote or a line break, and neutralised when a spreadsheet would take it for a formula. A text starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return (a shop named `=HYPERLINK(...)`) gets a leading apostrophe,
 * which Excel and LibreOffice show as text instead of running it (OWASP's advice for CSV injection). Numbers are
 * written by the caller as numbers and never pass through here: -5 stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvText(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
