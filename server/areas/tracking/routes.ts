import type { FastifyInstance } from 'fastify';
import { TRACK_ENDPOINTS as E } from '../../../contract/tracking';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { deletePrefix, prefixesAnswer, savePrefix, trackNumbers, type TrackingDeps } from './service';

/** Parcel tracking, open to every signed-in user; the prefix table is extended by administrators. */
export async function trackingRoutes(app: FastifyInstance) {
  const deps: TrackingDeps = { database: app.database, carriers: app.integrations.tracking, now: () => app.now() };

  // Carriers answer in Chinese or English only: a Portuguese reader gets the English timeline.
  route(app, E.search, async ({ user, lang, input }) => ({ results: await trackNumbers(deps, user.accountId, input.numbers, lang === 'zh' ? 'zh' : 'en') }));
  route(app, E.prefixes, async () => prefixesAnswer(deps));
  route(app, E.savePrefix, async ({ user, input }) => {
    await savePrefix(deps.database, input.prefix, input.carrier, user.id);
    return prefixesAnswer(deps);
  });
  route(app, E.deletePrefix, async ({ input }) => {
    if (!(await deletePrefix(deps.database, input.prefix))) throw new ApiError(400, 'trackPrefixBuiltIn', 'prefix');
    return prefixesAnswer(deps);
  });
}
