import multipart from '@fastify/multipart';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import {
  CHAT_UPLOAD_ENDPOINTS,
  CHAT_UPLOAD_MESSAGES,
  CHAT_UPLOAD_PATHS,
  isAllowedUpload,
  parseUploadConversation,
  STORED_NAME_PATTERN,
  UPLOAD_MAX_BYTES,
  uploadContentType,
  uploadExtensionOf,
  type UploadConversation,
  type UploadData,
  type UploadKind,
} from '../../../contract/chatUpload';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import type { BuyerChatService } from './service';

/**
 * Chat attachments: POST /api/chat/upload stores one file under DATA_DIR/uploads with a random name and a sidecar
 * `<name>.json` (uploader, original name, conversation); GET /api/chat/file/<name> serves it back to whoever can see
 * that conversation; POST /api/chat/sendFile passes a stored file on to a buyer chat. Metadata sits beside the file
 * rather than in a table so an upload directory can be copied or cleaned as one piece.
 */
export type StoredUpload = {
  uploaderId: number;
  name: string;
  kind: UploadKind;
  size: number;
  contentType: string;
  conversation: UploadConversation;
  createdAt: number;
};

type Deps = { database: Database; dir: string; buyerChat: BuyerChatService; now: () => Date };

const fail = (code: number, key: keyof typeof CHAT_UPLOAD_MESSAGES, field: string | null = null) => new ApiError(code, CHAT_UPLOAD_MESSAGES[key], field);

/** Keeps what a user would recognise of the original name, without path parts or control characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(-120);
  return cleaned || 'file';
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name, so Chinese file names download as they were sent. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Whether `userId` may see (or, with `uploaderId`, read a file sent to) a conversation: one of its two friends, a
 * member of its group, the owner of the buyer chat's shop (or a member of the owner's organisation).
 */
export async function mayUseConversation(database: Database, who: { id: number; accountId: number }, conversation: UploadConversation, uploaderId?: number): Promise<boolean> {
  const q = database.query.bind(database);
  const userId = who.id;
  if (uploaderId === userId) return true;
  switch (conversation.kind) {
    case 'friend':
      // Sending needs the friendship; reading needs to be one of the two people.
      if (uploaderId !== undefined) return conversation.id === userId;
      return (await q(`select 1 from chat_friendships where user_id = $1 and friend_id = $2`, [userId, conversation.id])).length > 0;
    case 'group':
      return (await q(`select 1 from chat_group_members where group_id = $1 and user_id = $2`, [conversation.id, userId])).length > 0;
    case 'buyer':
      // A buyer chat belongs to the account's shop; a member sees only the shops of their scope.
      return (await q(`select 1 from mp_shops where id = $1 and user_id = $2`, [conversation.storeId, who.accountId])).length > 0;
  }
}

/** The first bytes of each picture format the chat takes (an image's name is believed only with its content). */
const PICTURE_SIGNATURES: Record<string, readonly (readonly number[])[]> = {
  jpg: [[0xff, 0xd8, 0xff]],
  jpeg: [[0xff, 0xd8, 0xff]],
  png: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  gif: [[0x47, 0x49, 0x46, 0x38, 0x37, 0x61], [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]],
  bmp: [[0x42, 0x4d]],
};

/**
 * Whether the file at `path` is what its extension says, for the picture formats (served as images, shown in the
 * message): HTML named .png is refused, as the product and watermark uploads refuse what is not a picture. Other
 * files are downloads under their name and are not looked into.
 */
async function holdsWhatItsNameSays(path: string, extension: string): Promise<boolean> {
  const signatures = PICTURE_SIGNATURES[extension];
  if (!signatures) return true;
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return signatures.some((signature) => bytesRead >= signature.length && signature.every((byte, i) => head[i] === byte));
  } finally {
    await file.close();
  }
}

export async function chatUploadRoutes(app: FastifyInstance, deps: Deps) {
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 400, parts: 6 } });
  const E = CHAT_UPLOAD_ENDPOINTS;
  const filePath = (id: string) => join(deps.dir, id);

  const mayUse = (who: { id: number; accountId: number }, conversation: UploadConversation, uploaderId?: number) => mayUseConversation(deps.database, who, conversation, uploaderId);

  async function readMeta(id: string): Promise<StoredUpload | null> {
    try {
      return JSON.parse(await readFile(`${filePath(id)}.json`, 'utf8')) as StoredUpload;
    } catch {
      return null;
    }
  }

  route(app, E.upload, async ({ user, request }) => {
    if (!request.isMultipart()) throw fail(400, 'noFile', 'file');
    const part = await request.file();
    if (!part) throw fail(400, 'noFile', 'file');
    const field = (key: string) => {
      const value = part.fields[key];
      const one = Array.isArray(value) ? value[0] : value;
      return one && one.type === 'field' ? String(one.value) : '';
    };
    const kind: UploadKind = field('kind') === 'image' ? 'image' : 'file';
    const conversation = parseUploadConversation(field('conversation'));
    const name = cleanFileName(part.filename);
    const drain = () => part.file.resume();
    if (!conversation) {
      drain();
      throw fail(400, 'badConversation', 'conversation');
    }
    if (!isAllowedUpload(kind, name)) {
      drain();
      throw fail(400, kind === 'image' ? 'badImage' : 'badFile', 'file');
    }
    if (!(await mayUse(user, conversation))) {
      drain();
      throw fail(401, 'notInConversation', 'conversation');
    }
    await mkdir(deps.dir, { recursive: true });
    const id = `${randomBytes(16).toString('hex')}.${uploadExtensionOf(name)}`;
    const partial = `${filePath(id)}.part`;
    try {
      await pipeline(part.file, createWriteStream(partial, { flags: 'wx' }));
    } catch (error) {
      await rm(partial, { force: true });
      request.log.error({ err: error }, 'chat upload failed');
      throw fail(500, 'uploadFailed');
    }
    if (part.file.truncated) {
      await rm(partial, { force: true });
      throw fail(400, 'tooLarge', 'file');
    }
    const { size } = await stat(partial);
    if (size === 0) {
      await rm(partial, { force: true });
      throw fail(400, 'noFile', 'file');
    }
    if (!(await holdsWhatItsNameSays(partial, uploadExtensionOf(name)))) {
      await rm(partial, { force: true });
      throw fail(400, kind === 'image' ? 'badImage' : 'badFile', 'file');
    }
    const meta: StoredUpload = { uploaderId: user.id, name, kind, size, contentType: uploadContentType(name), conversation, createdAt: deps.now().getTime() };
    await writeFile(`${filePath(id)}.json`, JSON.stringify(meta));
    await rename(partial, filePath(id));
    const data: UploadData = { id, url: `${CHAT_UPLOAD_PATHS.file}/${id}`, name, size, contentType: meta.contentType, kind };
    return data;
  });

  route(app, E.file, async ({ user, params, reply }) => {
    const { id } = params;
    const meta = STORED_NAME_PATTERN.test(id) ? await readMeta(id) : null;
    if (!meta) throw fail(404, 'fileNotFound', 'id');
    if (!(await mayUse(user, meta.conversation, meta.uploaderId))) throw fail(401, 'notInConversation', 'id');
    let bytes: Buffer;
    try {
      bytes = await readFile(filePath(id));
    } catch {
      throw fail(404, 'fileNotFound', 'id');
    }
    // Images show in the message; anything else downloads under its original name. nosniff keeps an uploaded
    // "image" from being run as HTML or script.
    const inline = meta.kind === 'image' && meta.contentType.startsWith('image/');
    return reply
      .header('Content-Type', meta.contentType)
      .header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', meta.name))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=86400')
      .send(bytes);
  });

  route(app, E.sendFile, async ({ user, input }) => {
    const { storeId, chatId, fileId, clientKey } = input;
    const meta = await readMeta(fileId);
    if (!meta) throw fail(404, 'fileNotFound', 'fileId');
    if (meta.uploaderId !== user.id) throw fail(401, 'notInConversation', 'fileId');
    let content: Buffer;
    try {
      content = await readFile(filePath(fileId));
    } catch {
      throw fail(404, 'fileNotFound', 'fileId');
    }
    return deps.buyerChat.sendFile(user.accountId, { storeId, chatId, name: meta.name, content, clientKey });
  });
}
