/**
 * The chat widget's data shapes (chat-widget spec §3 and §7). The widget makes no calls of its own: the host feeds it
 * these shapes and receives its events, so both the widget's machines and the chat page share one definition here.
 */

export type ChatType = 'friend' | 'group' | 'sys_msg';

export type ChatId = string | number;

/** The system-message channel always has id -1 (spec §3). */
export const SYSTEM_CHAT_ID = -1;

export type GroupNotice = { type: string; title: string };

export type GroupMember = {
  id: ChatId;
  name: string;
  avatar?: string;
  online?: boolean;
  /** Shown as an icon; the spec does not list the values, so any string is accepted. */
  role?: string;
};

/** applyGroup: someone asks to join a group the user owns; it carries Agree and Reject like applyFriend. */
export type SystemMessageType = 'system' | 'acceptFriend' | 'applyFriend' | 'rejectFriend' | 'applyGroup';

export type SystemMessage = {
  id: ChatId;
  from: { id?: ChatId; avatar?: string; name: string };
  to?: { id?: ChatId; name?: string };
  type: SystemMessageType;
  message: string;
  timestamp: number;
  status?: 'accept' | 'reject' | 'none';
  /** applyGroup: the group applied to. */
  group?: { id: ChatId; name: string };
};

export type Chat = {
  id: ChatId;
  name: string;
  type: ChatType;
  avatar?: string;
  /** Friends only. */
  online?: boolean;
  /** Groups only. */
  notices?: GroupNotice[];
  userList?: GroupMember[];
  /** The system tab only. */
  messages?: SystemMessage[];
  /**
   * Buyer chats: whether the seller may write now (the marketplace's rules), until when (ms; null: no end known),
   * and else why not. Absent: no limit (team chats), or not known yet.
   */
  reply?: ReplyWindow;
};

export type ReplyWindow = { canReply: boolean; until: number | null; reason: string | null };

export type ChatMessage = {
  id: ChatId;
  /** The sender. */
  userId?: ChatId;
  username: string;
  avatar?: string;
  mine: boolean;
  content: string;
  timestamp: number;
  type?: 'text';
};

/** An incoming message names the chat it belongs to, so an unknown channel can be added (spec §4). */
export type IncomingMessage = ChatMessage & { chat: Chat };

export type CurrentUser = { id: ChatId; username: string; status?: string; sign?: string; avatar?: string };

export type SentMessage = {
  /** The widget's local id of the message, the same on every attempt of it. */
  id: ChatId;
  /** 1 on the first send, counting up on each retry. */
  attempt: number;
  mine: { id: ChatId; username: string; avatar?: string; mine: true };
  to: { id: ChatId; name: string; type: ChatType; avatar?: string };
  content: string;
  type: 'text';
  timestamp: number;
};

export type Friend = {
  id: ChatId;
  name: string;
  avatar?: string;
  online?: boolean;
  sign?: string;
  cid?: string;
  remark?: string;
  groupName?: string;
  phone?: string;
  email?: string;
  introduction?: string;
};

export type FriendSection = { id: ChatId; name: string; userList: Friend[] };

export type Group = {
  id: ChatId;
  name: string;
  avatar?: string;
  sign?: string;
  notify?: string;
  /** "My card" in the group. */
  mine?: string;
  introduction?: string;
  userList?: GroupMember[];
};

export type GroupOption = { label: string; key: string | number; value: string | number };

export type ApplyKind = 'applyFriend' | 'applyGroup' | 'confirmFriend' | 'confirmGroup';

/** The key a conversation is known by: the same id may be a friend and a group. */
export function chatKey(chat: Pick<Chat, 'id' | 'type'>): string {
  return `${chat.type}:${String(chat.id)}`;
}
