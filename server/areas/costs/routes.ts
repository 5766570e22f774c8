import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { COST_ENDPOINTS, COST_IMPORT_MAX_BYTES, COST_MESSAGES } from '../../../contract/costs';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { readCostFile } from './parse';
import { createCostService } from './service';

/** Cost prices (contract/costs.ts): list, set, import from CSV or XLSX with a reason per refused line. */
export async function costsRoutes(app: FastifyInstance) {
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: COST_IMPORT_MAX_BYTES, files: 1, fields: 2, parts: 3 } });
  const service = createCostService(app.database);
  const E = COST_ENDPOINTS;

  route(app, E.list, async ({ user, input }) => service.list(user.accountId, input));

  route(app, E.set, async ({ user, input }) => service.set(user.accountId, input.items));

  route(app, E.import, async ({ user, request, lang }) => {
    const part = request.isMultipart() ? await request.file() : undefined;
    if (!part) throw new ApiError(400, COST_MESSAGES.fileMissing, 'file');
    const bytes = await part.toBuffer().catch(() => null);
    if (!bytes || part.file.truncated) throw new ApiError(400, COST_MESSAGES.fileTooLarge, 'file');
    if (bytes.length === 0) throw new ApiError(400, COST_MESSAGES.fileMissing, 'file');
    return service.importLines(user.accountId, await readCostFile(part.filename, bytes), lang);
  });
}
