import type { FastifyInstance } from 'fastify';
import { FLOWS_ENDPOINTS } from '../../../contract/flows';
import { route } from '../../http/route';

/** The flows page's one call: whether FLOWS_PAGE lets administrators record and watch the app's machines here. */
export async function flowsRoutes(app: FastifyInstance) {
  route(app, FLOWS_ENDPOINTS.settings, async () => ({ enabled: app.config.flowsPage }));
}
