import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PLUGIN_ENDPOINTS } from '../../../contract/plugin';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { pluginZip } from './package';
import { issueToken, listTokens, revokeToken, type PluginDeps } from './service';

export type PluginRoutesOptions = {
  /** Where the built plugin lies (default: dist/plugin, where `npm run build` puts it). */
  dir?: string;
};

/** The browser plugin: its download, made for this origin, and the tokens it signs in with (contract/plugin.ts). */
export async function pluginRoutes(app: FastifyInstance, options: PluginRoutesOptions = {}) {
  const dir = options.dir ?? resolve('dist', 'plugin');
  const deps: PluginDeps = { db: app.db, now: () => app.now() };
  const originOf = (request: { protocol: string; host: string }) => `${request.protocol}://${request.host}`;
  const E = PLUGIN_ENDPOINTS;
  route(app, E.info, async ({ user, request }) => {
    const zip = await pluginZip(dir, originOf(request));
    return { version: zip?.version ?? null, size: zip?.bytes.byteLength ?? null, tokens: await listTokens(deps, user) };
  });
  route(app, E.download, async ({ request, reply }) => {
    const zip = await pluginZip(dir, originOf(request));
    if (!zip) throw new ApiError(404, 'pluginNotBuilt');
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="seller-plugin-${zip.version}.zip"`)
      .send(Buffer.from(zip.bytes.buffer, zip.bytes.byteOffset, zip.bytes.byteLength));
  });
  route(app, E.issueToken, async ({ user, input }) => issueToken(deps, user, input.label));
  route(app, E.revokeToken, async ({ user, input }) => ({ count: await revokeToken(deps, user.id, input.id) }));
  route(app, E.me, async ({ user }) => ({ id: user.id, name: user.name }));
}
