import { and, count, countDistinct, eq, gt, lt, max } from 'drizzle-orm';
import { loginFailures, sessions } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ServiceDeps } from './deps';

/** Failures of one account from one address before that pair must wait for the window to pass. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** Failures of one account from all addresses together before tries from new addresses are slowed. */
export const ACCOUNT_FAILURE_LIMIT = 10;
/** The longest an account's tries from new addresses wait after its latest failure. */
export const ACCOUNT_BACKOFF_MAX_MS = 60_000;
/**
 * Failures from one address, over every account together, before that address must wait for the window to pass: one
 * address trying 5 guesses at each of many accounts is stopped too. Well above what an office behind one address
 * mistypes in 15 minutes.
 */
export const ADDRESS_FAILURE_LIMIT = 20;
/**
 * Distinct accounts failed from one address before its tries are slowed: past 5, each try waits 2^(accounts - 5) s
 * after the address's latest failure, at most a minute. One address trying 8 accounts with one guess each is held
 * to a try every few seconds long before the 20 failures above; an office mistyping 5 different names goes on.
 */
export const ADDRESS_ACCOUNTS_LIMIT = 5;

/**
 * The login failure limits, counted within the last 15 minutes (a wrong password at the login, and at the password
 * check of a signed-in user, /user/checkPsw):
 * - per account and address: 5 failures, then that address waits for the window to pass;
 * - per address, over every account: 20 failures, then that address waits for the window to pass;
 * - per address, across accounts: past 5 distinct accounts failed, that address's tries are slowed (above);
 * - per account, from every address together: past 10 failures, a try from an address this account never logged
 *   in from must wait 2^(failures - 10) s after the account's latest failure, at most a minute. Guessing from many
 *   addresses is then held to about one try a minute, while a stranger can never lock the owner out: the
 *   addresses the owner has logged in from are not slowed, and elsewhere the wait is a minute at most.
 */
export async function checkLoginLimit(deps: ServiceDeps, username: string, ip: string, userId: number | null): Promise<void> {
  const now = deps.now().getTime();
  const since = new Date(now - LOGIN_FAILURE_WINDOW_MS);
  const [pair] = await deps.db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.username, username), eq(loginFailures.ip, ip), gt(loginFailures.at, since)));
  if ((pair?.n ?? 0) >= LOGIN_FAILURE_LIMIT) throw new ApiError(429, 'tooManyRequests');
  const [address] = await deps.db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, ip), gt(loginFailures.at, since)));
  if ((address?.n ?? 0) >= ADDRESS_FAILURE_LIMIT) throw new ApiError(429, 'tooManyRequests');
  const [spread] = await deps.db
    .select({ accounts: countDistinct(loginFailures.username), latest: max(loginFailures.at) })
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, ip), gt(loginFailures.at, since)));
  const accounts = spread?.accounts ?? 0;
  if (accounts >= ADDRESS_ACCOUNTS_LIMIT && spread?.latest) {
    const wait = Math.min(2 ** (accounts - ADDRESS_ACCOUNTS_LIMIT) * 1000, ACCOUNT_BACKOFF_MAX_MS);
    if (now - new Date(spread.latest).getTime() < wait) throw new ApiError(429, 'tooManyRequests');
  }

  const [account] = await deps.db
    .select({ n: count(), latest: max(loginFailures.at) })
    .from(loginFailures)
    .where(and(eq(loginFailures.username, username), gt(loginFailures.at, since)));
  const failures = account?.n ?? 0;
  if (failures < ACCOUNT_FAILURE_LIMIT || !account?.latest) return;
  if (userId !== null && (await hasLoggedInFrom(deps, userId, ip))) return;
  const wait = Math.min(2 ** (failures - ACCOUNT_FAILURE_LIMIT) * 1000, ACCOUNT_BACKOFF_MAX_MS);
  if (now - new Date(account.latest).getTime() < wait) throw new ApiError(429, 'tooManyRequests');
}

async function hasLoggedInFrom(deps: ServiceDeps, userId: number, ip: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.ip, ip)))
    .limit(1);
  return Boolean(row);
}

export async function recordLoginFailure(deps: ServiceDeps, username: string, ip: string): Promise<void> {
  const now = deps.now();
  await deps.db.delete(loginFailures).where(lt(loginFailures.at, new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS)));
  await deps.db.insert(loginFailures).values({ username, ip, at: now });
}

export async function clearLoginFailures(deps: ServiceDeps, username: string, ip: string): Promise<void> {
  await deps.db.delete(loginFailures).where(and(eq(loginFailures.username, username), eq(loginFailures.ip, ip)));
}
