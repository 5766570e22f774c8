import type { FastifyInstance } from 'fastify';
import { TRANSLATE_ENDPOINTS } from '../../../contract/translate';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { TranslateUnavailable } from '../../integrations/translate/yandex';
import { translateTexts } from './service';

/**
 * Russian ↔ Chinese translation for the chat, product and keyword pages: one handler behind three endpoint objects,
 * each under its page's permission. Without a configured provider, or when it fails, a 502 says so; the page keeps
 * showing the original, and what was translated before the failure is kept.
 */
export async function translateRoutes(app: FastifyInstance) {
  const client = app.integrations.translate.client;
  for (const endpoint of Object.values(TRANSLATE_ENDPOINTS)) {
    route(app, endpoint, async ({ input }) => {
      if (!client) throw new ApiError(502, 'translateNotConfigured');
      try {
        return await translateTexts({ database: app.database, client }, input.texts, input.to);
      } catch (error) {
        if (!(error instanceof TranslateUnavailable)) throw error;
        app.log.warn({ err: error.message, reason: error.reason }, 'translate: the provider gave no translation');
        throw new ApiError(502, { key: 'translateUnavailable', params: { reason: error.message } });
      }
    });
  }
}
