import type { BuyerChat, BuyerMessage, ContactsOverview, TeamGroup, TeamMessage, TeamRequest } from '@contract/chat';
import { SYSTEM_CHAT_ID, type Chat, type ChatMessage, type FriendSection, type Group, type GroupOption, type SystemMessage } from '@contract/chatWidget';
import { formatUploadConversation, storedNameOfUrl } from '@contract/chatUpload';
import type { TFunction } from 'i18next';

/**
 * The chat page's translation between the server's shapes (contract/chat.ts) and the widget's (contract/chatWidget.ts).
 * Buyer chats ride in the widget as 'friend' conversations whose id names the shop and the marketplace chat.
 */
const BUYER_PREFIX = 'buyer:';

/** The chat namespace's texts, for the names and notes the adapters write. */
export type ChatT = TFunction<'chat'>;

export type BuyerChatRef = { storeId: number; chatId: string };

export function buyerChatId(storeId: number, chatId: string): string {
  return `${BUYER_PREFIX}${storeId}:${chatId}`;
}

export function parseBuyerChatId(id: Chat['id']): BuyerChatRef | null {
  if (typeof id !== 'string' || !id.startsWith(BUYER_PREFIX)) return null;
  const rest = id.slice(BUYER_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0) return null;
  const storeId = Number(rest.slice(0, colon));
  return Number.isInteger(storeId) ? { storeId, chatId: rest.slice(colon + 1) } : null;
}

/** A short, stable label for a buyer chat: Ozon's chat ids are long. */
export function buyerChatLabel(chat: Pick<BuyerChat, 'chatId' | 'chatType'>, t: ChatT): string {
  if (chat.chatType === 'Seller_Support') return t('support');
  return t('buyerChat', { short: chat.chatId.replace(/[^\w]/g, '').slice(-6) });
}

export function buyerChat(chat: Pick<BuyerChat, 'storeId' | 'chatId' | 'chatType'>, shopName: string, t: ChatT): Chat {
  return { id: buyerChatId(chat.storeId, chat.chatId), type: 'friend', name: `${buyerChatLabel(chat, t)} · ${shopName}` };
}

/** The widget's id of a marketplace message. */
export function buyerWidgetMessageId(id: BuyerMessage['id']): string {
  return `${BUYER_PREFIX}${id}`;
}

export function buyerMessage(message: BuyerMessage, shopName: string, t: ChatT): ChatMessage {
  const mine = message.from === 'seller';
  return {
    id: buyerWidgetMessageId(message.id),
    username: mine ? shopName : message.from === 'support' ? t('support') : t('buyer'),
    mine,
    content: message.text,
    timestamp: message.createdAt,
    type: 'text',
  };
}

/** The marketplace message id behind a widget message id, or undefined for a message only shown locally. */
export function buyerMessageId(message: ChatMessage | null): string | undefined {
  if (!message || typeof message.id !== 'string' || !message.id.startsWith(BUYER_PREFIX)) return undefined;
  return message.id.slice(BUYER_PREFIX.length);
}

export function friendChat(friend: { id: number; name: string; avatar: string; online: boolean }): Chat {
  return { id: friend.id, type: 'friend', name: friend.name, avatar: friend.avatar || undefined, online: friend.online };
}

export function groupChat(group: TeamGroup): Chat {
  return {
    id: group.id,
    type: 'group',
    name: group.name,
    notices: group.notices.map((n) => ({ type: n.type, title: n.title })),
    userList: group.members.map((m) => ({ id: m.id, name: m.name, avatar: m.avatar || undefined, online: m.online, role: m.role })),
  };
}

export function teamMessage(message: TeamMessage, myId: number): ChatMessage {
  return {
    id: message.id,
    userId: message.sender.id,
    username: message.sender.name,
    avatar: message.sender.avatar || undefined,
    mine: message.sender.id === myId,
    content: message.content,
    timestamp: message.createdAt,
    type: 'text',
  };
}

/** Request ids in the system tab name their kind, since friend and group applications share one list. */
export function requestKey(request: Pick<TeamRequest, 'kind' | 'id'>): string {
  return `${request.kind}:${request.id}`;
}

export function parseRequestKey(id: SystemMessage['id']): Pick<TeamRequest, 'kind' | 'id'> | null {
  const m = /^(friend|group):(\d+)$/.exec(String(id));
  return m ? { kind: m[1] as TeamRequest['kind'], id: Number(m[2]) } : null;
}

/**
 * The system tab: applications to me carry Agree and Reject while pending (applyFriend, or applyGroup naming the
 * group); answers to my own applications are acceptFriend / rejectFriend notes.
 */
export function systemMessages(overview: ContactsOverview, t: ChatT): SystemMessage[] {
  return overview.requests.map((r): SystemMessage => {
    const toMe = r.to.id === overview.me.id;
    if (toMe) {
      const joinsGroup = r.kind === 'group' && r.group !== null;
      return {
        id: requestKey(r),
        from: { id: r.from.id, name: r.from.name, avatar: r.from.avatar || undefined },
        to: { id: r.to.id, name: r.to.name },
        type: joinsGroup ? 'applyGroup' : 'applyFriend',
        message: joinsGroup ? r.message : [t('wantsToBeFriend'), r.message].filter(Boolean).join('：'),
        timestamp: r.createdAt,
        status: r.status === 'accepted' ? 'accept' : r.status === 'rejected' ? 'reject' : 'none',
        ...(joinsGroup && r.group ? { group: { id: r.group.id, name: r.group.name } } : {}),
      };
    }
    return {
      id: requestKey(r),
      from: { id: r.to.id, name: r.to.name, avatar: r.to.avatar || undefined },
      type: r.status === 'accepted' ? 'acceptFriend' : 'rejectFriend',
      message: r.status === 'accepted' ? t('requestAccepted', { name: r.group?.name ?? r.to.name }) : t('requestRejected', { name: r.group?.name ?? r.to.name }),
      timestamp: r.decidedAt ?? r.createdAt,
    };
  });
}

export function systemChat(overview: ContactsOverview | null, t: ChatT): Chat {
  return { id: SYSTEM_CHAT_ID, type: 'sys_msg', name: t('systemMessages'), messages: overview ? systemMessages(overview, t) : [] };
}

export function friendSections(overview: ContactsOverview): FriendSection[] {
  return overview.sections.map((s) => ({
    id: s.id,
    name: s.name,
    userList: s.friends.map((f) => ({
      id: f.id,
      name: f.name,
      avatar: f.avatar || undefined,
      online: f.online,
      sign: f.introduction || undefined,
      remark: f.remark || undefined,
      groupName: s.name,
      introduction: f.introduction || undefined,
    })),
  }));
}

export function widgetGroups(overview: ContactsOverview): Group[] {
  return overview.groups.map((g) => ({
    id: g.id,
    name: g.name,
    introduction: g.introduction || undefined,
    notify: g.notices[0]?.title,
    userList: groupChat(g).userList,
  }));
}

export function sectionOptions(overview: ContactsOverview): GroupOption[] {
  return overview.sections.map((s) => ({ label: s.name, key: s.id, value: s.id }));
}

/** The freshest version of an open conversation's chat, or the chat itself when the overview does not know it. */
export function refreshedChat(chat: Chat, overview: ContactsOverview, t: ChatT): Chat {
  if (chat.type === 'sys_msg') return systemChat(overview, t);
  if (parseBuyerChatId(chat.id)) return chat;
  if (chat.type === 'group') {
    const group = overview.groups.find((g) => g.id === chat.id);
    return group ? groupChat(group) : chat;
  }
  const friend = overview.sections.flatMap((s) => s.friends).find((f) => f.id === chat.id);
  return friend ? friendChat(friend) : chat;
}

/** The conversation an upload belongs to, as the upload call names it; null for the system tab. */
export function uploadConversation(chat: Pick<Chat, 'id' | 'type'>): string | null {
  const buyer = parseBuyerChatId(chat.id);
  if (buyer) return formatUploadConversation({ kind: 'buyer', ...buyer });
  if (chat.type === 'sys_msg') return null;
  const id = Number(chat.id);
  return Number.isInteger(id) && id > 0 ? formatUploadConversation({ kind: chat.type === 'group' ? 'group' : 'friend', id }) : null;
}

export type OutgoingPiece = { kind: 'text'; text: string } | { kind: 'file'; fileId: string };

const UPLOAD_TOKEN = /img\[([^\]]+?)\]|file\(([^)]*?)\)\[[^\]]*?\]/g;

/**
 * A buyer message cut into what Ozon takes: our uploads (img[...] and file(...)[...] tokens pointing at
 * /api/chat/file/...) as files, the rest as text pieces; other tokens stay in the text as typed.
 */
export function splitUploads(content: string): OutgoingPiece[] {
  const pieces: OutgoingPiece[] = [];
  let last = 0;
  const pushText = (text: string) => {
    if (text.trim()) pieces.push({ kind: 'text', text: text.trim() });
  };
  for (const m of content.matchAll(UPLOAD_TOKEN)) {
    const fileId = storedNameOfUrl(m[1] ?? m[2] ?? '');
    if (!fileId) continue;
    pushText(content.slice(last, m.index));
    pieces.push({ kind: 'file', fileId });
    last = m.index + m[0].length;
  }
  pushText(content.slice(last));
  return pieces;
}
