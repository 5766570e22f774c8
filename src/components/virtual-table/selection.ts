/**
 * Row selection over a whole result, not only the rows on screen: either the listed ids, or every row of the result
 * except the listed ids ("select all N" then unticking a few). Nothing here holds the result itself.
 */
export type RowSelection = { all: boolean; ids: ReadonlySet<string> };

export const EMPTY_SELECTION: RowSelection = { all: false, ids: new Set() };

export function isSelected(selection: RowSelection, id: string): boolean {
  return selection.all !== selection.ids.has(id);
}

export function selectedCount(selection: RowSelection, total: number): number {
  return selection.all ? Math.max(0, total - selection.ids.size) : selection.ids.size;
}

export function toggleRow(selection: RowSelection, id: string): RowSelection {
  const ids = new Set(selection.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { all: selection.all, ids };
}

/** The header box: everything when not all rows are selected, else nothing. */
export function toggleAll(selection: RowSelection, total: number): RowSelection {
  return selectedCount(selection, total) === total && total > 0 ? EMPTY_SELECTION : { all: true, ids: new Set() };
}
