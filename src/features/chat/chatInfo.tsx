import type { ContactsOverview, ChatListData } from '@contract/chat';
import type { Chat } from '@contract/chatWidget';
import { parseBuyerChatId, type ChatT } from './adapters';

/** What the conversation-info dialog lists for a buyer chat, a friend or a group. */
export function chatInfoRows(chat: Chat, overview: ContactsOverview, buyers: ChatListData | null, t: ChatT): [string, string][] {
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

/** The conversation-info dialog's content: its rows as a definition list. */
export function ChatInfoList({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="chat-info">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
