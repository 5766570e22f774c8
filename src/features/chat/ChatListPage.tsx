import { MessageOutlined } from '@ant-design/icons';
import { App, Button, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_ENDPOINTS, type BuyerChat, type TeamFriend, type TeamGroup } from '@contract/chat';
import { chatKey, type ApplyKind, type SentMessage } from '@contract/chatWidget';
import { UPLOAD_EXTENSIONS } from '@contract/chatUpload';
import { useDataClient } from '@/app/dataClient';
import { useGranted } from '@/app/granted';
import { toLang } from '@/app/i18n';
import { AddFriendDialog } from './AddFriendDialog';
import { buyerChat, friendChat, friendSections, groupChat, refreshedChat, sectionOptions, systemChat, widgetGroups } from './adapters';
import { ChatInfoList, chatInfoRows } from './chatInfo';
import { ChatSidebar } from './ChatSidebar';
import { CreateGroupDialog } from './CreateGroupDialog';
import { CHAT_MODAL_Z_INDEX } from './layers';
import { createChatSender } from './send';
import { useBuyerChats } from './useBuyerChats';
import { useChatFiles } from './useChatFiles';
import { useChatPushes } from './useChatPushes';
import { useChatWindow } from './useChatWindow';
import { useContacts } from './useContacts';
import { useReplyWindows } from './useReplyWindows';
import { useTeamActions } from './useTeamActions';
import { ChatWidget } from './widget/ChatWidget';
import type { ApplyInfo } from './widget/types';
import './chat.css';

/**
 * /chat-manager/chat-list: the chat widget hosted over the seller's buyer chats (every shop, unread counts per shop)
 * and the team's friends and groups. The widget makes no calls: its events become worker calls here (the hooks
 * beside this file), and the server's pushes ('chat.*') become widget messages.
 */
export function ChatListPage() {
  const client = useDataClient();
  const { t, i18n } = useTranslation('chat');
  const lang = toLang(i18n.language);
  const { modal } = App.useApp();
  const contacts = useContacts(client);
  const buyerChats = useBuyerChats(client);
  const { overview } = contacts;
  const { buyers } = buyerChats;
  const [apply, setApply] = useState<{ kind: ApplyKind; info: ApplyInfo } | null>(null);
  const [addFriendOpen, setAddFriendOpen] = useState(false);
  const [createGroupOpen, setCreateGroupOpen] = useState(false);
  const sender = useMemo(() => createChatSender(client.chat), [client]);
  const media = useChatFiles(client);
  const team = useTeamActions(client, t, contacts.reload);
  const state = useRef({ overview, buyers });
  state.current = { overview, buyers };

  // A member whose role does not answer buyers reads the chats; the box is closed and says why (the server refuses too).
  const mayReply = useGranted()(CHAT_ENDPOINTS.send);
  const refreshReply = useReplyWindows(client, (chatId, reply) => chatWindow.setReply(chatId, reply), mayReply ? null : t('replyNotGranted'));
  const chatWindow = useChatWindow({
    client,
    t,
    now: () => state.current,
    setBuyerUnread: buyerChats.setUnread,
    setContactsUnread: contacts.setUnread,
    onOpenBuyer: (chat) => void refreshReply(String(chat.id)),
  });

  useChatPushes(client, sender, () => ({
    overview: state.current.overview,
    buyers: state.current.buyers,
    t,
    widget: chatWindow.widgetRef,
    open: chatWindow.open.current,
    active: chatWindow.active.current,
    markRead: (chat, lastId) => void chatWindow.markRead(chat, lastId),
    setBuyerUnread: buyerChats.setUnread,
    addContactsUnread: (key) => contacts.setUnread(key, (held) => held + 1),
    setOnline: contacts.setOnline,
    reloadOverview: () => void contacts.reload(),
    reloadBuyers: () => void buyerChats.reload(),
    onBuyerWrote: (chat) => void refreshReply(String(chat.id)),
  }));

  // Keep the open conversations' chats (system tab, online state, members) in step with the overview. The window
  // starts on the system tab, so waiting applications are the first thing seen.
  const seeded = useRef(false);
  const { open, replaceChats } = chatWindow;
  useEffect(() => {
    if (!overview) return;
    if (!seeded.current) {
      seeded.current = true;
      if (open.current.size === 0) open.current.set(chatKey(systemChat(overview, t)), systemChat(overview, t));
    }
    replaceChats([...open.current.values()].map((c) => refreshedChat(c, overview, t)));
  }, [overview, t, open, replaceChats]);

  // A send Ozon refuses (the reply window has closed meanwhile): the box learns why at once.
  const send = useMemo(
    () => async (sent: SentMessage) => {
      try {
        return await sender.send(sent);
      } catch (error) {
        void refreshReply(String(sent.to.id));
        throw error;
      }
    },
    [sender, refreshReply],
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
        onOpenBuyer={(chat: BuyerChat, shopName: string) => chatWindow.openChat(buyerChat(chat, shopName, t))}
        onOpenFriend={(friend: TeamFriend) => chatWindow.openChat(friendChat(friend))}
        onOpenGroup={(group: TeamGroup) => chatWindow.openChat(groupChat(group))}
        onOpenSystem={() => chatWindow.openChat(systemChat(overview, t))}
        onAddFriend={() => setAddFriendOpen(true)}
        onCreateGroup={() => setCreateGroupOpen(true)}
        onRefresh={() => {
          void buyerChats.reload();
          void contacts.reload();
        }}
      />
      <div className="chat-stage">
        {!chatWindow.widget.open && (
          <Button type="primary" icon={<MessageOutlined />} onClick={chatWindow.reopen}>
            {t('openChat')}
          </Button>
        )}
      </div>
      {chatWindow.widget.open && (
        <ChatWidget
          key={chatWindow.widget.key}
          lang={lang}
          ref={chatWindow.widgetRef}
          mine={{ id: overview.me.id, username: overview.me.name, avatar: overview.me.avatar || undefined, sign: overview.me.introduction }}
          chats={[...open.current.values()]}
          friends={friendSections(overview)}
          groups={widgetGroups(overview)}
          groupOptions={options}
          size={{ width: 640, height: 560 }}
          voice
          apply={apply}
          onSendMessage={send}
          onLoadHistory={(chat, last, callback) => void chatWindow.onLoadHistory(chat, last, callback)}
          onTalkClick={chatWindow.onTalkClick}
          onBuildChat={(chat) => chatWindow.openChat(refreshedChat(chat, overview, t))}
          onRemoveChat={chatWindow.onRemoveChat}
          onChatClose={chatWindow.onClose}
          onAcceptFriend={team.onAcceptFriend}
          onRejectFriend={team.onRejectFriend}
          onAddGroup={team.onAddGroup}
          onRenameGroup={team.onRenameGroup}
          onApplyFriend={team.onApplyFriend}
          onApplyResult={team.onApplyResult}
          onAddFriendClick={() => setAddFriendOpen(true)}
          onClickGroupUser={(member) => {
            const friend = overview.sections.flatMap((s) => s.friends).find((f) => f.id === member.id);
            if (friend) chatWindow.openChat(friendChat(friend));
          }}
          onUploadEvent={(upload) => void chatWindow.onUpload(upload)}
          uploadExtensions={UPLOAD_EXTENSIONS}
          media={media}
          onChatInfo={(chat) =>
            void modal.info({
              title: `${t('chatInfo')} · ${chat.name}`,
              zIndex: CHAT_MODAL_Z_INDEX,
              maskClosable: true,
              content: <ChatInfoList rows={chatInfoRows(chat, overview, buyers, t)} />,
            })
          }
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
        onCreate={(name, introduction) => team.createGroup(name, introduction, () => setCreateGroupOpen(false))}
      />
    </div>
  );
}
