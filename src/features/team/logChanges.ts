/** One line of an operation log entry's changes: the field's label and its value, or its value before → after. */
export type ChangeLine = { label: string; text: string };

/** What the lines are made with: the console's texts and the organisation's shop names. */
export type ChangeTexts = {
  /** A field's label (`fields.<key>`), or null for a field the log does not show (ids, counters, times). */
  label(key: string): string | null;
  shops(ids: readonly number[]): string;
  /** A member's own shop list left to the role (null shopIds), and a scope of every shop (null strategy). */
  byRole: string;
  allShops: string;
  /** Between the items of a list ('、' in Chinese). */
  separator: string;
  yes: string;
  no: string;
  status(value: string): string;
  dataScope(value: string): string;
  /** `area:action` as the seller reads it. */
  permission(value: string): string;
};

/** The fields of the console's records the log shows, in the order it shows them. */
export const LOGGED_FIELDS = [
  'name',
  'position_name',
  'nickName',
  'role',
  'department',
  'position',
  'shopIds',
  'strategy',
  'status',
  'note',
  'permissions',
  'dataScope',
  'applySubDept',
  'ownRecords',
  'leader',
  'sort',
  'position_type',
  'director',
  'number',
  'date',
] as const;

const EMPTY = '—';
const ARROW = ' → ';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueText(key: string, value: unknown, texts: ChangeTexts): string {
  if (key === 'shopIds' || key === 'strategy') {
    if (value === null) return key === 'strategy' ? texts.allShops : texts.byRole;
    return Array.isArray(value) ? texts.shops(value.filter((id): id is number => typeof id === 'number')) || EMPTY : EMPTY;
  }
  if (value === null || value === undefined || value === '') return EMPTY;
  if (key === 'status' && typeof value === 'string') return texts.status(value);
  if (key === 'dataScope' && typeof value === 'string') return texts.dataScope(value);
  if (key === 'permissions' && Array.isArray(value)) return value.map((p) => texts.permission(String(p))).join(texts.separator) || EMPTY;
  if (typeof value === 'boolean') return value ? texts.yes : texts.no;
  if (Array.isArray(value)) return value.map(String).join(texts.separator) || EMPTY;
  return String(value);
}

/** Permissions granted and taken away, rather than both whole lists. */
function permissionChange(before: unknown, after: unknown, texts: ChangeTexts): string {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  const [was, now] = [list(before), list(after)];
  const added = now.filter((p) => !was.includes(p)).map((p) => `+${texts.permission(p)}`);
  const removed = was.filter((p) => !now.includes(p)).map((p) => `−${texts.permission(p)}`);
  return [...added, ...removed].join(texts.separator);
}

function fieldsOf(record: Record<string, unknown>, texts: ChangeTexts): ChangeLine[] {
  return LOGGED_FIELDS.flatMap((key) => {
    const label = texts.label(key);
    if (label === null || !(key in record)) return [];
    const text = valueText(key, record[key], texts);
    return text === EMPTY ? [] : [{ label, text }];
  });
}

/**
 * What an entry changed, as a seller reads it: for an edit, each field that differs as `before → after`; for a new
 * record, its fields; for removed records, their names. Fields the log does not show (ids, counters) are left out.
 */
export function changeLines(before: unknown, after: unknown, texts: ChangeTexts): ChangeLine[] {
  if (isRecord(before) && isRecord(after)) {
    return LOGGED_FIELDS.flatMap((key) => {
      const label = texts.label(key);
      if (label === null || JSON.stringify(before[key]) === JSON.stringify(after[key])) return [];
      if (!(key in before) && !(key in after)) return [];
      const text = key === 'permissions' ? permissionChange(before[key], after[key], texts) : `${valueText(key, before[key], texts)}${ARROW}${valueText(key, after[key], texts)}`;
      return [{ label, text }];
    });
  }
  const one = after ?? before;
  if (isRecord(one)) return fieldsOf(one, texts);
  if (Array.isArray(one)) {
    const names = one.filter(isRecord).map((record) => String(record.name ?? record.position_name ?? record.id ?? ''));
    const label = texts.label('name');
    return names.length > 0 && label !== null ? [{ label, text: names.join(texts.separator) }] : [];
  }
  return [];
}
