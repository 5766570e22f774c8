import { AsyncLocalStorage } from 'node:async_hooks';
import { ApiError } from '../../http/errors';

/**
 * How far the caller of the running request reaches, for the services that read or act on shops' rows: set once per
 * request by server/http/route.ts, read here, so no service can forget to pass it. Outside a request (background
 * sync, pollers) nothing is narrowed.
 */
export type CallerScope = {
  /** The shops the caller may see (AuthUser.shopScope); null: every shop of the account. */
  shops: readonly number[] | null;
  /** Entered orders, designs and uploads: only those this person created (AuthUser.ownRecords); null: everyone's. */
  ownRecordsOf: number | null;
};

const storage = new AsyncLocalStorage<CallerScope>();

export function withCallerScope<T>(scope: CallerScope, run: () => T): T {
  return storage.run(scope, run);
}

export function currentShopScope(): readonly number[] | null {
  return storage.getStore()?.shops ?? null;
}

/** The person whose own records are all the caller may see of entered orders, designs and uploads; null: everyone's. */
export function ownRecordsOf(): number | null {
  return storage.getStore()?.ownRecordsOf ?? null;
}

/**
 * ` and <creator column> = <person>` when the caller sees only their own records, '' otherwise. `unlessSql` names
 * the rows the rule leaves alone (orders synced from Ozon: only entered ones have a creator).
 */
export function ownRecordsSql(creatorColumn: string, unlessSql?: string): string {
  const person = ownRecordsOf();
  if (person === null || !Number.isSafeInteger(person)) return '';
  const own = `${creatorColumn} = ${person}`;
  return unlessSql ? ` and (${unlessSql} or ${own})` : ` and ${own}`;
}

export function inShopScope(shopId: number): boolean {
  const scope = currentShopScope();
  return scope === null || scope.includes(shopId);
}

/** 401 when the caller may not see this shop (the same answer as for a permission they do not hold). */
export function requireShopInScope(shopId: number): void {
  if (!inShopScope(shopId)) throw new ApiError(401, 'unauthorized');
}

/**
 * ` and <column> = any('{…}')` narrowing a query to the caller's shops, or '' for every shop. The ids are integers
 * written in as literals, so the fragment fits any query (parameterised or not) without renumbering.
 */
export function shopScopeSql(column: string): string {
  return scopeSqlOf(currentShopScope(), column);
}

export function scopeSqlOf(scope: readonly number[] | null, column: string): string {
  if (scope === null) return '';
  const ids = scope.filter((id) => Number.isSafeInteger(id));
  return ids.length === 0 ? ' and false' : ` and ${column} = any('{${ids.join(',')}}'::int[])`;
}

/** A key naming the caller's scope, for caches shared by an account's people (the list sync's read-ahead). */
export function shopScopeKey(): string {
  const scope = currentShopScope();
  const own = ownRecordsOf();
  return `${scope === null ? '*' : scope.join(',')}${own === null ? '' : `/${own}`}`;
}
