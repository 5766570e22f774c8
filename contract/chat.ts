import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { looseRowId, queryInt } from './fields';
import { lazySchema } from './lazySchema';
import type { Localized } from './errors';

/**
 * Chat calls (seller-tool §7 "Chat", issue 6): buyer chats of every shop of the seller, synced with the marketplace,
 * and team contacts (friends, friend sections, groups, one-to-one and group messages) stored on our server.
 * Every call is gated on the 'chat' area, the same roles as the /chat-manager/chat-list page.
 */
const id = looseRowId();
const name = z.string().trim().min(1, 'required').max(32);
/** The verification message of an application. */
const verification = z.string().trim().max(200).default('');
const historyRows = queryInt(1, 200).default(30);

// ---- Buyer chat (marketplace)

export const BUYER_CHAT_STATUSES = ['Opened', 'Closed'] as const;

export const buyerChatSchema = lazySchema(() => z.object({
  storeId: z.number().int(),
  chatId: z.string(),
  /** Buyer_Seller, Seller_Support ... as the marketplace says. */
  chatType: z.string(),
  status: z.string(),
  createdAt: z.number(),
  unread: z.number().int(),
  lastMessageId: z.string(),
  /** The chat's last message as the list shows it (its text cut short; a picture says so), null when not read. */
  last: z
    .object({ text: z.string(), createdAt: z.number(), from: z.enum(['customer', 'seller', 'support', 'other']), isImage: z.boolean() })
    .nullable()
    .default(null),
  /** The posting and product the buyer writes about (Ozon's message context), null when the chat names none. */
  about: z
    .object({ orderNumber: z.string(), postingNumber: z.string(), productName: z.string(), offerId: z.string(), sku: z.string(), image: z.string() })
    .nullable()
    .default(null),
}));
export type BuyerChat = z.infer<typeof buyerChatSchema>;
/** A buyer chat's last message and what it is about, as the list shows them. */
export type BuyerChatPreview = Pick<BuyerChat, 'last' | 'about'>;

export const buyerShopChatsSchema = lazySchema(() => z.object({
  storeId: z.number().int(),
  name: z.string(),
  unread: z.number().int(),
  chats: z.array(buyerChatSchema),
  /** Why this shop's chats could not be read from the marketplace now (its last synced chats are shown), or null. */
  error: z.string().nullable(),
}));
export type BuyerShopChats = z.infer<typeof buyerShopChatsSchema>;

// GET /api/chat/list
export const chatListDataSchema = lazySchema(() => z.object({ shops: z.array(buyerShopChatsSchema), totalUnread: z.number().int() }));
export type ChatListData = z.infer<typeof chatListDataSchema>;

export const buyerMessageSchema = lazySchema(() => z.object({
  /** The marketplace's message id (int64 as text). */
  id: z.string(),
  storeId: z.number().int(),
  chatId: z.string(),
  from: z.enum(['customer', 'seller', 'support', 'other']),
  text: z.string(),
  createdAt: z.number(),
  isRead: z.boolean(),
  orderNumber: z.string().nullable(),
  /** The sending page's own key, echoed with the seller's message to the seller's pages only, so that page skips it. */
  clientKey: z.string().optional(),
}));
export type BuyerMessage = z.infer<typeof buyerMessageSchema>;

const storeChat = { storeId: id, chatId: z.string().trim().min(1).max(200) };

// GET /api/chat/history: newest first page without `before`, older pages with it; answered oldest first.
export const chatHistoryQuerySchema = lazySchema(() => z.object({ ...storeChat, before: z.string().trim().max(40).optional(), rows: historyRows }));
export type ChatHistoryQuery = { storeId: number; chatId: string; before?: string; rows?: number };
export const chatHistoryDataSchema = lazySchema(() => z.object({ messages: z.array(buyerMessageSchema), hasMore: z.boolean() }));
export type ChatHistoryData = z.infer<typeof chatHistoryDataSchema>;

// POST /api/chat/read: marks the chat read up to `messageId` (everything when absent); answers the chat's unread count.
export const chatReadBodySchema = lazySchema(() => z.object({ ...storeChat, messageId: z.string().trim().max(40).optional() }));
export type ChatReadBody = { storeId: number; chatId: string; messageId?: string };
export const chatReadDataSchema = lazySchema(() => z.object({ unread: z.number().int() }));

// GET /api/chat/replyWindow: Ozon's rules for writing in one buyer chat, now.
export const chatReplyWindowQuerySchema = lazySchema(() => z.object(storeChat));
/**
 * Whether the seller may write in a buyer chat now; `until`: when that ends by Ozon's rules (72 h after delivery,
 * 48 h after the buyer's last message), null when no end is known yet; `reason`: why not, in the user's language.
 */
export const buyerReplyWindowSchema = lazySchema(() => z.object({ canReply: z.boolean(), until: z.number().nullable(), reason: z.string().nullable() }));
export type BuyerReplyWindow = z.infer<typeof buyerReplyWindowSchema>;

/** Ozon takes 1 to 1000 characters per message. */
export const BUYER_MESSAGE_MAX = 1000;
// POST /api/sendMessage
export const sendMessageBodySchema = lazySchema(() => z.object({
  ...storeChat,
  text: z.string().trim().min(1, 'required').max(BUYER_MESSAGE_MAX),
  clientKey: z.string().max(64).optional(),
}));
export type SendMessageBody = { storeId: number; chatId: string; text: string; clientKey?: string };
export const sendMessageDataSchema = lazySchema(() => z.object({ message: buyerMessageSchema }));

/** Ozon's rules on who may write when (reference "Buyer chat": limits), as the seller reads them. */
export const BUYER_CHAT_MESSAGES = {
  chatClosed: { zh: '该会话已关闭，不能再发送消息', en: 'This chat is closed; no more messages can be sent', pt: 'Esta conversa foi encerrada; não é possível enviar mais mensagens' },
  replyWindowOver: {
    zh: '已超出可回复时间：订单送达72小时后，只能在买家最后一条消息后48小时内回复',
    en: 'You can no longer write here: 72 hours after delivery, you may only reply within 48 hours of the buyer\'s last message',
    pt: 'Você não pode mais escrever aqui: 72 horas após a entrega, só é possível responder em até 48 horas depois da última mensagem do comprador',
  },
  notPaid: { zh: '买家付款之前不能主动发起会话', en: 'You cannot write to the buyer before the order is paid', pt: 'Você não pode escrever ao comprador antes de o pedido ser pago' },
  fboBuyerStarts: { zh: 'FBO订单只能由买家发起会话', en: 'For FBO orders only the buyer can start a chat', pt: 'Em pedidos FBO, só o comprador pode iniciar uma conversa' },
  chatNotFound: { zh: '会话不存在', en: 'The chat does not exist', pt: 'A conversa não existe' },
  storeNotFound: { zh: '店铺不存在', en: 'The shop does not exist', pt: 'A loja não existe' },
} as const satisfies Record<string, Localized>;

// ---- Team contacts

export const userCardSchema = lazySchema(() => z.object({
  id: z.number().int(),
  name: z.string(),
  avatar: z.string(),
  introduction: z.string(),
  online: z.boolean(),
}));
export type UserCard = z.infer<typeof userCardSchema>;

export const friendSchema = lazySchema(() => userCardSchema.extend({ sectionId: z.number().int(), remark: z.string() }));
export type TeamFriend = z.infer<typeof friendSchema>;

export const friendSectionSchema = lazySchema(() => z.object({ id: z.number().int(), name: z.string(), friends: z.array(friendSchema) }));
export type TeamFriendSection = z.infer<typeof friendSectionSchema>;

export const groupNoticeSchema = lazySchema(() => z.object({ id: z.number().int(), type: z.string(), title: z.string(), createdAt: z.number() }));
export type GroupNotice = z.infer<typeof groupNoticeSchema>;
export const groupMemberSchema = lazySchema(() => userCardSchema.extend({ role: z.enum(['owner', 'member']) }));
export type TeamGroupMember = z.infer<typeof groupMemberSchema>;

export const teamGroupSchema = lazySchema(() => z.object({
  id: z.number().int(),
  name: z.string(),
  introduction: z.string(),
  ownerId: z.number().int(),
  notices: z.array(groupNoticeSchema),
  members: z.array(groupMemberSchema),
}));
export type TeamGroup = z.infer<typeof teamGroupSchema>;

export const REQUEST_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * What the system tab shows: applications to me (pending ones carry Agree and Reject), and the verdicts on mine.
 * `kind` 'group' is an application to join a group I own.
 */
export const teamRequestSchema = lazySchema(() => z.object({
  id: z.number().int(),
  kind: z.enum(['friend', 'group']),
  from: userCardSchema.pick({ id: true, name: true, avatar: true }),
  to: userCardSchema.pick({ id: true, name: true, avatar: true }),
  group: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  message: z.string(),
  status: z.enum(REQUEST_STATUSES),
  createdAt: z.number(),
  decidedAt: z.number().nullable(),
}));
export type TeamRequest = z.infer<typeof teamRequestSchema>;

export const conversationKindSchema = lazySchema(() => z.enum(['friend', 'group']));
export type ConversationKind = z.infer<typeof conversationKindSchema>;

export const teamMessageSchema = lazySchema(() => z.object({
  id: z.number().int(),
  kind: conversationKindSchema,
  sender: userCardSchema.pick({ id: true, name: true, avatar: true }),
  /** The friend's user id (the other side for the reader is whichever of sender / toId is not them), or the group's id. */
  toId: z.number().int(),
  content: z.string(),
  createdAt: z.number(),
  /** The sender page's own key for the message, echoed to the sender's pages only, so the page that sent it skips it. */
  clientKey: z.string().optional(),
}));
export type TeamMessage = z.infer<typeof teamMessageSchema>;

// GET /api/contacts/overview
export const contactsOverviewSchema = lazySchema(() => z.object({
  me: userCardSchema,
  sections: z.array(friendSectionSchema),
  groups: z.array(teamGroupSchema),
  requests: z.array(teamRequestSchema),
  /** Unread messages per conversation, keyed `friend:<userId>` or `group:<groupId>` (the widget's chat keys). */
  unread: z.record(z.string(), z.number().int()),
}));
export type ContactsOverview = z.infer<typeof contactsOverviewSchema>;

// GET /api/contacts/searchUsers and /searchGroups
export const contactSearchQuerySchema = lazySchema(() => z.object({ keyword: z.string().trim().min(1, 'required').max(32) }));
export const userSearchDataSchema = lazySchema(() => z.array(userCardSchema.extend({ isFriend: z.boolean() })));
export const groupSearchDataSchema = lazySchema(() => z.array(z.object({ id: z.number().int(), name: z.string(), introduction: z.string(), members: z.number().int(), isMember: z.boolean() })));

export const applyFriendBodySchema = lazySchema(() => z.object({ toId: id, message: verification, sectionId: id.optional() }));
export type ApplyFriendBody = { toId: number; message?: string; sectionId?: number };
export const acceptFriendBodySchema = lazySchema(() => z.object({ requestId: id, sectionId: id.optional() }));
export type AcceptFriendBody = { requestId: number; sectionId?: number };
export const requestIdBodySchema = lazySchema(() => z.object({ requestId: id }));
export const addSectionBodySchema = lazySchema(() => z.object({ name }));
export const renameSectionBodySchema = lazySchema(() => z.object({ id, name }));
export const createGroupBodySchema = lazySchema(() => z.object({ name, introduction: z.string().trim().max(200).default('') }));
export type CreateGroupBody = z.input<typeof createGroupBodySchema>;
export const applyGroupBodySchema = lazySchema(() => z.object({ groupId: id, message: verification }));
export const decideGroupBodySchema = lazySchema(() => z.object({ requestId: id, accept: z.boolean() }));
export const groupIdBodySchema = lazySchema(() => z.object({ groupId: id }));
export const addNoticeBodySchema = lazySchema(() => z.object({ groupId: id, type: z.string().trim().min(1).max(16).default('公告'), title: z.string().trim().min(1, 'required').max(200) }));
export type AddNoticeBody = { groupId: number; type?: string; title: string };

// GET /api/contacts/history: the newest page without `before`, older pages with it; answered oldest first.
export const contactsHistoryQuerySchema = lazySchema(() => z.object({ kind: conversationKindSchema, id, before: id.optional(), rows: historyRows }));
export type ContactsHistoryQuery = { kind: ConversationKind; id: number; before?: number; rows?: number };
export const contactsHistoryDataSchema = lazySchema(() => z.object({ messages: z.array(teamMessageSchema), hasMore: z.boolean() }));

export const TEAM_MESSAGE_MAX = 2000;
export const contactsSendBodySchema = lazySchema(() => z.object({
  kind: conversationKindSchema,
  id,
  content: z.string().trim().min(1, 'required').max(TEAM_MESSAGE_MAX),
  clientKey: z.string().max(64).optional(),
}));
export type ContactsSendBody = { kind: ConversationKind; id: number; content: string; clientKey?: string };
export const contactsReadBodySchema = lazySchema(() => z.object({ kind: conversationKindSchema, id, messageId: id }));
export type ContactsReadBody = { kind: ConversationKind; id: number; messageId: number };

export const CONTACTS_MESSAGES = {
  userNotFound: { zh: '用户不存在', en: 'The user does not exist', pt: 'O usuário não existe' },
  notYourself: { zh: '不能添加自己为好友', en: 'You cannot add yourself as a friend', pt: 'Você não pode se adicionar como amigo' },
  alreadyFriends: { zh: '你们已经是好友了', en: 'You are already friends', pt: 'Vocês já são amigos' },
  requestPending: { zh: '已发送过好友申请，请等待对方处理', en: 'A friend request is already waiting for an answer', pt: 'Já existe um pedido de amizade aguardando resposta' },
  requestNotFound: { zh: '申请不存在或已处理', en: 'The application does not exist or has already been answered', pt: 'A solicitação não existe ou já foi respondida' },
  sectionNotFound: { zh: '分组不存在', en: 'The friend section does not exist', pt: 'A seção de amigos não existe' },
  sectionExists: { zh: '分组名称已存在', en: 'A friend section with this name already exists', pt: 'Já existe uma seção de amigos com este nome' },
  groupNotFound: { zh: '群组不存在', en: 'The group does not exist', pt: 'O grupo não existe' },
  alreadyMember: { zh: '你已经是该群成员', en: 'You are already a member of this group', pt: 'Você já é membro deste grupo' },
  groupRequestPending: { zh: '已申请加入该群，请等待群主处理', en: 'Your application to this group is waiting for the owner', pt: 'Sua solicitação para este grupo aguarda o dono' },
  notMember: { zh: '你不是该群成员', en: 'You are not a member of this group', pt: 'Você não é membro deste grupo' },
  ownerCannotLeave: { zh: '群主不能退出自己的群', en: 'The owner cannot leave their own group', pt: 'O dono não pode sair do próprio grupo' },
  ownerOnly: { zh: '只有群主可以执行此操作', en: 'Only the group owner can do this', pt: 'Só o dono do grupo pode fazer isso' },
  notFriends: { zh: '对方不是你的好友，不能发送消息', en: 'You can only send messages to your friends', pt: 'Você só pode enviar mensagens aos seus amigos' },
  defaultSection: { zh: '我的好友', en: 'My friends', pt: 'Meus amigos' },
} as const satisfies Record<string, Localized>;

/** A friend section's id and name (adding and renaming one answer it). */
export const sectionDataSchema = lazySchema(() => friendSectionSchema.pick({ id: true, name: true }));
export const leaveGroupDataSchema = lazySchema(() => z.null());

/** Buyer chats of every shop of the seller, synced with the marketplace. */
export const CHAT_ENDPOINTS = {
  list: defineEndpoint({ method: 'GET', path: '/chat/list', summary: "The buyer chats of every shop of the user, with unread counts.", access: 'chat', answer: chatListDataSchema }),
  history: defineEndpoint({
    method: 'GET',
    path: '/chat/history',
    summary: "One page of a buyer chat's messages: the newest without `before`, older ones with it.",
    access: 'chat',
    input: chatHistoryQuerySchema,
    answer: chatHistoryDataSchema,
  }),
  read: defineEndpoint({
    method: 'POST',
    path: '/chat/read',
    summary: 'Marks a buyer chat read up to a message (everything when absent).',
    access: 'chat',
    action: 'reply',
    input: chatReadBodySchema,
    answer: chatReadDataSchema,
  }),
  replyWindow: defineEndpoint({
    method: 'GET',
    path: '/chat/replyWindow',
    summary: 'Whether and until when the seller may write in a buyer chat (Ozon\'s rules), and else why not.',
    access: 'chat',
    input: chatReplyWindowQuerySchema,
    answer: buyerReplyWindowSchema,
    settings: { silent: true, cancellable: false },
  }),
  send: defineEndpoint({
    method: 'POST',
    path: '/sendMessage',
    summary: 'Sends a text message to a buyer through Ozon.',
    access: 'chat',
    action: 'reply',
    input: sendMessageBodySchema,
    answer: sendMessageDataSchema,
  }),
} as const;

/** Team contacts and their messages, stored on our server. */
export const CONTACTS_ENDPOINTS = {
  overview: defineEndpoint({
    method: 'GET',
    path: '/contacts/overview',
    summary: "The user's friend sections, groups and pending applications.",
    access: 'chat',
    answer: contactsOverviewSchema,
  }),
  searchUsers: defineEndpoint({
    method: 'GET',
    path: '/contacts/searchUsers',
    summary: 'Users whose name contains the keyword.',
    access: 'chat',
    input: contactSearchQuerySchema,
    answer: userSearchDataSchema,
  }),
  searchGroups: defineEndpoint({
    method: 'GET',
    path: '/contacts/searchGroups',
    summary: 'Groups whose name contains the keyword.',
    access: 'chat',
    input: contactSearchQuerySchema,
    answer: groupSearchDataSchema,
  }),
  applyFriend: defineEndpoint({
    method: 'POST',
    path: '/contacts/friend/apply',
    summary: 'Asks a user to become a friend.',
    access: 'chat',
    action: 'reply',
    input: applyFriendBodySchema,
    answer: teamRequestSchema,
  }),
  acceptFriend: defineEndpoint({
    method: 'POST',
    path: '/contacts/friend/accept',
    summary: 'Accepts a friend request.',
    access: 'chat',
    action: 'reply',
    input: acceptFriendBodySchema,
    answer: teamRequestSchema,
  }),
  rejectFriend: defineEndpoint({
    method: 'POST',
    path: '/contacts/friend/reject',
    summary: 'Rejects a friend request.',
    access: 'chat',
    action: 'reply',
    input: requestIdBodySchema,
    answer: teamRequestSchema,
  }),
  addSection: defineEndpoint({
    method: 'POST',
    path: '/contacts/section/add',
    summary: 'Adds a friend section.',
    access: 'chat',
    action: 'reply',
    input: addSectionBodySchema,
    answer: sectionDataSchema,
  }),
  renameSection: defineEndpoint({
    method: 'POST',
    path: '/contacts/section/rename',
    summary: 'Renames a friend section.',
    access: 'chat',
    action: 'reply',
    input: renameSectionBodySchema,
    answer: sectionDataSchema,
  }),
  createGroup: defineEndpoint({
    method: 'POST',
    path: '/contacts/group/create',
    summary: 'Creates a group owned by the user.',
    access: 'chat',
    action: 'reply',
    input: createGroupBodySchema,
    answer: teamGroupSchema,
  }),
  applyGroup: defineEndpoint({
    method: 'POST',
    path: '/contacts/group/apply',
    summary: 'Asks to join a group.',
    access: 'chat',
    action: 'reply',
    input: applyGroupBodySchema,
    answer: teamRequestSchema,
  }),
  decideGroup: defineEndpoint({
    method: 'POST',
    path: '/contacts/group/decide',
    summary: "The owner accepts or rejects an application to the group.",
    access: 'chat',
    action: 'reply',
    input: decideGroupBodySchema,
    answer: teamRequestSchema,
  }),
  leaveGroup: defineEndpoint({
    method: 'POST',
    path: '/contacts/group/leave',
    summary: 'Leaves a group.',
    access: 'chat',
    action: 'reply',
    input: groupIdBodySchema,
    answer: leaveGroupDataSchema,
  }),
  addNotice: defineEndpoint({
    method: 'POST',
    path: '/contacts/group/notice',
    summary: "Posts a notice in a group.",
    access: 'chat',
    action: 'reply',
    input: addNoticeBodySchema,
    answer: groupNoticeSchema,
  }),
  history: defineEndpoint({
    method: 'GET',
    path: '/contacts/history',
    summary: "One page of a friend's or group's messages: the newest without `before`, older ones with it.",
    access: 'chat',
    input: contactsHistoryQuerySchema,
    answer: contactsHistoryDataSchema,
  }),
  send: defineEndpoint({
    method: 'POST',
    path: '/contacts/send',
    summary: 'Sends a message to a friend or a group.',
    access: 'chat',
    action: 'reply',
    input: contactsSendBodySchema,
    answer: teamMessageSchema,
  }),
  read: defineEndpoint({
    method: 'POST',
    path: '/contacts/read',
    summary: "Marks a friend's or group's messages read up to one.",
    access: 'chat',
    action: 'reply',
    input: contactsReadBodySchema,
    answer: chatReadDataSchema,
  }),
} as const;
