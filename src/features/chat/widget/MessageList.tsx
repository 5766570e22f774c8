import { useVirtualizer } from '@tanstack/react-virtual';
import { CopyOutlined, DeleteOutlined, ExclamationCircleFilled, RedoOutlined } from '@ant-design/icons';
import { useSelector } from '@xstate/react';
import { Avatar, Button, Space, Spin } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectDelivery, type Delivery } from '@machines/chatSendMachine';
import {
  selectChat,
  selectHistoryExhausted,
  selectIsLoadingHistory,
  selectMessages,
  selectSends,
  type ChatSendRef,
  type conversationMachine,
} from '@machines/conversationMachine';
import type { ChatMessage } from '@contract/chatWidget';
import { useFormats } from '@/app/formats';
import { anchorIndexAfterPrepend, animateScrollTop, isAtBottom, isHistoryLocked } from './history';
import type { Translate } from './translate';
import { copyToClipboard } from './CopyText';
import { MessageContent } from './MessageContent';
import { MessageScopeProvider } from './media';

type MessageListProps = {
  conversation: ActorRefFrom<typeof conversationMachine>;
  t: Translate;
  defaultAvatar?: string;
  onMention?: (name: string) => void;
};

const ESTIMATED_ROW_PX = 72;

/** Virtualised so a conversation of 100,000 messages renders only what is on screen. */
export function MessageList({ conversation, t, defaultAvatar, onMention }: MessageListProps) {
  const messages = useSelector(conversation, selectMessages);
  const sends = useSelector(conversation, selectSends);
  const loading = useSelector(conversation, selectIsLoadingHistory);
  const exhausted = useSelector(conversation, selectHistoryExhausted);
  const chat = useSelector(conversation, selectChat);
  const scope = useMemo(() => ({ chat, t }), [chat, t]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const lastHistoryRequest = useRef<number | null>(null);

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (i) => String(messages[i]?.id ?? i),
    overscan: 8,
  });

  // History prepended: show the message that was on top before, where it was.
  useEffect(() => {
    const sub = conversation.on('historyPrepended', ({ count }) => {
      const top = virtualizer.getVirtualItems()[0]?.index ?? 0;
      requestAnimationFrame(() => virtualizer.scrollToIndex(anchorIndexAfterPrepend(top, count), { align: 'start' }));
    });
    // The recent history on opening: show its end, as a chat opens on its newest message.
    const recent = conversation.on('recentLoaded', () => {
      stickToBottom.current = true;
      requestAnimationFrame(() => {
        const count = conversation.getSnapshot().context.messages.length;
        if (count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
      });
    });
    return () => {
      sub.unsubscribe();
      recent.unsubscribe();
    };
  }, [conversation, virtualizer]);

  // New message while at the bottom: follow it.
  useLayoutEffect(() => {
    if (stickToBottom.current && messages.length > 0) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, virtualizer]);

  // Messages scrolled into view count as read (the machine ignores this while the page is hidden).
  const visible = virtualizer.getVirtualItems();
  const firstVisible = visible[0]?.index;
  const lastVisible = visible.at(-1)?.index;
  useEffect(() => {
    if (firstVisible === undefined || lastVisible === undefined) return;
    const ids = messages.slice(firstVisible, lastVisible + 1).filter((m) => !m.mine).map((m) => m.id);
    if (ids.length > 0) conversation.send({ type: 'conversation.seen', ids });
  }, [conversation, messages, firstVisible, lastVisible]);

  // A send's mark (the reason and its actions) makes its row taller: a reader at the bottom keeps seeing all of it.
  const followIfAtBottom = useCallback(
    () =>
      requestAnimationFrame(() => {
        const count = conversation.getSnapshot().context.messages.length;
        if (stickToBottom.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
      }),
    [conversation, virtualizer],
  );

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = isAtBottom(el.scrollTop, el.clientHeight, el.scrollHeight);
    if (atBottom !== stickToBottom.current) {
      stickToBottom.current = atBottom;
      conversation.send({ type: 'conversation.scrolled', atBottom });
    }
  };

  return (
    <div className="ichat-message-list" style={{ position: 'relative', flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
      <div ref={scrollRef} onScroll={onScroll} style={{ flex: 1, overflow: 'auto' }} role="log" aria-live="polite">
        <div style={{ textAlign: 'center', padding: 6 }}>
          {exhausted ? (
            <span style={{ color: '#999' }}>{t('noMoreHistory')}</span>
          ) : (
            <Button
              type="link"
              size="small"
              loading={loading}
              onClick={() => {
                if (isHistoryLocked(lastHistoryRequest.current, Date.now())) return;
                lastHistoryRequest.current = Date.now();
                conversation.send({ type: 'conversation.historyRequested' });
              }}
            >
              {t('viewMore')}
            </Button>
          )}
        </div>
        <MessageScopeProvider value={scope}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {visible.map((item) => {
              const message = messages[item.index];
              if (!message) return null;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
                >
                  {sends[String(message.id)] ? (
                    <OutgoingMessage
                      send={sends[String(message.id)]!}
                      message={message}
                      t={t}
                      defaultAvatar={defaultAvatar}
                      onMention={onMention}
                      onRetry={() => conversation.send({ type: 'conversation.retry', id: message.id })}
                      onDiscard={() => conversation.send({ type: 'conversation.discard', id: message.id })}
                      onGrow={followIfAtBottom}
                    />
                  ) : (
                    <MessageItem message={message} defaultAvatar={defaultAvatar} onMention={onMention} />
                  )}
                </div>
              );
            })}
          </div>
        </MessageScopeProvider>
      </div>
      <div style={{ position: 'absolute', right: 8, bottom: 8, display: 'flex', flexDirection: 'column', gap: 4 }}>
        <Button size="small" aria-label={t('scrollUp')} onClick={() => scrollRef.current && void animateScrollTop(scrollRef.current, () => 0)}>
          ↑
        </Button>
        <Button
          size="small"
          aria-label={t('scrollDown')}
          onClick={() => {
            const el = scrollRef.current;
            if (!el || messages.length === 0) return;
            // Rows measured on the way change the height: settle on the last message once the motion ends.
            void animateScrollTop(el, () => el.scrollHeight - el.clientHeight).then(() =>
              virtualizer.scrollToIndex(messages.length - 1, { align: 'end' }),
            );
          }}
        >
          ↓
        </Button>
      </div>
    </div>
  );
}

type MessageItemProps = {
  message: ChatMessage;
  defaultAvatar?: string;
  onMention?: (name: string) => void;
  delivery?: Delivery;
  children?: ReactNode;
};

/** Own messages are green once sent; while sending they are paler, and a refused one is not green at all. */
function bubbleColours(message: ChatMessage, delivery: Delivery | undefined) {
  if (!message.mine) return { background: '#f2f2f2', color: '#333' };
  if (delivery?.state === 'failed') return { background: '#fff1f0', color: '#333', boxShadow: 'inset 0 0 0 1px #ffa39e' };
  return { background: '#5FB878', color: '#fff', opacity: delivery?.state === 'sending' ? 0.7 : 1 };
}

// The right gutter keeps own avatars clear of the floating up/down buttons.
function MessageItem({ message, defaultAvatar, onMention, delivery, children }: MessageItemProps) {
  const formats = useFormats();
  return (
    <div
      className={message.mine ? 'ichat-message ichat-message-mine' : 'ichat-message'}
      data-testid="chat-message"
      style={{ display: 'flex', flexDirection: message.mine ? 'row-reverse' : 'row', gap: 8, padding: '6px 40px 6px 10px' }}
    >
      <Avatar src={message.avatar || defaultAvatar} alt={message.username}>
        {message.username.slice(0, 1)}
      </Avatar>
      <div style={{ maxWidth: '75%', textAlign: message.mine ? 'right' : 'left' }}>
        <div style={{ fontSize: 12, color: '#999' }}>
          <span className="ichat-message-name">{message.username}</span>{' '}
          <time dateTime={new Date(message.timestamp).toISOString()}>{formats.seconds.format(message.timestamp)}</time>
        </div>
        <div
          style={{
            display: 'inline-block',
            padding: '6px 10px',
            borderRadius: 4,
            ...bubbleColours(message, delivery),
            textAlign: 'left',
            wordBreak: 'break-word',
          }}
        >
          <MessageContent content={message.content} onMention={onMention} />
        </div>
        {children}
      </div>
    </div>
  );
}

type OutgoingMessageProps = Omit<MessageItemProps, 'delivery' | 'children'> & {
  send: ChatSendRef;
  t: Translate;
  onRetry: () => void;
  onDiscard: () => void;
  /** Called when the mark under the bubble changes size. */
  onGrow: () => void;
};

/** A message of mine the server has not accepted yet: its send's state under the bubble. */
function OutgoingMessage({ send, t, onRetry, onDiscard, onGrow, ...item }: OutgoingMessageProps) {
  const delivery = useSelector(send, selectDelivery);
  useEffect(() => {
    onGrow();
  }, [delivery.state, onGrow]);
  return (
    <MessageItem {...item} delivery={delivery}>
      {delivery.state === 'sending' && <Spin size="small" className="ichat-sending" aria-label={t('sending')} />}
      {delivery.state === 'failed' && (
        <div className="ichat-send-failed" role="alert">
          <div>
            <ExclamationCircleFilled aria-hidden /> {delivery.reason ? t('notSentBecause', { reason: delivery.reason }) : t('notSent')}
          </div>
          <Space size={0} wrap>
            <Button size="small" type="link" icon={<RedoOutlined aria-hidden />} onClick={onRetry}>
              {t('resend')}
            </Button>
            <Button size="small" type="link" icon={<CopyOutlined aria-hidden />} onClick={() => void copyToClipboard(item.message.content, t)}>
              {t('copy')}
            </Button>
            <Button size="small" type="link" danger icon={<DeleteOutlined aria-hidden />} onClick={onDiscard}>
              {t('deleteMessage')}
            </Button>
          </Space>
        </div>
      )}
    </MessageItem>
  );
}
