import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { PUSH_TICKET_TTL_S, type PushTicketData } from '../../../contract/push';
import { pushTickets, sessions } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ServiceDeps } from './deps';
import { hashToken, newToken } from './passwords';
import { sessionUser, type AuthUser } from './service';

/** A ticket for the caller's session to open the push socket once, within PUSH_TICKET_TTL_S. */
export async function issuePushTicket(deps: ServiceDeps, user: AuthUser): Promise<PushTicketData> {
  const now = deps.now();
  const ticket = newToken();
  // Tickets nobody used are gone at the next issue: the table holds only the last half minute's.
  await deps.db.delete(pushTickets).where(lt(pushTickets.expiresAt, now));
  await deps.db.insert(pushTickets).values({ ticketHash: hashToken(ticket), sessionId: user.sessionId, expiresAt: new Date(now.getTime() + PUSH_TICKET_TTL_S * 1000) });
  return { ticket, expiresInS: PUSH_TICKET_TTL_S };
}

/**
 * The caller behind a push ticket, which is used up by this (a second use, an expired or unknown ticket, or one of
 * an ended session answer 402: the page asks for a new ticket, refreshing its token first when that is what failed).
 */
export async function consumePushTicket(deps: ServiceDeps, ticket: string | undefined): Promise<AuthUser> {
  if (!ticket) throw new ApiError(402, 'tokenExpired');
  const now = deps.now();
  const [used] = await deps.db
    .delete(pushTickets)
    .where(and(eq(pushTickets.ticketHash, hashToken(ticket)), gt(pushTickets.expiresAt, now)))
    .returning({ sessionId: pushTickets.sessionId });
  if (!used) throw new ApiError(402, 'tokenExpired');
  const [session] = await deps.db.select().from(sessions).where(and(eq(sessions.id, used.sessionId), isNull(sessions.endedAt))).limit(1);
  if (!session) throw new ApiError(402, 'tokenExpired');
  return sessionUser(deps, session);
}
