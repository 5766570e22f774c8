import { AsyncLocalStorage } from 'node:async_hooks';
import { ApiError } from '../../http/errors';

/**
 * The shops the caller of the running request may see (AuthUser.shopScope), for the services that read or act on
 * shops' rows: set once per request by server/http/route.ts, read here, so no service can forget to pass it. Outside
 * a request (background sync, pollers) nothing is narrowed. null: every shop of the account.
 */
const storage = new AsyncLocalStorage<readonly number[] | null>();

export function withShopScope<T>(scope: readonly number[] | null, run: () => T): T {
  return storage.run(scope, run);
}

export function currentShopScope(): readonly number[] | null {
  return storage.getStore() ?? null;
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
  return scope === null ? '*' : scope.join(',');
}
