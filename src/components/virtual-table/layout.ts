/** Column widths and order, saved per user and table in localStorage. */
export type ColumnLayout = { order: string[]; widths: Record<string, number> };

const PREFIX = 'virtual-table:';

export function loadLayout(storageKey: string, columnIds: readonly string[]): ColumnLayout {
  let saved: Partial<ColumnLayout> = {};
  try {
    saved = JSON.parse(localStorage.getItem(PREFIX + storageKey) ?? '{}') as Partial<ColumnLayout>;
  } catch {
    // A damaged entry is replaced at the next change.
  }
  const known = new Set(columnIds);
  // Columns added since the layout was saved go at the end; removed ones are dropped.
  const order = (saved.order ?? []).filter((id) => known.has(id));
  for (const id of columnIds) if (!order.includes(id)) order.push(id);
  return { order, widths: { ...(saved.widths ?? {}) } };
}

export function saveLayout(storageKey: string, layout: ColumnLayout): void {
  try {
    localStorage.setItem(PREFIX + storageKey, JSON.stringify(layout));
  } catch {
    // Storage full or disabled: the layout lasts for this page only.
  }
}

export function moveColumn(order: readonly string[], id: string, before: string): string[] {
  if (id === before) return [...order];
  const rest = order.filter((column) => column !== id);
  const index = rest.indexOf(before);
  rest.splice(index < 0 ? rest.length : index, 0, id);
  return rest;
}
