import type { FastifyInstance } from 'fastify';
import { ANALYSIS_ENDPOINTS, ANALYSIS_MESSAGES } from '../../../contract/analysis';
import { route } from '../../http/route';
import { skuCsv, skuSheet, skuXlsx } from './export';
import { createAnalysisService } from './service';

/** Sales analysis (`/ozonSellerAnalyze`): a period of the seller's shops from the daily rollups. */
export async function analysisRoutes(app: FastifyInstance) {
  const service = createAnalysisService({
    database: app.database,
    secretKey: app.config.secretKey,
    clientFor: (connection) => app.marketplace.clientFor(connection),
    log: app.log,
  });
  route(app, ANALYSIS_ENDPOINTS.sellerAnalyze, async ({ user, input, lang }) => service.analyze(user.accountId, input, lang));
  route(app, ANALYSIS_ENDPOINTS.sellerAnalyzeSkus, async ({ user, input }) => service.skuPage(user.accountId, input));
  route(app, ANALYSIS_ENDPOINTS.sellerAnalyzeExport, async ({ user, input, lang, reply }) => {
    const { skus, currency, shopName } = await service.exportSkus(user.accountId, input);
    const sheet = skuSheet(skus, shopName, currency, lang);
    const name = `sales-${input.from}-${input.to}.${input.format}`;
    reply.header('content-disposition', `attachment; filename="${name}"`);
    if (input.format === 'csv') return reply.type('text/csv; charset=utf-8').send(skuCsv(sheet));
    const bytes = skuXlsx(ANALYSIS_MESSAGES.exportSheet[lang], sheet);
    return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}
