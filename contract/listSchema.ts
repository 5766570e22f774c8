/**
 * A big list's column description: what the binary sync frame (contract/listFrame.ts), the server's frame builder,
 * the worker's list engine, cache and sync, and the list machine take instead of one domain's fields. Orders are
 * `ORDER_LIST` (contract/orders.ts); a new list (products, returns, promotion candidates, research results) is one
 * `defineListSchema` call and the glue that names its endpoint and SQL.
 *
 * Every column is stored in one of three forms, chosen by its type:
 * - numbers (`int`, `number`, `money`, `epochMs`): a Float64 per row, NaN for null where the column is nullable; on
 *   the wire each in the fewest bytes that give its values back exactly;
 * - dictionary columns (`dict`, `dictInt`): values that repeat across rows (statuses, shops, products), a code per row
 *   into a dictionary of the distinct values;
 * - texts (`text`): mostly unique strings (ids, posting numbers), kept joined until a value is read.
 * Every row also carries a tombstone, `deleted`: a removed row travels once so caches drop it.
 */

/** How a number column's values are sent by the database (the server's binary copy reads each form). */
export type NumberSource = 'int4' | 'float8' | 'timestamptz';

export type NumberColumnSpec<V = number> = { kind: 'number'; nullable: boolean; source: NumberSource; value?: V };
export type DictColumnSpec<V extends string | number = string> = { kind: 'dict'; source: V extends number ? 'int4' : 'text'; value?: V };
export type TextColumnSpec = { kind: 'text'; source: 'text' };
export type ColumnSpec = NumberColumnSpec<number | null> | DictColumnSpec<string> | DictColumnSpec<number> | TextColumnSpec;

type NumberOptions = { nullable?: boolean };
type Nullable<O extends NumberOptions> = O extends { nullable: true } ? number | null : number;

const numberColumn =
  (source: NumberSource) =>
  <O extends NumberOptions = { nullable?: false }>(options?: O): NumberColumnSpec<Nullable<O>> => ({ kind: 'number', nullable: options?.nullable === true, source });

/** A whole number (quantities, counts), sent as int4. */
export const int = numberColumn('int4');
/** Any finite number (ratios, weights), sent as float8. */
export const number = numberColumn('float8');
/** An amount in currency units, sent as float8 (the frame narrows whole kopecks or fen to integers). */
export const money = numberColumn('float8');
/** A time in epoch milliseconds, sent as timestamptz. */
export const epochMs = numberColumn('timestamptz');
/** A string that repeats across rows; `V` narrows it (a status union). */
export const dict = <V extends string = string>(): DictColumnSpec<V> => ({ kind: 'dict', source: 'text' }) as DictColumnSpec<V>;
/** A whole number that repeats across rows (a shop id), sent as int4. */
export const dictInt = (): DictColumnSpec<number> => ({ kind: 'dict', source: 'int4' });
/** A mostly unique string (an id, a posting number). */
export const text = (): TextColumnSpec => ({ kind: 'text', source: 'text' });

export type Columns = Record<string, ColumnSpec>;

type ValueOf<C> = C extends TextColumnSpec ? string : C extends { value?: infer V } ? Exclude<V, undefined> : never;

/** A row of a list with these columns, its tombstone included. */
export type RowOf<C extends Columns> = { -readonly [K in keyof C]: ValueOf<C[K]> } & { deleted: boolean };

type FieldsOf<C extends Columns, Kind extends ColumnSpec['kind']> = { [K in keyof C]: C[K]['kind'] extends Kind ? K : never }[keyof C] & string;
export type NumberFieldOf<C extends Columns> = FieldsOf<C, 'number'>;
export type DictFieldOf<C extends Columns> = FieldsOf<C, 'dict'>;
export type TextFieldOf<C extends Columns> = FieldsOf<C, 'text'>;

/** A filter the list offers: rows whose dictionary column holds any of the values, or whose number lies in a range. */
export type FilterSpec = { kind: 'anyOf'; column: string } | { kind: 'range'; column: string };
export const anyOf = <F extends string>(column: F) => ({ kind: 'anyOf', column }) as const;
export const range = <F extends string>(column: F) => ({ kind: 'range', column }) as const;

/** Inclusive at both ends; an open end is left out. Rows without a value never match a range. */
export type NumberRange = { from?: number; to?: number };

type FilterValue<C extends Columns, S extends FilterSpec> = S extends { kind: 'anyOf'; column: infer F }
  ? F extends keyof C
    ? ValueOf<C[F]>[]
    : never
  : NumberRange;

/**
 * Every filter narrows (AND); a list filter matches any of its values; an empty list filters nothing.
 */
export type FiltersOf<C extends Columns, F extends Record<string, FilterSpec>> = { -readonly [K in keyof F]?: FilterValue<C, F[K]> };

export type ListSchemaInput<C extends Columns, F extends Record<string, FilterSpec>> = {
  /** The list's name: the browser cache's database prefix (`<name>-<userId>`) and error messages. */
  name: string;
  columns: C;
  /** The text column that identifies a row (stable and unique across the user's rows). */
  key: TextFieldOf<C>;
  /** The columns the search box looks in (case-insensitive substring): text or dictionary columns. */
  searchFields: readonly (TextFieldOf<C> | DictFieldOf<C>)[];
  /** The filter bar's filters by name; list filters run before ranges, each in the order given. */
  filters: F;
  /** Dictionary columns whose filter index is built while the list is idle (the filters clicked most), in that order. */
  indexAhead?: readonly DictFieldOf<C>[];
  /**
   * Text columns of mostly distinct values whose sort order is built while the list is idle, once the rows are in
   * (their first sort is otherwise a string sort of every row, seconds at half a million).
   */
  sortAhead?: readonly TextFieldOf<C>[];
  /** The columns a list may sort by. */
  sorts: readonly (keyof C & string)[];
};

export type ListSchema<C extends Columns = Columns, F extends Record<string, FilterSpec> = Record<string, FilterSpec>> = Readonly<
  ListSchemaInput<C, F> & {
    indexAhead: readonly DictFieldOf<C>[];
    sortAhead: readonly TextFieldOf<C>[];
    /** Every column but the tombstone, in the order given. */
    fields: readonly (keyof C & string)[];
    /** The columns of each form, in the order given: the frame's layout. */
    numberFields: readonly NumberFieldOf<C>[];
    dictFields: readonly DictFieldOf<C>[];
    textFields: readonly TextFieldOf<C>[];
  }
>;

/** Any list's schema, as the generic layer sees it (field names as strings). */
export type AnyListSchema = {
  readonly name: string;
  readonly columns: Columns;
  readonly key: string;
  readonly searchFields: readonly string[];
  readonly filters: Readonly<Record<string, FilterSpec>>;
  readonly indexAhead: readonly string[];
  readonly sortAhead: readonly string[];
  readonly sorts: readonly string[];
  readonly fields: readonly string[];
  readonly numberFields: readonly string[];
  readonly dictFields: readonly string[];
  readonly textFields: readonly string[];
};
export type ListRow = Record<string, unknown> & { deleted: boolean };

export class ListSchemaError extends Error {
  constructor(message: string) {
    super(`list schema: ${message}`);
    this.name = 'ListSchemaError';
  }
}

/** Checks a list's description and derives the frame's layout from it. */
export function defineListSchema<C extends Columns, const F extends Record<string, FilterSpec>>(input: ListSchemaInput<C, F>): ListSchema<C, F> {
  const fields = Object.keys(input.columns) as (keyof C & string)[];
  const ofKind = (kind: ColumnSpec['kind']) => fields.filter((field) => input.columns[field]!.kind === kind);
  const kindOf = (field: string) => input.columns[field]?.kind;
  const where = `${input.name}:`;
  if (fields.includes('deleted')) throw new ListSchemaError(`${where} 'deleted' is every list's tombstone, not a column`);
  if (kindOf(input.key) !== 'text') throw new ListSchemaError(`${where} key ${input.key} is not a text column`);
  for (const field of input.searchFields) {
    if (kindOf(field) !== 'text' && kindOf(field) !== 'dict') throw new ListSchemaError(`${where} search field ${field} is not a text or dictionary column`);
  }
  for (const [name, filter] of Object.entries(input.filters)) {
    const wanted = filter.kind === 'anyOf' ? 'dict' : 'number';
    if (kindOf(filter.column) !== wanted) throw new ListSchemaError(`${where} filter ${name} needs a ${wanted} column, ${filter.column} is not one`);
  }
  for (const field of input.indexAhead ?? []) if (kindOf(field) !== 'dict') throw new ListSchemaError(`${where} ${field} is not a dictionary column`);
  for (const field of input.sortAhead ?? []) {
    if (kindOf(field) !== 'text' || !input.sorts.includes(field)) throw new ListSchemaError(`${where} sort ahead ${field} is not a sortable text column`);
  }
  for (const field of input.sorts) if (!kindOf(field)) throw new ListSchemaError(`${where} sort ${field} is not a column`);
  return {
    ...input,
    indexAhead: input.indexAhead ?? [],
    sortAhead: input.sortAhead ?? [],
    fields,
    numberFields: ofKind('number') as NumberFieldOf<C>[],
    dictFields: ofKind('dict') as DictFieldOf<C>[],
    textFields: ofKind('text') as TextFieldOf<C>[],
  };
}

/** The search fields of each form: texts are indexed, dictionary values matched once per distinct value. */
export function searchFieldsOf(schema: AnyListSchema): { texts: string[]; dicts: string[] } {
  return {
    texts: schema.searchFields.filter((field) => schema.columns[field]!.kind === 'text'),
    dicts: schema.searchFields.filter((field) => schema.columns[field]!.kind === 'dict'),
  };
}
