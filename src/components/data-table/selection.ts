export const DEFAULT_ROW_KEY = 'id';

/** Rows are compared by a key field, not by identity, so a refreshed page keeps what was selected. */
export function rowKeyOf<T extends object>(row: T, keyField: string = DEFAULT_ROW_KEY): string {
  if (!(keyField in row) || (row as Record<string, unknown>)[keyField] == null) {
    throw new Error('compared object lacks key');
  }
  return String((row as Record<string, unknown>)[keyField]);
}

export function isRowSelected<T extends object>(selected: readonly T[], row: T, keyField?: string): boolean {
  const key = rowKeyOf(row, keyField);
  return selected.some((s) => rowKeyOf(s, keyField) === key);
}

export function toggleRow<T extends object>(selected: readonly T[], row: T, keyField?: string): T[] {
  const key = rowKeyOf(row, keyField);
  return isRowSelected(selected, row, keyField)
    ? selected.filter((s) => rowKeyOf(s, keyField) !== key)
    : [...selected, row];
}

/** Selects or clears every row on the page, leaving selections from other pages alone. */
export function togglePage<T extends object>(selected: readonly T[], page: readonly T[], keyField?: string): T[] {
  const allOn = page.length > 0 && page.every((row) => isRowSelected(selected, row, keyField));
  if (allOn) {
    const onPage = new Set(page.map((row) => rowKeyOf(row, keyField)));
    return selected.filter((s) => !onPage.has(rowKeyOf(s, keyField)));
  }
  return [...selected, ...page.filter((row) => !isRowSelected(selected, row, keyField))];
}
