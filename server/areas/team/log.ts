import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { lt } from 'drizzle-orm';
import { operationLog } from '../../db/schema';
import { shopIdsOfInput } from '../../http/route';
import { everySixHours, retentionDays } from './retention';

/** What a service can say about its write for the operation log: the record and the fields before and after. */
export type OperationChange = { record?: string; before?: unknown; after?: unknown };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a handler whose write the operation log should show in detail. */
    operationChange: OperationChange | null;
  }
}

/** How long entries are kept unless the setting says otherwise (mp_settings `operationLog.retentionDays`). */
export const LOG_RETENTION_DAYS = 180;
export const LOG_RETENTION_SETTING = 'operationLog.retentionDays';

/** Ids and names of what a write names, for the log's record column (long lists are cut). */
function recordOf(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const record = input as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of ['id', 'ids', 'name', 'username', 'postingNumber', 'offerId']) {
    const value = record[key];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.slice(0, 20).join(',') + (value.length > 20 ? `,…(${value.length})` : '') : String(value);
    parts.push(`${key}=${text}`);
  }
  return parts.join(' ').slice(0, 500);
}

/**
 * The operation log: every successful write (any call but a GET or a POST that only reads) of a signed-in caller is kept under the account
 * it was made for, with who, when, from which address, the module (the endpoint's area), the action (its
 * permission's action), what it named and, where the handler gave them, the fields before and after. A background
 * purge keeps LOG_RETENTION_DAYS (or the setting); a failed purge is logged and the next one runs as usual.
 */
export const operationLogPlugin = fp(async function operationLogPlugin(app: FastifyInstance) {
  app.decorateRequest('operationChange', null);
  // Written before the answer leaves (onSend, not onResponse): a caller who reads the log right after its write
  // finds it there, and nothing lands after the answer.
  app.addHook('onSend', async (request, reply, payload) => {
    const endpoint = request.routeOptions.config.endpoint;
    const user = request.user;
    // Writes only: a POST that reads (a filtered list, a preview) declares `view`.
    if (!endpoint || !user || endpoint.method === 'GET' || endpoint.action === 'view' || reply.statusCode >= 400 || endpoint.access === 'public') return payload;
    const change = request.operationChange;
    const input = request.body;
    try {
      await app.db.insert(operationLog).values({
        orgId: user.accountId,
        actorId: user.id,
        actorName: user.name,
        at: app.now(),
        ip: request.ip,
        module: endpoint.access,
        action: endpoint.action ?? 'edit',
        record: `${endpoint.method} ${endpoint.path}${change?.record ? ` ${change.record}` : ` ${recordOf(input)}`}`.trim(),
        shopIds: [...new Set(shopIdsOfInput(input))],
        status: reply.statusCode,
        before: change?.before ?? null,
        after: change?.after ?? null,
      });
    } catch (error) {
      request.log.error({ err: error }, 'operation log write failed');
    }
    return payload;
  });

  app.decorate('purgeOperationLog', everySixHours(app, 'operation log', async () => {
    const days = await retentionDays(app, LOG_RETENTION_SETTING, LOG_RETENTION_DAYS);
    await app.db.delete(operationLog).where(lt(operationLog.at, new Date(app.now().getTime() - days * 86_400_000)));
  }));
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Deletes the operation log's entries older than the retention (the background purge runs it every 6 hours). */
    purgeOperationLog(): Promise<void>;
  }
}
