import {
  CHAT_PATHS,
  CONTACTS_PATHS,
  chatHistoryDataSchema,
  chatListDataSchema,
  chatReadDataSchema,
  contactsHistoryDataSchema,
  contactsOverviewSchema,
  friendSectionSchema,
  groupNoticeSchema,
  groupSearchDataSchema,
  sendMessageDataSchema,
  teamGroupSchema,
  teamMessageSchema,
  teamRequestSchema,
  userSearchDataSchema,
  type AcceptFriendBody,
  type AddNoticeBody,
  type ApplyFriendBody,
  type BuyerMessage,
  type ChatHistoryData,
  type ChatHistoryQuery,
  type ChatListData,
  type ChatReadBody,
  type ContactsHistoryQuery,
  type ContactsOverview,
  type ContactsReadBody,
  type ContactsSendBody,
  type CreateGroupBody,
  type SendMessageBody,
  type TeamGroup,
  type TeamMessage,
  type TeamRequest,
  type UserCard,
} from '../contract/chat';
import { z } from 'zod';
import { lazySchema } from '../contract/lazySchema';
import { CHAT_UPLOAD_PATHS, sendFileDataSchema, uploadDataSchema, type SendFileBody, type UploadData, type UploadKind } from '../contract/chatUpload';
import type { EventBus } from './events';
import type { HttpClient } from './http/client';

/**
 * The chat area of the worker: buyer chats across shops and team contacts (contract/chat.ts), plus the 'chat.*'
 * events the page listens to, turned from the server's pushes ('push.message') into their own topics.
 */
export type ChatEvents = {
  /** A friend's or a group's new message (never one of the user's own). */
  'chat.message': { message: TeamMessage };
  /** A friend or group application to the user, or the answer to one of theirs. */
  'chat.request': { request: TeamRequest };
  /** Friends, sections or groups changed: read the overview again. */
  'chat.contacts': Record<string, never>;
  'chat.presence': { userId: number; online: boolean };
  /** A new buyer message in one of the user's shops, with that chat's unread count. */
  'chat.buyerMessage': { message: BuyerMessage; unread: number };
};

export type ChatApi = {
  buyerList(): Promise<ChatListData>;
  buyerHistory(query: ChatHistoryQuery): Promise<ChatHistoryData>;
  buyerRead(body: ChatReadBody): Promise<{ unread: number }>;
  buyerSend(body: SendMessageBody): Promise<{ message: BuyerMessage }>;
  overview(): Promise<ContactsOverview>;
  searchUsers(keyword: string): Promise<(UserCard & { isFriend: boolean })[]>;
  searchGroups(keyword: string): Promise<{ id: number; name: string; introduction: string; members: number; isMember: boolean }[]>;
  applyFriend(body: ApplyFriendBody): Promise<TeamRequest>;
  acceptFriend(body: AcceptFriendBody): Promise<TeamRequest>;
  rejectFriend(requestId: number): Promise<TeamRequest>;
  addSection(name: string): Promise<{ id: number; name: string }>;
  renameSection(id: number, name: string): Promise<{ id: number; name: string }>;
  createGroup(body: CreateGroupBody): Promise<TeamGroup>;
  applyGroup(groupId: number, message: string): Promise<TeamRequest>;
  decideGroup(requestId: number, accept: boolean): Promise<TeamRequest>;
  leaveGroup(groupId: number): Promise<null>;
  addNotice(body: AddNoticeBody): Promise<z.infer<typeof groupNoticeSchema>>;
  history(query: ContactsHistoryQuery): Promise<{ messages: TeamMessage[]; hasMore: boolean }>;
  send(body: ContactsSendBody): Promise<TeamMessage>;
  read(body: ContactsReadBody): Promise<{ unread: number }>;
  /** Uploads one picked file for `conversation` (`friend:<id>`, `group:<id>` or `buyer:<storeId>:<chatId>`). */
  upload(kind: UploadKind, conversation: string, file: File): Promise<UploadData>;
  /** An uploaded file's bytes and type, read with the session (an <img> cannot send the headers). */
  file(url: string): Promise<{ bytes: ArrayBuffer; contentType: string }>;
  /** Passes an uploaded file on to a buyer chat. */
  buyerSendFile(body: SendFileBody): Promise<{ message: BuyerMessage }>;
};

/** The client's paths hang under /api already. */
const path = (full: string) => full.replace(/^\/api/, '');
const sectionSchema = lazySchema(() => friendSectionSchema.pick({ id: true, name: true }));
const unreadSchema = lazySchema(() => z.object({ unread: z.number().int() }));

export function createChatArea(client: HttpClient, events: EventBus): ChatApi {
  events.on('push.message', ({ message }) => {
    if (message.type === 'chat.message') events.emit('chat.message', { message: message.message });
    else if (message.type === 'chat.request') events.emit('chat.request', { request: message.request });
    else if (message.type === 'chat.contacts') events.emit('chat.contacts', {});
    else if (message.type === 'chat.presence') events.emit('chat.presence', { userId: message.userId, online: message.online });
    else if (message.type === 'chat.buyerMessage') events.emit('chat.buyerMessage', { message: message.message, unread: message.unread });
  });
  const get = <T>(full: string, schema: { parse(v: unknown): T }, params?: Record<string, string | number | undefined>) =>
    client.request(path(full), { method: 'GET', params, schema });
  const post = <T>(full: string, body: unknown, schema: { parse(v: unknown): T }) => client.request(path(full), { method: 'POST', body, schema });

  return {
    buyerList: () => get(CHAT_PATHS.list, chatListDataSchema),
    buyerHistory: (query) => get(CHAT_PATHS.history, chatHistoryDataSchema, { ...query }),
    buyerRead: (body) => post(CHAT_PATHS.read, body, chatReadDataSchema),
    buyerSend: (body) => post(CHAT_PATHS.send, body, sendMessageDataSchema),
    overview: () => get(CONTACTS_PATHS.overview, contactsOverviewSchema),
    searchUsers: (keyword) => get(CONTACTS_PATHS.searchUsers, userSearchDataSchema, { keyword }),
    searchGroups: (keyword) => get(CONTACTS_PATHS.searchGroups, groupSearchDataSchema, { keyword }),
    applyFriend: (body) => post(CONTACTS_PATHS.applyFriend, body, teamRequestSchema),
    acceptFriend: (body) => post(CONTACTS_PATHS.acceptFriend, body, teamRequestSchema),
    rejectFriend: (requestId) => post(CONTACTS_PATHS.rejectFriend, { requestId }, teamRequestSchema),
    addSection: (name) => post(CONTACTS_PATHS.addSection, { name }, sectionSchema),
    renameSection: (id, name) => post(CONTACTS_PATHS.renameSection, { id, name }, sectionSchema),
    createGroup: (body) => post(CONTACTS_PATHS.createGroup, body, teamGroupSchema),
    applyGroup: (groupId, message) => post(CONTACTS_PATHS.applyGroup, { groupId, message }, teamRequestSchema),
    decideGroup: (requestId, accept) => post(CONTACTS_PATHS.decideGroup, { requestId, accept }, teamRequestSchema),
    leaveGroup: (groupId) => post(CONTACTS_PATHS.leaveGroup, { groupId }, z.null()),
    addNotice: (body) => post(CONTACTS_PATHS.addNotice, body, groupNoticeSchema),
    history: (query) => get(CONTACTS_PATHS.history, contactsHistoryDataSchema, { ...query }),
    send: (body) => post(CONTACTS_PATHS.send, body, teamMessageSchema),
    read: (body) => post(CONTACTS_PATHS.read, body, unreadSchema),
    upload: (kind, conversation, file) => {
      // Fields before the file: the server reads them as the stream reaches the file.
      const form = new FormData();
      form.append('kind', kind);
      form.append('conversation', conversation);
      form.append('file', file, file.name);
      return client.request(path(CHAT_UPLOAD_PATHS.upload), { method: 'POST', body: form, schema: uploadDataSchema, timeout: 120_000, retries: 0 });
    },
    file: async (url) => {
      if (!url.startsWith(`${CHAT_UPLOAD_PATHS.file}/`)) throw new Error('not a chat file');
      const blob = await client.request<Blob>(path(url), { method: 'GET', responseType: 'blob', silent: true });
      return { bytes: await blob.arrayBuffer(), contentType: blob.type };
    },
    buyerSendFile: (body) => post(CHAT_UPLOAD_PATHS.sendFile, body, sendFileDataSchema),
  };
}
