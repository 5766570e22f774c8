import type { FastifyInstance } from 'fastify';
import { AREA_ROLES, isPermitted } from '../../../contract/access';
import { CHAT_UPLOAD_MESSAGES, parseUploadConversation } from '../../../contract/chatUpload';
import { pictureSiteOf } from '../../../contract/collectSources';
import { EXTERNAL_IMAGE_ENDPOINTS } from '../../../contract/externalImage';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { fetchExternalImage, type ExternalImagePolicy } from '../../integrations/images/externalImage';
import { mayUseConversation } from '../chat/upload';

export type ImageRoutesOptions = {
  /** Replaces the policy built from the configuration (tests: their own resolver). */
  policy?: ExternalImagePolicy;
};

const fail = (code: number, key: keyof typeof CHAT_UPLOAD_MESSAGES, field: string) => new ApiError(code, CHAT_UPLOAD_MESSAGES[key], field);

/** The one image proxy (contract/externalImage.ts): who may ask for which picture is decided here, before any fetch. */
export async function imageRoutes(app: FastifyInstance, options: ImageRoutesOptions = {}) {
  const policy: ExternalImagePolicy = options.policy ?? {
    allowedHosts: app.config.chatImageAllowedHosts,
    simulated: (url) => app.integrations.sources.picture(url),
  };

  route(app, EXTERNAL_IMAGE_ENDPOINTS.externalImage, async ({ user, input, reply }) => {
    if (input.conversation !== undefined) {
      // A picture in a chat message: for whoever can see the conversation.
      const conversation = parseUploadConversation(input.conversation);
      if (!isPermitted(AREA_ROLES.chat, user.rolePermissions)) throw new ApiError(401, 'unauthorized', null);
      if (!conversation) throw fail(400, 'badConversation', 'conversation');
      if (!(await mayUseConversation(app.database, user, conversation))) throw fail(401, 'notInConversation', 'conversation');
    } else {
      // A product picture of a source site: for the listing roles, and only on those sites' hosts.
      if (!isPermitted(AREA_ROLES.collection, user.rolePermissions)) throw new ApiError(401, 'unauthorized', null);
      if (!pictureSiteOf(input.url.startsWith('//') ? `https:${input.url}` : input.url)) throw fail(400, 'externalHostNotAllowed', 'url');
    }
    const image = await fetchExternalImage(policy, input.url);
    return reply
      .header('Content-Type', image.contentType)
      .header('Content-Disposition', 'inline')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'")
      .header('Cache-Control', 'private, max-age=86400')
      .send(image.bytes);
  });
}
