import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { IssuedToken, PluginToken } from '../../../contract/plugin';
import { PLUGIN_TOKEN_MAX, PLUGIN_TOKEN_PREFIX, PLUGIN_TOKEN_TTL_DAYS } from '../../../contract/pluginProtocol';
import type { Db } from '../../db/database';
import { pluginTokens, users, type PluginTokenRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { hashToken } from '../session/passwords';
import { toAuthUser, type AuthUser } from '../session/service';

export type PluginDeps = { db: Db; now: () => Date };

/** lastUsedAt is a hint for the user ("used an hour ago"), not an audit log: written at most once a minute. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** How many characters of a token the list shows (the prefix and a few random ones). */
const HINT_LENGTH = PLUGIN_TOKEN_PREFIX.length + 6;

type TokenOwner = Pick<AuthUser, 'id' | 'row'>;

/** Tokens that still work: not revoked, not past their time, issued under the owner's current password. */
const live = (user: TokenOwner, now: Date) =>
  and(eq(pluginTokens.userId, user.id), isNull(pluginTokens.revokedAt), gt(pluginTokens.expiresAt, now), eq(pluginTokens.passwordStamp, user.row.passwordStamp));

function tokenOf(row: PluginTokenRow): PluginToken {
  return {
    id: row.id,
    label: row.label,
    hint: row.hint,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
  };
}

export async function listTokens(deps: PluginDeps, user: TokenOwner): Promise<PluginToken[]> {
  const rows = await deps.db.select().from(pluginTokens).where(live(user, deps.now())).orderBy(desc(pluginTokens.id));
  return rows.map(tokenOf);
}

export async function issueToken(deps: PluginDeps, user: TokenOwner, label: string): Promise<IssuedToken> {
  const now = deps.now();
  const [held] = await deps.db.select({ n: count() }).from(pluginTokens).where(live(user, now));
  if ((held?.n ?? 0) >= PLUGIN_TOKEN_MAX) throw new ApiError(400, { key: 'pluginTokenLimit', params: { max: String(PLUGIN_TOKEN_MAX) } });
  const token = `${PLUGIN_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const [row] = await deps.db
    .insert(pluginTokens)
    .values({
      userId: user.id,
      tokenHash: hashToken(token),
      label,
      hint: token.slice(0, HINT_LENGTH),
      passwordStamp: user.row.passwordStamp,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PLUGIN_TOKEN_TTL_DAYS * 86_400_000),
    })
    .returning();
  return { token, info: tokenOf(row!) };
}

export async function revokeToken(deps: PluginDeps, userId: number, id: number): Promise<number> {
  const rows = await deps.db
    .update(pluginTokens)
    .set({ revokedAt: deps.now() })
    .where(and(eq(pluginTokens.id, id), eq(pluginTokens.userId, userId), isNull(pluginTokens.revokedAt)))
    .returning({ id: pluginTokens.id });
  if (rows.length === 0) throw new ApiError(404, 'pluginTokenNotFound', 'id');
  return rows.length;
}

/**
 * The user a plugin token belongs to, with the same roles and validity checks as a session's user (the caller
 * checks the endpoint's area). 401 for a token that is unknown, revoked, past its time or older than the user's
 * password: the plugin cannot refresh it, the user connects again.
 */
export async function authenticatePluginToken(deps: PluginDeps, token: string): Promise<AuthUser> {
  const now = deps.now();
  if (!token.startsWith(PLUGIN_TOKEN_PREFIX)) throw new ApiError(401, 'pluginTokenInvalid');
  const [found] = await deps.db
    .select({ token: pluginTokens, user: users })
    .from(pluginTokens)
    .innerJoin(users, eq(users.id, pluginTokens.userId))
    .where(and(eq(pluginTokens.tokenHash, hashToken(token)), isNull(pluginTokens.revokedAt)))
    .limit(1);
  if (!found || found.token.expiresAt.getTime() <= now.getTime() || found.token.passwordStamp !== found.user.passwordStamp) throw new ApiError(401, 'pluginTokenInvalid');
  const lastUsed = found.token.lastUsedAt?.getTime() ?? 0;
  if (now.getTime() - lastUsed > LAST_USED_RESOLUTION_MS) {
    await deps.db.update(pluginTokens).set({ lastUsedAt: now }).where(eq(pluginTokens.id, found.token.id));
  }
  // No session stands behind a plugin token: session id 0 matches no push socket and no session row.
  return toAuthUser(deps, found.user, 0, now);
}
