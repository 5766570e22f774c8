import {
  CHAT_ENDPOINTS,
  CONTACTS_ENDPOINTS,
  type AcceptFriendBody,
  type AddNoticeBody,
  type ApplyFriendBody,
  type BuyerMessage,
  type BuyerReplyWindow,
  type ChatHistoryData,
  type ChatHistoryQuery,
  type ChatListData,
  type ChatReadBody,
  type ContactsHistoryQuery,
  type ContactsOverview,
  type ContactsReadBody,
  type ContactsSendBody,
  type CreateGroupBody,
  type GroupNotice,
  type SendMessageBody,
  type TeamGroup,
  type TeamMessage,
  type TeamRequest,
  type UserCard,
} from '../contract/chat';
import { CHAT_UPLOAD_ENDPOINTS, storedNameOfUrl, type SendFileBody, type UploadData, type UploadKind } from '../contract/chatUpload';
import type { EventBus } from './events';
import type { HttpClient } from './http/client';
import { createImagesApi } from './images';

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
  /** Whether and until when the seller may write in a buyer chat, and else why not (Ozon's rules). */
  buyerReplyWindow(chat: { storeId: number; chatId: string }): Promise<BuyerReplyWindow>;
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
  addNotice(body: AddNoticeBody): Promise<GroupNotice>;
  history(query: ContactsHistoryQuery): Promise<{ messages: TeamMessage[]; hasMore: boolean }>;
  send(body: ContactsSendBody): Promise<TeamMessage>;
  read(body: ContactsReadBody): Promise<{ unread: number }>;
  /** Uploads one picked file for `conversation` (`friend:<id>`, `group:<id>` or `buyer:<storeId>:<chatId>`). */
  upload(kind: UploadKind, conversation: string, file: File): Promise<UploadData>;
  /** An uploaded file's bytes and type, read with the session (an <img> cannot send the headers). */
  file(url: string): Promise<{ bytes: ArrayBuffer; contentType: string }>;
  /** A picture another site holds, named in a message of `conversation`, fetched by the server (issue 27). */
  externalImage(url: string, conversation: string): Promise<{ bytes: ArrayBuffer; contentType: string }>;
  /** Passes an uploaded file on to a buyer chat. */
  buyerSendFile(body: SendFileBody): Promise<{ message: BuyerMessage }>;
};

const C = CHAT_ENDPOINTS;
const T = CONTACTS_ENDPOINTS;
const U = CHAT_UPLOAD_ENDPOINTS;

export function createChatArea(client: HttpClient, events: EventBus): ChatApi {
  const images = createImagesApi(client);
  events.on('push.message', ({ message }) => {
    if (message.type === 'chat.message') events.emit('chat.message', { message: message.message });
    else if (message.type === 'chat.request') events.emit('chat.request', { request: message.request });
    else if (message.type === 'chat.contacts') events.emit('chat.contacts', {});
    else if (message.type === 'chat.presence') events.emit('chat.presence', { userId: message.userId, online: message.online });
    else if (message.type === 'chat.buyerMessage') events.emit('chat.buyerMessage', { message: message.message, unread: message.unread });
  });
  return {
    buyerList: () => client.call(C.list),
    buyerHistory: (query) => client.call(C.history, query),
    buyerRead: (body) => client.call(C.read, body),
    buyerSend: (body) => client.call(C.send, body),
    buyerReplyWindow: (chat) => client.call(C.replyWindow, chat),
    overview: () => client.call(T.overview),
    searchUsers: (keyword) => client.call(T.searchUsers, { keyword }),
    searchGroups: (keyword) => client.call(T.searchGroups, { keyword }),
    applyFriend: (body) => client.call(T.applyFriend, body),
    acceptFriend: (body) => client.call(T.acceptFriend, body),
    rejectFriend: (requestId) => client.call(T.rejectFriend, { requestId }),
    addSection: (name) => client.call(T.addSection, { name }),
    renameSection: (id, name) => client.call(T.renameSection, { id, name }),
    createGroup: (body) => client.call(T.createGroup, body),
    applyGroup: (groupId, message) => client.call(T.applyGroup, { groupId, message }),
    decideGroup: (requestId, accept) => client.call(T.decideGroup, { requestId, accept }),
    leaveGroup: (groupId) => client.call(T.leaveGroup, { groupId }),
    addNotice: (body) => client.call(T.addNotice, body),
    history: (query) => client.call(T.history, query),
    send: (body) => client.call(T.send, body),
    read: (body) => client.call(T.read, body),
    upload: (kind, conversation, file) => {
      // Fields before the file: the server reads them as the stream reaches the file.
      const form = new FormData();
      form.append('kind', kind);
      form.append('conversation', conversation);
      form.append('file', file, file.name);
      return client.call(U.upload, form);
    },
    file: async (url) => {
      const id = storedNameOfUrl(url);
      if (id === null) throw new Error('not a chat file');
      const blob = await client.call(U.file, { id });
      return { bytes: await blob.arrayBuffer(), contentType: blob.type };
    },
    externalImage: (url, conversation) => images.external(url, conversation),
    buyerSendFile: (body) => client.call(U.sendFile, body),
  };
}
