import { MessageOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Spin } from 'antd';
import { proxy } from 'comlink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { BuyerChat, ChatListData, ContactsOverview, TeamGroup, TeamFriend } from '@contract/chat';
import { chatKey, type ApplyKind, type Chat, type ChatMessage } from '@contract/chatWidget';
import { CHAT_UPLOAD_PATHS, storedNameOfUrl, UPLOAD_EXTENSIONS } from '@contract/chatUpload';
import { useTranslation } from 'react-i18next';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { AddFriendDialog } from './AddFriendDialog';
import {
  buyerChat,
  type ChatT,
  buyerMessage,
  buyerMessageId,
  friendChat,
  friendSections,
  groupChat,
  parseBuyerChatId,
  parseRequestKey,
  refreshedChat,
  uploadConversation,
  sectionOptions,
  systemChat,
  teamMessage,
  widgetGroups,
} from './adapters';
import { ChatSidebar } from './ChatSidebar';
import { createChatSender } from './send';
import { CHAT_MODAL_Z_INDEX } from './layers';
import { ChatWidget } from './widget/ChatWidget';
import type { MediaResolver } from './widget/media';
import type { ApplyInfo, ChatWidgetHandle } from './widget/types';
import './chat.css';

const HISTORY_ROWS = 30;

/**
 * /chat-manager/chat-list: the chat widget hosted over the seller's buyer chats (every shop, unread counts per shop)
 * and the team's friends and groups. The widget makes no calls: its events become worker calls here, and the
 * server's pushes ('chat.*') become widget messages.
 */
export function ChatListPage() {
  const client = useDataClient();
  const { t, i18n } = useTranslation('chat');
  const lang = toLang(i18n.language);
  const { message, modal } = App.useApp();
  /** The mounted widget's chat window actor: the page sends it the channels and the incoming messages. */
  const widgetRef = useRef<ChatWidgetHandle>(null);
  const [overview, setOverview] = useState<ContactsOverview | null>(null);
  const [buyers, setBuyers] = useState<ChatListData | null>(null);
  const [apply, setApply] = useState<{ kind: ApplyKind; info: ApplyInfo } | null>(null);
  const [addFriendOpen, setAddFriendOpen] = useState(false);
  const [createGroupOpen, setCreateGroupOpen] = useState(false);
  // Closing the window unmounts the widget; opening a chat mounts a fresh one over the open conversations.
  const [widget, setWidget] = useState({ open: true, key: 0 });
  // What the widget shows, as the host knows it: open conversations by key and the active one.
  const open = useRef(new Map<string, Chat>());
  const active = useRef<string | null>(null);
  const latest = useRef({ overview, buyers, t });
  latest.current = { overview, buyers, t };
  const sender = useMemo(() => createChatSender(client.chat), [client]);
  const media = useChatFiles(client);

  const loadOverview = useCallback(async () => {
    try {
      setOverview(await client.chat.overview());
    } catch {
      // The worker showed the reason.
    }
  }, [client]);
  const loadBuyers = useCallback(async () => {
    try {
      setBuyers(await client.chat.buyerList());
    } catch {
      // The worker showed the reason.
    }
  }, [client]);

  useEffect(() => {
    void loadOverview();
    void loadBuyers();
  }, [loadOverview, loadBuyers]);

  // Keep the open conversations' chats (system tab, online state, members) in step with the overview. The window
  // starts on the system tab, so waiting applications are the first thing seen.
  const seeded = useRef(false);
  useEffect(() => {
    if (!overview) return;
    if (!seeded.current) {
      seeded.current = true;
      if (open.current.size === 0) open.current.set(chatKey(systemChat(overview, t)), systemChat(overview, t));
    }
    if (open.current.size === 0) return;
    const chats = [...open.current.values()].map((c) => refreshedChat(c, overview, t));
    for (const chat of chats) open.current.set(chatKey(chat), chat);
    widgetRef.current?.send({ type: 'channel.replace', channels: chats });
  }, [overview, t]);

  /** A chat's new unread count; `toTop` moves it first in its shop, as the marketplace orders chats by their last message. */
  const setBuyerUnread = useCallback((storeId: number, chatId: string, unread: number, toTop = false) => {
    setBuyers((current) => {
      if (!current) return current;
      const shops = current.shops.map((shop) => {
        if (shop.storeId !== storeId) return shop;
        let chats = shop.chats.map((c) => (c.chatId === chatId ? { ...c, unread } : c));
        if (toTop) chats = [...chats.filter((c) => c.chatId === chatId), ...chats.filter((c) => c.chatId !== chatId)];
        return { ...shop, chats, unread: chats.reduce((sum, c) => sum + c.unread, 0) };
      });
      return { ...current, shops, totalUnread: shops.reduce((sum, s) => sum + s.unread, 0) };
    });
  }, []);

  /** The server's read mark for a conversation the user is looking at. */
  const markRead = useCallback(
    async (chat: Chat, lastId?: number) => {
      const buyer = parseBuyerChatId(chat.id);
      try {
        if (buyer) {
          const { unread } = await client.chat.buyerRead(buyer);
          setBuyerUnread(buyer.storeId, buyer.chatId, unread);
        } else if (chat.type !== 'sys_msg') {
          const kind = chat.type === 'group' ? 'group' : 'friend';
          let messageId = lastId;
          if (messageId === undefined) messageId = (await client.chat.history({ kind, id: Number(chat.id), rows: 1 })).messages.at(-1)?.id;
          if (messageId === undefined) return;
          const { unread } = await client.chat.read({ kind, id: Number(chat.id), messageId });
          setOverview((current) => (current ? { ...current, unread: { ...current.unread, [`${kind}:${chat.id}`]: unread } } : current));
        }
      } catch {
        // A read mark that fails is retried at the next look.
      }
    },
    [client, setBuyerUnread],
  );

  const openChat = useCallback(
    (chat: Chat) => {
      open.current.set(chatKey(chat), chat);
      active.current = chatKey(chat);
      setWidget((w) => (w.open ? w : { open: true, key: w.key + 1 }));
      widgetRef.current?.send({ type: 'channel.add', chat, activate: true });
      void markRead(chat);
    },
    [markRead],
  );

  // Server pushes to the widget.
  useEffect(() => {
    const subscriptions = [
      client.subscribe(
        'chat.message',
        proxy(({ message: incoming }) => {
          const now = latest.current.overview;
          if (!now) return;
          const own = incoming.sender.id === now.me.id;
          if (own && sender.isOwnEcho(incoming.clientKey)) return;
          let chat: Chat;
          if (incoming.kind === 'group') {
            const group = now.groups.find((g) => g.id === incoming.toId);
            chat = group ? groupChat(group) : { id: incoming.toId, type: 'group', name: String(incoming.toId) };
          } else {
            // My own message from another page belongs to the conversation with its addressee.
            const otherId = own ? incoming.toId : incoming.sender.id;
            const friend = now.sections.flatMap((s) => s.friends).find((f) => f.id === otherId);
            chat = friend ? friendChat(friend) : { id: otherId, type: 'friend', name: own ? String(otherId) : incoming.sender.name };
          }
          const key = chatKey(chat);
          if (!open.current.has(key)) open.current.set(key, chat);
          widgetRef.current?.send({ type: 'message.incoming', message: { ...teamMessage(incoming, now.me.id), chat } });
          if (own) return;
          if (active.current === key && document.visibilityState === 'visible') void markRead(chat, incoming.id);
          else {
            const unreadKey = `${incoming.kind}:${chat.id}`;
            setOverview((current) => (current ? { ...current, unread: { ...current.unread, [unreadKey]: (current.unread[unreadKey] ?? 0) + 1 } } : current));
          }
        }),
      ),
      client.subscribe(
        'chat.buyerMessage',
        proxy(({ message: incoming, unread }) => {
          // This page's own reply, echoed to the seller's pages: shown here already.
          if (incoming.from === 'seller' && sender.isOwnEcho(incoming.clientKey)) return;
          const shop = latest.current.buyers?.shops.find((s) => s.storeId === incoming.storeId);
          const shopName = shop?.name ?? '';
          const known = shop?.chats.find((c) => c.chatId === incoming.chatId);
          const chat = buyerChat({ storeId: incoming.storeId, chatId: incoming.chatId, chatType: known?.chatType ?? 'Buyer_Seller' }, shopName, latest.current.t);
          const key = chatKey(chat);
          if (!open.current.has(key)) open.current.set(key, chat);
          if (!known) void loadBuyers();
          setBuyerUnread(incoming.storeId, incoming.chatId, unread, true);
          widgetRef.current?.send({ type: 'message.incoming', message: { ...buyerMessage(incoming, shopName, latest.current.t), chat } });
          if (incoming.from !== 'seller' && active.current === key && document.visibilityState === 'visible') void markRead(chat);
        }),
      ),
      client.subscribe('chat.request', proxy(() => void loadOverview())),
      client.subscribe('chat.contacts', proxy(() => void loadOverview())),
      client.subscribe(
        'chat.presence',
        proxy(({ userId, online }) =>
          setOverview((current) =>
            current
              ? {
                  ...current,
                  sections: current.sections.map((s) => ({ ...s, friends: s.friends.map((f) => (f.id === userId ? { ...f, online } : f)) })),
                  groups: current.groups.map((g) => ({ ...g, members: g.members.map((m) => (m.id === userId ? { ...m, online } : m)) })),
                }
              : current,
          ),
        ),
      ),
    ];
    return () => subscriptions.forEach((s) => void s.then((off) => off()));
  }, [client, sender, loadOverview, loadBuyers, markRead, setBuyerUnread]);

  const onUploadEvent = useCallback(
    async ({ type, file, callback, chat }: { type: 'image' | 'file'; file: File; callback: (url: string) => void; chat: Chat }) => {
      const conversation = uploadConversation(chat);
      if (!conversation) return;
      const hide = message.loading(latest.current.t('uploading'), 0);
      try {
        const uploaded = await client.chat.upload(type, conversation, file);
        callback(uploaded.url);
      } catch {
        // The worker showed the server's reason (type, size, not in the conversation).
      } finally {
        hide();
      }
    },
    [client, message],
  );

  const onLoadHistory = useCallback(
    async (chat: Chat, lastMessage: ChatMessage | null, callback: (older: ChatMessage[]) => void) => {
      const now = latest.current;
      const buyer = parseBuyerChatId(chat.id);
      try {
        if (buyer) {
          const shopName = now.buyers?.shops.find((s) => s.storeId === buyer.storeId)?.name ?? '';
          const page = await client.chat.buyerHistory({ ...buyer, before: buyerMessageId(lastMessage), rows: HISTORY_ROWS });
          callback(page.messages.map((m) => buyerMessage(m, shopName, now.t)));
        } else if (chat.type !== 'sys_msg' && now.overview) {
          const before = typeof lastMessage?.id === 'number' ? lastMessage.id : undefined;
          const page = await client.chat.history({ kind: chat.type === 'group' ? 'group' : 'friend', id: Number(chat.id), before, rows: HISTORY_ROWS });
          callback(page.messages.map((m) => teamMessage(m, now.overview!.me.id)));
        } else {
          callback([]);
        }
        if (!lastMessage) void markRead(chat);
      } catch {
        callback([]);
      }
    },
    [client, markRead],
  );

  const act = useCallback(
    async (run: () => Promise<string | null>) => {
      try {
        const done = await run();
        if (done) void message.success(done);
      } catch {
        // The worker showed the reason.
      }
      void loadOverview();
    },
    [loadOverview, message],
  );

  const applyDialog = (kind: ApplyKind, info: ApplyInfo) => {
    setAddFriendOpen(false);
    // A new object each time, so the same person can be asked again after a cancel.
    setApply({ kind, info: { ...info } });
  };

  if (!overview) {
    return (
      <div className="chat-page chat-page-loading">
        <Spin />
      </div>
    );
  }

  const options = sectionOptions(overview);
  return (
    <div className="chat-page">
      <ChatSidebar
        buyers={buyers}
        overview={overview}
        onOpenBuyer={(chat: BuyerChat, shopName: string) => openChat(buyerChat(chat, shopName, t))}
        onOpenFriend={(friend: TeamFriend) => openChat(friendChat(friend))}
        onOpenGroup={(group: TeamGroup) => openChat(groupChat(group))}
        onOpenSystem={() => openChat(systemChat(overview, t))}
        onAddFriend={() => setAddFriendOpen(true)}
        onCreateGroup={() => setCreateGroupOpen(true)}
        onRefresh={() => {
          void loadBuyers();
          void loadOverview();
        }}
      />
      <div className="chat-stage">
        {!widget.open && (
          <Button type="primary" icon={<MessageOutlined />} onClick={() => setWidget((w) => ({ open: true, key: w.key + 1 }))}>
            {t('openChat')}
          </Button>
        )}
      </div>
      {widget.open && (
        <ChatWidget
          key={widget.key}
          lang={lang}
          ref={widgetRef}
          mine={{ id: overview.me.id, username: overview.me.name, avatar: overview.me.avatar || undefined, sign: overview.me.introduction }}
          chats={[...open.current.values()]}
          friends={friendSections(overview)}
          groups={widgetGroups(overview)}
          groupOptions={options}
          size={{ width: 640, height: 560 }}
          voice
          apply={apply}
          onSendMessage={sender.send}
          onLoadHistory={(chat, last, callback) => void onLoadHistory(chat, last, callback)}
          onTalkClick={(chat) => {
            active.current = chatKey(chat);
            void markRead(chat);
          }}
          onBuildChat={(chat) => openChat(refreshedChat(chat, overview, t))}
          onRemoveChat={(chat) => {
            open.current.delete(chatKey(chat));
            if (active.current === chatKey(chat)) active.current = null;
          }}
          onChatClose={() => {
            open.current.clear();
            active.current = null;
            setWidget((w) => ({ open: false, key: w.key }));
          }}
          onAcceptFriend={(data, group) =>
            void act(async () => {
              const request = parseRequestKey(data.id);
              if (!request) return null;
              if (request.kind === 'group') await client.chat.decideGroup(request.id, true);
              else await client.chat.acceptFriend({ requestId: request.id, sectionId: group ? Number(group.value) : undefined });
              return null;
            })
          }
          onRejectFriend={(data) =>
            void act(async () => {
              const request = parseRequestKey(data.id);
              if (!request) return null;
              if (request.kind === 'group') await client.chat.decideGroup(request.id, false);
              else await client.chat.rejectFriend(request.id);
              return null;
            })
          }
          onAddGroup={(name) => void act(async () => (await client.chat.addSection(name), t('sectionAdded', { name })))}
          onRenameGroup={(id, name) => void act(async () => (await client.chat.renameSection(Number(id), name), null))}
          onApplyFriend={({ to, message: text, group }) =>
            void act(async () => {
              await client.chat.applyFriend({ toId: Number(to.id), message: text, sectionId: group ? Number(group.value) : undefined });
              return t('requestSent');
            })
          }
          onApplyResult={(result) =>
            void act(async () => {
              if (result.kind !== 'applyGroup') return null;
              await client.chat.applyGroup(Number(result.info.id), result.value);
              return t('requestSent');
            })
          }
          onAddFriendClick={() => setAddFriendOpen(true)}
          onClickGroupUser={(member) => {
            const friend = overview.sections.flatMap((s) => s.friends).find((f) => f.id === member.id);
            if (friend) openChat(friendChat(friend));
          }}
          onUploadEvent={(upload) => void onUploadEvent(upload)}
          uploadExtensions={UPLOAD_EXTENSIONS}
          media={media}
          onChatInfo={(chat) => {
            const rows = chatInfoRows(chat, overview, buyers, t);
            modal.info({
              title: `${t('chatInfo')} · ${chat.name}`,
              zIndex: CHAT_MODAL_Z_INDEX,
              maskClosable: true,
              content: (
                <dl className="chat-info">
                  {rows.map(([label, value]) => (
                    <div key={label}>
                      <dt>{label}</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
              ),
            });
          }}
        />
      )}
      <AddFriendDialog
        open={addFriendOpen}
        onClose={() => setAddFriendOpen(false)}
        onApplyFriend={(user) => applyDialog('applyFriend', { id: user.id, name: user.name, avatar: user.avatar || undefined, options })}
        onApplyGroup={(group) => applyDialog('applyGroup', { id: group.id, name: group.name })}
      />
      <CreateGroupDialog
        open={createGroupOpen}
        onClose={() => setCreateGroupOpen(false)}
        onCreate={(name, introduction) =>
          void act(async () => {
            await client.chat.createGroup({ name, introduction });
            setCreateGroupOpen(false);
            return t('groupCreated', { name });
          })
        }
      />
    </div>
  );
}

type CreateGroupDialogProps = {
  open: boolean;
  onClose: () => void;
  onCreate: (name: string, introduction: string) => void;
};

function CreateGroupDialog({ open, onClose, onCreate }: CreateGroupDialogProps) {
  const { t } = useTranslation('chat');
  const [form] = Form.useForm<{ name: string; introduction?: string }>();
  return (
    <Modal open={open} title={t('createGroup')} zIndex={CHAT_MODAL_Z_INDEX} onCancel={onClose} onOk={() => form.submit()} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false} onFinish={(values) => onCreate(values.name.trim(), values.introduction?.trim() ?? '')}>
        <Form.Item name="name" label={t('groupName')} rules={[{ required: true, whitespace: true, max: 32 }]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="introduction" label={t('groupIntroduction')} rules={[{ max: 200 }]}>
          <Input.TextArea maxLength={200} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Attachments on our server need the session: the worker fetches them and the page shows them as object URLs,
 * kept for the page's life (a conversation scrolled back and forth does not fetch twice).
 */
function useChatFiles(client: ReturnType<typeof useDataClient>): MediaResolver {
  const cache = useRef(new Map<string, Promise<string>>());
  useEffect(() => {
    const urls = cache.current;
    return () => {
      for (const url of urls.values()) void url.then((u) => URL.revokeObjectURL(u), () => undefined);
      urls.clear();
    };
  }, []);
  return useMemo(
    () => ({
      handles: (url) => url.startsWith(`${CHAT_UPLOAD_PATHS.file}/`) && storedNameOfUrl(url) !== null,
      resolve: (url) => {
        let loading = cache.current.get(url);
        if (!loading) {
          loading = client.chat.file(url).then(({ bytes, contentType }) => URL.createObjectURL(new Blob([bytes], { type: contentType })));
          loading.catch(() => cache.current.delete(url));
          cache.current.set(url, loading);
        }
        return loading;
      },
    }),
    [client],
  );
}

/** What the conversation-info dialog lists for a buyer chat, a friend or a group. */
function chatInfoRows(chat: Chat, overview: ContactsOverview, buyers: ChatListData | null, t: ChatT): [string, string][] {
  const buyer = parseBuyerChatId(chat.id);
  if (buyer) {
    const shop = buyers?.shops.find((s) => s.storeId === buyer.storeId);
    const known = shop?.chats.find((c) => c.chatId === buyer.chatId);
    return [
      [t('shop'), shop?.name ?? String(buyer.storeId)],
      ['ID', buyer.chatId],
      [t('chatStatus'), known?.status.toLowerCase() === 'closed' ? t('closed') : t('opened')],
    ];
  }
  if (chat.type === 'group') {
    const group = overview.groups.find((g) => g.id === chat.id);
    const members = group?.members ?? [];
    return [
      [t('groupName'), chat.name],
      [t('membersLabel'), t('members', { online: members.filter((m) => m.online).length, total: members.length })],
      [t('introductionLabel'), group?.introduction || '—'],
    ];
  }
  const friend = overview.sections.flatMap((s) => s.friends).find((f) => f.id === chat.id);
  return [
    [t('statusLabel'), friend?.online ? t('online') : t('offline')],
    [t('introductionLabel'), friend?.introduction || t('noIntroduction')],
  ];
}
