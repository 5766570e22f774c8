import type {
  ApplyKind,
  Chat,
  ChatMessage,
  ChatType,
  CurrentUser,
  FriendSection,
  Group,
  GroupMember,
  GroupOption,
  SentMessage,
  SystemMessage,
  Friend,
} from '@contract/chatWidget';
import type { Ref } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { chatWindowMachine } from '@machines/chatWindowMachine';
import type { SendReceipt } from '@machines/chatSendMachine';
import type { ChatLang } from './translate';
import type { MediaResolver } from './media';
import type { UploadExtensions, UploadKind } from './upload';

export type SendMode = 'enter' | 'ctrlEnter';

export type ChatWidgetHandle = ActorRefFrom<typeof chatWindowMachine>;

/** What an apply/confirm dialog shows (spec §3 "Apply dialog info"). */
export type ApplyInfo = { id?: Chat['id']; avatar?: string; name: string; options?: GroupOption[] };

export type ApplyResult = { kind: ApplyKind; info: ApplyInfo; value: string; option: GroupOption | null; action: 'confirm' };

/** Every event of spec §7, as typed callbacks. The widget makes no network calls. */
export type ChatWidgetEvents = {
  onRemoveChat?: (chat: { id: Chat['id']; name: string; type: ChatType }) => void;
  /**
   * Sends the message. A promise makes the message's state follow it: shown as sending, then sent (with the server's
   * id and time when it resolves to a receipt), or failed with the rejection's `message` as the reason, and retried
   * from there with `attempt` counting up. Without a promise the message counts as sent at once.
   */
  onSendMessage?: (message: SentMessage) => void | Promise<SendReceipt | void>;
  onTalkClick?: (chat: Chat) => void;
  onTalkUserClick?: (user: { id?: Chat['id']; name: string; avatar?: string }) => void;
  onChatInfo?: (chat: Chat) => void;
  /** Call `callback` with older messages (oldest first); an empty list means there is no more history. */
  onLoadHistory?: (chat: Chat, lastMessage: ChatMessage | null, callback: (older: ChatMessage[]) => void) => void;
  /** Call `callback` with the uploaded address; the widget inserts it as an img[...] or file(...)[...] token. */
  onUploadEvent?: (upload: { type: UploadKind; file: File; callback: (url: string) => void; chat: Chat }) => void;
  onChatTop?: (pinned: boolean) => void;
  onChatMin?: () => void;
  onChatMax?: () => void;
  onChatClose?: () => void;
  onClickGroupUser?: (member: GroupMember) => void;
  onAcceptFriend?: (data: SystemMessage, group: GroupOption | null) => void;
  onRejectFriend?: (data: SystemMessage) => void;
  onAddGroup?: (name: string) => void;
  onRenameGroup?: (id: FriendSection['id'], name: string) => void;
  onBuildChat?: (chat: Chat) => void;
  onApplyFriend?: (apply: { from: CurrentUser; to: { id?: Chat['id']; name: string; avatar?: string }; message: string; group: GroupOption | null }) => void;
  /** applyGroup and confirmGroup results, which spec §7 does not name separately. */
  onApplyResult?: (result: ApplyResult) => void;
  /** The contacts header "add friend"; the host finds the person and opens an applyFriend dialog via `apply`. */
  onAddFriendClick?: () => void;
};

export type ChatWidgetProps = ChatWidgetEvents & {
  mine: CurrentUser;
  /** The host's handle on the mounted widget: send it chat window events (see ChatWidget). */
  ref?: Ref<ChatWidgetHandle>;
  lang?: ChatLang;
  /** Channels to start with; when absent the widget restores IChat_key_channels. */
  chats?: Chat[];
  friends?: FriendSection[];
  groups?: Group[];
  /** Group choices for the applyFriend / confirmFriend dialogs. */
  groupOptions?: GroupOption[];
  /** Not draggable when true. */
  fixed?: boolean;
  mode?: 'normal' | 'mini';
  size?: { width: number; height: number };
  sendMode?: SendMode;
  voice?: boolean;
  /** Overrides the per-picker extension lists (spec §5). */
  uploadExtensions?: UploadExtensions;
  defaultAvatar?: string;
  /** Keep channels in session storage instead of local storage. */
  sessionStorage?: boolean;
  /** Opens one of the four apply/confirm dialogs; change the object to open another. */
  apply?: { kind: ApplyKind; info: ApplyInfo } | null;
  /** Attachment addresses that need the session to load (see media.tsx). */
  media?: MediaResolver;
  /** A URL of the new-message sound; a short tone is synthesised when absent. */
  soundUrl?: string;
};

export type { Friend };
