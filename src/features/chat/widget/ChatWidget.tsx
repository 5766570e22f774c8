import { ArrowsAltOutlined, CloseOutlined, FullscreenExitOutlined, FullscreenOutlined, MessageOutlined, MinusOutlined, PushpinFilled, PushpinOutlined, ShrinkOutlined, TeamOutlined } from '@ant-design/icons';
import { useActorRef, useSelector } from '@xstate/react';
import { appActorOptions } from '@/app/createAppActor';
import { Button, Space, Tooltip, message as antdMessage } from 'antd';
import { useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { chatKey, SYSTEM_CHAT_ID, type ApplyKind, type Chat, type ChatMessage, type GroupOption, type SystemMessage } from '@contract/chatWidget';
import {
  CHAT_WINDOW_Z_INDEX,
  chatWindowMachine,
  selectActiveKey,
  selectChannels,
  selectConversations,
  selectFrame,
} from '@machines/chatWindowMachine';
import { chatSendMachine, type DeliverInput, type SendReceipt } from '@machines/chatSendMachine';
import { conversationMachine, selectTabBadge, selectUnreadCount, type LoadHistoryInput } from '@machines/conversationMachine';
import { MessageBoxProvider, useMessageBox } from '@/components/message-box/MessageBox';
import { ApplyDialog, type ApplyDialogResult } from './ApplyDialog';
import { ContactsManager } from './ContactsManager';
import { ConversationTabs } from './ConversationTabs';
import { EntryBox } from './EntryBox';
import { GroupDrawer } from './GroupDrawer';
import { useWidgetTranslate, type Translate } from './translate';
import { MediaProvider } from './media';
import { MessageList } from './MessageList';
import { loadChannels, saveChannels } from './storage';
import { SystemMessages } from './SystemMessages';
import type { ApplyInfo, ChatWidgetProps, SendMode } from './types';
import { playMessageSound, showBrowserNotification, useNotificationPermission, usePageVisible, useTitleBlink } from './useUnreadAlerts';

type ConversationRef = ActorRefFrom<typeof conversationMachine>;

type OpenDialog = { kind: ApplyKind; info: ApplyInfo; resolve?: (r: ApplyDialogResult | null) => void };

/**
 * The chat widget: props in, events out. A host talks to a mounted widget through its chat window actor, given by
 * `ref`: `message.incoming` delivers a message (spec §7 getMessage), `channel.add` / `channel.replace` /
 * `channel.remove` manage the channel list, `message.bulk` loads many messages as history.
 */
export function ChatWidget(props: ChatWidgetProps) {
  return (
    <MessageBoxProvider lang={props.lang ?? 'zh'}>
      <MediaProvider value={props.media ?? null}>
        <ChatWidgetBody {...props} />
      </MediaProvider>
    </MessageBoxProvider>
  );
}

let messageSequence = 0;

const MINI_SIZE = { width: 380, height: 460 } as const;

function ChatWidgetBody(props: ChatWidgetProps) {
  const { lang = 'zh', mine, defaultAvatar } = props;
  const t = useWidgetTranslate(lang);
  const latest = useRef(props);
  latest.current = props;
  const messageBox = useMessageBox();

  const machine = useMemo(
    () =>
      chatWindowMachine.provide({
        actions: { persistChannels: ({ context }) => saveChannels(context.channels, latest.current.sessionStorage) },
        actors: {
          conversation: conversationMachine.provide({
            actors: {
              loadHistory: fromPromise<ChatMessage[], LoadHistoryInput>(
                ({ input }) =>
                  new Promise((resolve) => {
                    const handler = latest.current.onLoadHistory;
                    if (!handler) resolve([]);
                    else handler(input.chat, input.lastMessage, resolve);
                  }),
              ),
              chatSend: chatSendMachine.provide({
                actors: {
                  deliver: fromPromise<SendReceipt | void, DeliverInput>(async ({ input }) => {
                    const { mine: me, onSendMessage } = latest.current;
                    const { chat, message } = input;
                    return (
                      (await onSendMessage?.({
                        id: message.id,
                        attempt: input.attempt,
                        mine: { id: me.id, username: me.username, avatar: me.avatar, mine: true },
                        to: { id: chat.id, name: chat.name, type: chat.type, avatar: chat.avatar },
                        content: message.content,
                        type: 'text',
                        timestamp: message.timestamp,
                      })) ?? undefined
                    );
                  }),
                },
              }),
            },
          }),
        },
      }),
    [],
  );
  const actor = useActorRef(machine, {
    ...appActorOptions(),
    input: {
      channels: props.chats ?? loadChannels(props.sessionStorage) ?? [],
      fixed: props.fixed,
      mode: props.mode,
      size: props.size,
      pageVisible: typeof document === 'undefined' ? true : document.visibilityState !== 'hidden',
    },
  });
  const channels = useSelector(actor, selectChannels);
  const activeKey = useSelector(actor, selectActiveKey);
  const conversations = useSelector(actor, selectConversations);
  const frame = useSelector(actor, selectFrame);
  const context = useSelector(actor, (s) => s.context);
  const [sendMode, setSendMode] = useState<SendMode>(props.sendMode ?? 'enter');
  const [pageVisible, setPageVisible] = useState(true);
  const counts = useConversationCounts(conversations);
  const totalUnread = Object.values(counts).reduce((sum, c) => sum + c.unread, 0);

  // The host's handle on the widget.
  useImperativeHandle(props.ref, () => actor, [actor]);

  // Machine events out to the host.
  useEffect(() => {
    const subs = [
      actor.on('chatTop', (e) => latest.current.onChatTop?.(e.pinned)),
      actor.on('chatMin', () => latest.current.onChatMin?.()),
      actor.on('chatMax', () => latest.current.onChatMax?.()),
      actor.on('chatClose', () => latest.current.onChatClose?.()),
      actor.on('removeChat', (e) => latest.current.onRemoveChat?.(e.chat)),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actor]);

  // Sound and browser notification for other people's messages.
  useEffect(() => {
    const subs = Object.values(conversations).map((ref) =>
      ref.on('incoming', (e) => {
        if (latest.current.voice) playMessageSound(latest.current.soundUrl);
        const context = actor.getSnapshot().context;
        // Also on a visible page when the message is for a conversation other than the one being read.
        const elsewhere = context.page !== 'chat' || context.activeKey !== chatKey(e.chat);
        if (document.visibilityState === 'hidden' || elsewhere) {
          const unread = Object.values(actor.getSnapshot().context.conversations).reduce(
            (sum, r) => sum + selectUnreadCount(r.getSnapshot()),
            0,
          );
          showBrowserNotification(unread, t, latest.current.mine.avatar);
        }
      }),
    );
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actor, conversations, t]);

  usePageVisible((visible) => {
    setPageVisible(visible);
    actor.send({ type: 'page.visibility', visible });
  });
  useNotificationPermission();
  useTitleBlink(totalUnread, pageVisible, t);

  // Apply/confirm dialogs: the host's `apply` prop, or the confirmFriend step of a friend request.
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  useEffect(() => {
    if (props.apply) setDialog({ kind: props.apply.kind, info: props.apply.info });
  }, [props.apply]);

  const chooseGroup = useCallback(
    (request: SystemMessage) =>
      new Promise<GroupOption | null | undefined>((resolve) => {
        const joinsGroup = request.type === 'applyGroup';
        setDialog({
          kind: joinsGroup ? 'confirmGroup' : 'confirmFriend',
          info: {
            id: request.from.id,
            name: joinsGroup && request.group ? `${request.from.name} → ${request.group.name}` : request.from.name,
            avatar: request.from.avatar,
            options: joinsGroup ? undefined : latest.current.groupOptions,
          },
          resolve: (r) => {
            if (r) {
              void antdMessage.success(
                joinsGroup ? t('memberAdded', { name: request.from.name, group: request.group?.name ?? '' }) : t('friendAdded', { name: request.from.name }),
              );
            }
            resolve(r ? r.option : undefined);
          },
        });
      }),
    [t],
  );
  const confirmReject = useCallback(
    (request: SystemMessage) =>
      messageBox
        .confirm(
          request.type === 'applyGroup'
            ? t('rejectGroupConfirm', { name: request.from.name, group: request.group?.name ?? '' })
            : t('rejectFriendConfirm', { name: request.from.name }),
        )
        .then(
          () => true,
          () => false,
        ),
    [messageBox, t],
  );

  const closeDialog = (result: ApplyDialogResult | null) => {
    const current = dialog;
    setDialog(null);
    if (!current) return;
    if (current.resolve) return current.resolve(result);
    if (!result) return;
    const p = latest.current;
    if (current.kind === 'applyFriend') {
      p.onApplyFriend?.({
        from: p.mine,
        to: { id: current.info.id, name: current.info.name, avatar: current.info.avatar },
        message: result.value,
        group: result.option,
      });
    } else {
      p.onApplyResult?.({ kind: current.kind, info: current.info, value: result.value, option: result.option, action: 'confirm' });
    }
  };

  const { ref: _ref, ...paneProps } = props;
  const activeChat = channels.find((c) => chatKey(c) === activeKey) ?? null;
  const activeConversation = activeKey ? conversations[activeKey] : undefined;

  const sendText = (text: string) => {
    if (!activeChat || activeChat.type === 'sys_msg') return;
    const timestamp = Date.now();
    messageSequence += 1;
    const local: ChatMessage = {
      id: `local-${timestamp}-${messageSequence}`,
      userId: mine.id,
      username: mine.username,
      avatar: mine.avatar,
      mine: true,
      content: text,
      timestamp,
      type: 'text',
    };
    actor.send({ type: 'message.send', key: chatKey(activeChat), message: local });
  };

  const buildChat = (chat: Chat) => {
    actor.send({ type: 'channel.add', chat, activate: true });
    actor.send({ type: 'page.show', page: 'chat' });
    latest.current.onBuildChat?.(chat);
  };

  const drag = useDrag(context.fixed || frame !== 'normal', (position) => actor.send({ type: 'window.drag', position }));

  if (frame === 'closed') return null;
  const maximised = frame === 'maximised';
  const minimised = frame === 'minimised';
  const mini = context.mode === 'mini';
  const position = context.position;
  // Mini ("brief") mode is a compact window: one conversation, no tabs and no right box.
  const size = mini ? MINI_SIZE : context.size;
  const windowStyle = maximised
    ? { left: 0, top: 0, width: '100vw', height: '100vh' }
    : position
      ? { left: position.x, top: position.y, width: size.width, height: minimised ? 'auto' : size.height }
      : {
          left: '50%',
          top: '50%',
          transform: 'translate(-50%, -50%)',
          width: size.width,
          height: minimised ? 'auto' : size.height,
        };

  return (
    <section
      role="dialog"
      aria-label={activeChat?.name ?? t('chatPage')}
      className={mini ? 'ichat-window ichat-window-mini' : 'ichat-window'}
      style={{
        position: 'fixed',
        zIndex: context.pinned ? CHAT_WINDOW_Z_INDEX + 1000 : CHAT_WINDOW_Z_INDEX,
        background: '#fff',
        boxShadow: '0 4px 20px rgba(0,0,0,.2)',
        display: 'flex',
        flexDirection: 'column',
        ...windowStyle,
      }}
    >
      <header
        onPointerDown={drag}
        style={{ display: 'flex', alignItems: 'center', padding: '4px 8px', borderBottom: '1px solid #eee', cursor: context.fixed ? 'default' : 'move', userSelect: 'none' }}
      >
        <Space size={2}>
          <Button size="small" type={context.page === 'chat' ? 'primary' : 'text'} aria-label={t('chatPage')} onClick={() => actor.send({ type: 'page.show', page: 'chat' })}>
            <MessageOutlined />
          </Button>
          <Button size="small" type={context.page === 'manage' ? 'primary' : 'text'} aria-label={t('contactsPage')} onClick={() => actor.send({ type: 'page.show', page: 'manage' })}>
            <TeamOutlined />
          </Button>
          <Button size="small" type="text" aria-label={mini ? t('normal') : t('mini')} onClick={() => actor.send({ type: 'mode.set', mode: mini ? 'normal' : 'mini' })}>
            {mini ? <ArrowsAltOutlined /> : <ShrinkOutlined />}
          </Button>
        </Space>
        <div style={{ flex: 1, minWidth: 0, textAlign: 'center' }} onPointerDown={(e) => activeChat && activeChat.type !== 'sys_msg' && e.stopPropagation()}>
          {activeChat && activeChat.type !== 'sys_msg' && context.page === 'chat' ? (
            <Tooltip title={t('chatInfo')}>
              <button
                type="button"
                className="ichat-title"
                aria-label={`${t('chatInfo')}: ${activeChat.name}`}
                onClick={() => latest.current.onChatInfo?.(activeChat)}
              >
                {activeChat.type === 'friend' && activeChat.online !== undefined && (
                  <span className={activeChat.online ? 'ichat-dot ichat-dot-online' : 'ichat-dot'} aria-label={activeChat.online ? t('online') : t('offline')} />
                )}
                {activeChat.name}
              </button>
            </Tooltip>
          ) : (
            <strong className="ichat-title">{context.page === 'manage' ? t('contactsPage') : activeChat ? t('systemMessage') : t('chatPage')}</strong>
          )}
        </div>
        <Space size={2} onPointerDown={(e) => e.stopPropagation()}>
          <HeaderButton label={context.pinned ? t('unpin') : t('pin')} glyph={context.pinned ? <PushpinFilled /> : <PushpinOutlined />} onClick={() => actor.send({ type: 'window.pin' })} />
          <HeaderButton label={minimised ? t('restore') : t('minimise')} glyph={<MinusOutlined />} onClick={() => actor.send({ type: minimised ? 'window.restore' : 'window.minimise' })} />
          <HeaderButton label={maximised ? t('restore') : t('maximise')} glyph={maximised ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={() => actor.send({ type: 'window.maximise' })} />
          <HeaderButton label={t('close')} glyph={<CloseOutlined />} onClick={() => actor.send({ type: 'window.close' })} />
        </Space>
      </header>
      {!minimised && context.page === 'manage' && (
        <ContactsManager
          friends={props.friends ?? []}
          groups={props.groups ?? []}
          t={t}
          messageBox={messageBox}
          defaultAvatar={defaultAvatar}
          onBuildChat={buildChat}
          onAddGroup={props.onAddGroup}
          onRenameGroup={props.onRenameGroup}
          onAddFriendClick={props.onAddFriendClick}
        />
      )}
      {!minimised && context.page === 'chat' && (
        <div style={{ display: 'flex', flex: 1, minHeight: 0 }}>
          {channels.length === 0 ? (
            <p style={{ margin: 'auto', color: '#999' }}>{t('noConversations')}</p>
          ) : (
            <>
              {channels.length > 1 && !mini && (
                <ConversationTabs
                  channels={channels}
                  activeKey={activeKey}
                  badges={Object.fromEntries(Object.entries(counts).map(([k, c]) => [k, c.badge]))}
                  t={t}
                  defaultAvatar={defaultAvatar}
                  onActivate={(chat) => {
                    actor.send({ type: 'channel.activate', key: chatKey(chat) });
                    latest.current.onTalkClick?.(chat);
                  }}
                  onClose={(chat) => actor.send({ type: 'channel.remove', key: chatKey(chat) })}
                />
              )}
              {activeChat && activeConversation && (
                <ConversationPane
                  key={activeKey}
                  chat={activeChat}
                  conversation={activeConversation}
                  t={t}
                  sendMode={sendMode}
                  onSendModeChange={setSendMode}
                  onSend={sendText}
                  onCloseEntry={() => actor.send({ type: 'channel.remove', key: chatKey(activeChat) })}
                  rightBoxOpen={!context.rightBoxCollapsed && !mini}
                  mini={mini}
                  onToggleRightBox={() => actor.send({ type: 'rightBox.toggle' })}
                  chooseGroup={chooseGroup}
                  confirmReject={confirmReject}
                  {...paneProps}
                />
              )}
            </>
          )}
        </div>
      )}
      {dialog && (
        <ApplyDialog
          open
          kind={dialog.kind}
          info={dialog.info}
          t={t}
          lang={lang}
          onConfirm={(r) => closeDialog(r)}
          onCancel={() => closeDialog(null)}
        />
      )}
    </section>
  );
}

function HeaderButton({ label, glyph, onClick }: { label: string; glyph: ReactNode; onClick: () => void }) {
  return (
    <Tooltip title={label}>
      <Button size="small" type="text" aria-label={label} onClick={onClick}>
        {glyph}
      </Button>
    </Tooltip>
  );
}

type ConversationPaneProps = ChatWidgetProps & {
  chat: Chat;
  conversation: ConversationRef;
  t: Translate;
  sendMode: SendMode;
  onSendModeChange: (mode: SendMode) => void;
  onSend: (text: string) => void;
  onCloseEntry: () => void;
  rightBoxOpen: boolean;
  mini: boolean;
  onToggleRightBox: () => void;
  chooseGroup: (request: SystemMessage) => Promise<GroupOption | null | undefined>;
  confirmReject: (request: SystemMessage) => Promise<boolean>;
};

function ConversationPane({ chat, conversation, t, sendMode, onSendModeChange, onSend, onCloseEntry, rightBoxOpen, mini, onToggleRightBox, chooseGroup, confirmReject, ...props }: ConversationPaneProps) {
  if (chat.type === 'sys_msg' || chat.id === SYSTEM_CHAT_ID) {
    return (
      <SystemMessages
        messages={chat.messages ?? []}
        t={t}
        defaultAvatar={props.defaultAvatar}
        chooseGroup={chooseGroup}
        confirmReject={confirmReject}
        onAcceptFriend={props.onAcceptFriend}
        onRejectFriend={props.onRejectFriend}
      />
    );
  }
  return (
    <div style={{ display: 'flex', flex: 1, minWidth: 0 }}>
      <div style={{ display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0 }}>

        <MessageList conversation={conversation} t={t} defaultAvatar={props.defaultAvatar} onMention={(name) => props.onTalkUserClick?.({ name })} />
        <EntryBox
          t={t}
          lang={props.lang ?? 'zh'}
          sendMode={sendMode}
          onSendModeChange={onSendModeChange}
          onSend={onSend}
          onClose={onCloseEntry}
          uploadExtensions={props.uploadExtensions}
          onUpload={props.onUploadEvent ? (upload) => props.onUploadEvent?.({ ...upload, chat }) : undefined}
          compact={mini}
          reply={chat.reply}
        />
      </div>
      {chat.type === 'group' && !mini && (
        // The right box: the group's notices and members, collapsible to a thin handle.
        <Tooltip title={rightBoxOpen ? t('collapseRight') : t('expandRight')} placement="left">
          <button
            type="button"
            className="ichat-rightbox-toggle"
            aria-label={rightBoxOpen ? t('collapseRight') : t('expandRight')}
            aria-expanded={rightBoxOpen}
            onClick={onToggleRightBox}
          >
            {rightBoxOpen ? '›' : '‹'}
          </button>
        </Tooltip>
      )}
      {chat.type === 'group' && rightBoxOpen && (
        <GroupDrawer chat={chat} mine={props.mine} t={t} defaultAvatar={props.defaultAvatar} onClickGroupUser={props.onClickGroupUser} />
      )}
    </div>
  );
}

type Counts = Record<string, { unread: number; badge: number }>;

function useConversationCounts(conversations: Record<string, ConversationRef>): Counts {
  const read = useCallback(
    () =>
      Object.fromEntries(
        Object.entries(conversations).map(([key, ref]) => {
          const snapshot = ref.getSnapshot();
          return [key, { unread: selectUnreadCount(snapshot), badge: selectTabBadge(snapshot) }];
        }),
      ),
    [conversations],
  );
  const [counts, setCounts] = useState<Counts>(read);
  useEffect(() => {
    setCounts(read());
    const subs = Object.values(conversations).map((ref) => ref.subscribe(() => setCounts(read())));
    return () => subs.forEach((s) => s.unsubscribe());
  }, [conversations, read]);
  return counts;
}

/** Pointer dragging of the window by its header; the machine refuses moves while fixed. */
function useDrag(disabled: boolean, move: (position: { x: number; y: number }) => void) {
  return (e: ReactPointerEvent<HTMLElement>) => {
    if (disabled || e.button !== 0) return;
    const windowEl = e.currentTarget.parentElement;
    if (!windowEl) return;
    const rect = windowEl.getBoundingClientRect();
    const dx = e.clientX - rect.left;
    const dy = e.clientY - rect.top;
    const onMove = (ev: PointerEvent) =>
      move({ x: Math.max(0, ev.clientX - dx), y: Math.max(0, ev.clientY - dy) });
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };
}
