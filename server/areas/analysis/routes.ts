import type { FastifyInstance } from 'fastify';
import { ANALYSIS_ENDPOINTS } from '../../../contract/analysis';
import { route } from '../../http/route';
import { createAnalysisService } from './service';

/** Sales analysis (`/ozonSellerAnalyze`): a period of the seller's shops from the daily rollups. */
export async function analysisRoutes(app: FastifyInstance) {
  const service = createAnalysisService({
    database: app.database,
    secretKey: app.config.secretKey,
    clientFor: (connection) => app.marketplace.clientFor(connection),
    log: app.log,
  });
  route(app, ANALYSIS_ENDPOINTS.sellerAnalyze, async ({ user, input, lang }) => service.analyze(user.id, input, lang));
}
