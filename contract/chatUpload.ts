import { z } from 'zod';
import { API_BASE, defineEndpoint, routePath } from './endpoint';
import { looseRowId, rowId } from './fields';
import { lazySchema } from './lazySchema';
import { buyerMessageSchema } from './chat';
import type { Localized } from './errors';

/**
 * Chat attachments (issue 6): the widget's image and file pickers upload here, and the message carries the token
 * `img[/api/chat/file/<name>]` or `file(/api/chat/file/<name>)[<original name>]`. Files are stored under
 * DATA_DIR/uploads with random names; reading one back needs a session that can see the conversation it was sent
 * to, so the page fetches it through the worker (an <img> cannot send the X-Token header).
 */

/** 10 MB: enough for photos and documents; Ozon's send-file takes the file inline as base64. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

const IMAGE = ['jpg', 'png', 'gif', 'bmp', 'jpeg'] as const;
const VIDEO = ['avi', 'mp4', 'wma', 'rmvb', 'rm', 'flash', '3gp', 'flv'] as const;
const AUDIO = ['mp3', 'wav', 'mid'] as const;
const DOCUMENTS = ['pdf', 'txt', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'zip', 'rar', '7z'] as const;

/**
 * What each picker accepts (the widget's spec §5 lists for images, video and audio, plus office documents and
 * archives for files). The page hands these to the widget so the picker and the server agree.
 */
export const UPLOAD_EXTENSIONS = {
  image: [...IMAGE],
  file: [...IMAGE, ...VIDEO, ...AUDIO, ...DOCUMENTS],
} as const satisfies Record<UploadKind, readonly string[]>;

export type UploadKind = 'image' | 'file';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  avi: 'video/x-msvideo',
  mp4: 'video/mp4',
  wma: 'audio/x-ms-wma',
  rmvb: 'application/vnd.rn-realmedia-vbr',
  rm: 'application/vnd.rn-realmedia',
  flash: 'application/x-shockwave-flash',
  '3gp': 'video/3gpp',
  flv: 'video/x-flv',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mid: 'audio/midi',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
};

export function uploadExtensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
}

export function isAllowedUpload(kind: UploadKind, name: string): boolean {
  return (UPLOAD_EXTENSIONS[kind] as readonly string[]).includes(uploadExtensionOf(name));
}

export function uploadContentType(name: string): string {
  return CONTENT_TYPES[uploadExtensionOf(name)] ?? 'application/octet-stream';
}

/**
 * The conversation a file is sent to, as the page names it: `friend:<userId>`, `group:<groupId>` or
 * `buyer:<storeId>:<chatId>`. Who may read the file back follows from it.
 */
export const uploadConversationSchema = lazySchema(() => z.union([
  z.object({ kind: z.literal('friend'), id: rowId() }),
  z.object({ kind: z.literal('group'), id: rowId() }),
  z.object({ kind: z.literal('buyer'), storeId: rowId(), chatId: z.string().min(1).max(200) }),
]));
export type UploadConversation = z.infer<typeof uploadConversationSchema>;

export function parseUploadConversation(text: string): UploadConversation | null {
  const friendOrGroup = /^(friend|group):(\d+)$/.exec(text);
  if (friendOrGroup) return { kind: friendOrGroup[1] as 'friend' | 'group', id: Number(friendOrGroup[2]) };
  const buyer = /^buyer:(\d+):(.{1,200})$/.exec(text);
  if (buyer) return { kind: 'buyer', storeId: Number(buyer[1]), chatId: buyer[2]! };
  return null;
}

export function formatUploadConversation(c: UploadConversation): string {
  return c.kind === 'buyer' ? `buyer:${c.storeId}:${c.chatId}` : `${c.kind}:${c.id}`;
}

// POST /api/chat/upload (multipart: fields `kind` and `conversation` BEFORE the part `file`)
export const uploadDataSchema = lazySchema(() => z.object({
  /** The stored name: random, with the original extension. */
  id: z.string(),
  /** Where the file is read back: `${CHAT_UPLOAD_PATHS.file}/<id>`. */
  url: z.string(),
  name: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  kind: z.enum(['image', 'file']),
}));
export type UploadData = z.infer<typeof uploadDataSchema>;

/** Stored names are 32 hex characters and an allowed extension: nothing else reaches the file system. */
export const STORED_NAME_PATTERN = /^[0-9a-f]{32}\.[0-9a-z]{1,5}$/;

export function storedNameOfUrl(url: string): string | null {
  const prefix = `${CHAT_UPLOAD_PATHS.file}/`;
  if (!url.startsWith(prefix)) return null;
  const name = url.slice(prefix.length);
  return STORED_NAME_PATTERN.test(name) ? name : null;
}

// POST /api/chat/sendFile
export const sendFileBodySchema = lazySchema(() => z.object({
  storeId: looseRowId(),
  chatId: z.string().trim().min(1).max(200),
  fileId: z.string().regex(STORED_NAME_PATTERN),
  /** As for /api/sendMessage: echoed to the sender's pages only. */
  clientKey: z.string().max(64).optional(),
}));
export type SendFileBody = z.infer<typeof sendFileBodySchema>;
export const sendFileDataSchema = lazySchema(() => z.object({ message: buyerMessageSchema }));

export const CHAT_UPLOAD_MESSAGES = {
  noFile: { zh: '请选择要上传的文件', en: 'Choose a file to upload', pt: 'Escolha um arquivo para enviar' },
  tooLarge: { zh: '文件不能超过10MB', en: 'The file must not be larger than 10 MB', pt: 'O arquivo não pode passar de 10 MB' },
  badImage: { zh: '只能上传jpg、png、gif、bmp、jpeg格式的图片', en: 'Only jpg, png, gif, bmp and jpeg images can be uploaded', pt: 'Só é possível enviar imagens jpg, png, gif, bmp e jpeg' },
  badFile: { zh: '不支持该文件类型', en: 'This type of file cannot be uploaded', pt: 'Este tipo de arquivo não pode ser enviado' },
  badConversation: { zh: '请先选择要发送到的会话', en: 'Choose the conversation to send to first', pt: 'Escolha primeiro a conversa para onde enviar' },
  notInConversation: { zh: '你不在该会话中，不能发送或查看文件', en: 'You are not in this conversation, so you cannot send or view its files', pt: 'Você não participa desta conversa, então não pode enviar nem ver os arquivos dela' },
  fileNotFound: { zh: '文件不存在或已被删除', en: 'The file does not exist or has been deleted', pt: 'O arquivo não existe ou foi excluído' },
  uploadFailed: { zh: '上传失败，请重试', en: 'The upload failed; please try again', pt: 'O envio falhou; tente de novo' },
  externalBadUrl: { zh: '图片地址须为http(s)公开链接', en: 'A picture address must be a public http(s) link', pt: 'O endereço da imagem deve ser um link público http(s)' },
  externalPrivate: {
    zh: '该图片地址指向内网或本机，不予加载',
    en: 'This picture address points into a private network or this machine; it is not loaded',
    pt: 'Este endereço de imagem aponta para uma rede privada ou para esta máquina; ela não é carregada',
  },
  externalTooLarge: { zh: '图片超过5MB，不予加载', en: 'The picture is larger than 5 MB; it is not loaded', pt: 'A imagem passa de 5 MB; ela não é carregada' },
  externalNotImage: { zh: '该地址的内容不是图片', en: 'What this address holds is not a picture', pt: 'O conteúdo deste endereço não é uma imagem' },
  externalHostNotAllowed: {
    zh: '只加载1688和Ozon的商品图片，该地址不在其列',
    en: 'Only product pictures from 1688 and Ozon are loaded here; this address is neither',
    pt: 'Aqui só são carregadas imagens de produtos do 1688 e da Ozon; este endereço não é de nenhum deles',
  },
  externalUnreachable: { zh: '暂时无法读取该图片，请稍后重试', en: 'The picture cannot be read just now; try again later', pt: 'Não é possível ler a imagem agora; tente de novo mais tarde' },
} as const satisfies Record<string, Localized>;

/**
 * External pictures (issue 27): an `img[https://...]` in a message is another site's address. Loading it in the
 * seller's browser would tell that site (often the buyer's) the seller's address and when they read the message,
 * so the page shows it only when the reader asks, fetched by the server: no cookie, no referrer, the seller's
 * address never leaves, and only a picture of at most 5 MB comes back.
 */
export const EXTERNAL_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** An address on another site (absolute http(s) or scheme-relative), as opposed to one of this server's own. */
export function isExternalMediaUrl(url: string): boolean {
  return /^(https?:)?\/\//i.test(url.trim());
}

/** Where stored files are read back: `${CHAT_FILE_DIR}/<stored name>` under the API base. */
const CHAT_FILE_DIR = '/chat/file';

export const uploadFieldsSchema = lazySchema(() => z.object({
  kind: z.enum(['image', 'file']),
  /** `friend:<id>`, `group:<id>` or `buyer:<storeId>:<chatId>`. */
  conversation: z.string().max(260),
}));
/** A stored name (STORED_NAME_PATTERN); any other is answered 404 like a missing file. */
export const chatFileParamsSchema = lazySchema(() => z.object({ id: z.string().max(100) }));

/** Chat attachments: upload, read back, pass on to a buyer. */
export const CHAT_UPLOAD_ENDPOINTS = {
  upload: defineEndpoint({
    method: 'POST',
    path: '/chat/upload',
    summary: 'Stores one picked file for a conversation (multipart: the fields before the file part).',
    access: 'chat',
    action: 'reply',
    multipart: { fields: uploadFieldsSchema, file: 'file' },
    answer: uploadDataSchema,
    settings: { timeout: 120_000, retries: 0 },
  }),
  file: defineEndpoint({
    method: 'GET',
    path: `${CHAT_FILE_DIR}/:id`,
    summary: 'An uploaded file, for whoever can see its conversation (images inline, other files as downloads).',
    access: 'chat',
    params: chatFileParamsSchema,
    raw: { contentType: 'application/octet-stream', description: "The file's bytes, with the content type of its kind." },
    settings: { responseType: 'blob', silent: true },
  }),
  sendFile: defineEndpoint({
    method: 'POST',
    path: '/chat/sendFile',
    summary: 'Passes an uploaded file on to a buyer chat through Ozon.',
    access: 'chat',
    action: 'reply',
    input: sendFileBodySchema,
    answer: sendFileDataSchema,
  }),
} as const;

export const CHAT_UPLOAD_PATHS = {
  upload: routePath(CHAT_UPLOAD_ENDPOINTS.upload),
  /** GET `${file}/<stored name>` */
  file: `${API_BASE}${CHAT_FILE_DIR}`,
  sendFile: routePath(CHAT_UPLOAD_ENDPOINTS.sendFile),
} as const;
