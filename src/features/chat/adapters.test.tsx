import { describe, expect, it } from 'vitest';
import type { ContactsOverview, TeamRequest } from '@contract/chat';
import { buyerChat, buyerMessageId, parseBuyerChatId, parseRequestKey, systemMessages } from './adapters';
import { createI18n } from '@/app/i18n';

const texts = createI18n('zh').getFixedT('zh', 'chat');
const person = (id: number, name: string) => ({ id, name, avatar: '' });
const request = (over: Partial<TeamRequest>): TeamRequest => ({
  id: 1,
  kind: 'friend',
  from: person(2, 'admin'),
  to: person(5, 'seller'),
  group: null,
  message: '加个好友',
  status: 'pending',
  createdAt: 10,
  decidedAt: null,
  ...over,
});
const overview = (requests: TeamRequest[]): ContactsOverview => ({
  me: { id: 5, name: 'seller', avatar: '', introduction: '', online: true },
  sections: [],
  groups: [],
  requests,
  unread: {},
});

describe('chat page adapters', () => {
  it('round-trips a buyer chat through the widget id, whatever the marketplace chat id holds', () => {
    const chat = buyerChat({ storeId: 3, chatId: '1001-chat:ab:9', chatType: 'Buyer_Seller' }, '义乌小百货', texts);
    expect(chat.type).toBe('friend');
    expect(chat.name).toContain('义乌小百货');
    expect(parseBuyerChatId(chat.id)).toEqual({ storeId: 3, chatId: '1001-chat:ab:9' });
    expect(parseBuyerChatId(5)).toBeNull();
    expect(parseBuyerChatId('buyer:x:1')).toBeNull();
  });

  it('pages buyer history only before marketplace ids, never before a message shown locally', () => {
    expect(buyerMessageId({ id: 'buyer:123', username: '', mine: false, content: '', timestamp: 0 })).toBe('123');
    expect(buyerMessageId({ id: 'local-1-1', username: '', mine: true, content: '', timestamp: 0 })).toBeUndefined();
    expect(buyerMessageId(null)).toBeUndefined();
  });

  it('shows applications to me with their buttons and answers to mine as notes', () => {
    const messages = systemMessages(
      overview([
        request({ id: 1 }),
        request({ id: 2, kind: 'group', group: { id: 9, name: '运营群' }, message: '' }),
        request({ id: 3, from: person(5, 'seller'), to: person(7, 'carol'), status: 'rejected', decidedAt: 20 }),
      ]),
      texts,
    );
    expect(messages[0]).toMatchObject({ id: 'friend:1', type: 'applyFriend', status: 'none', from: { name: 'admin' }, message: '申请加你为好友：加个好友' });
    expect(messages[1]).toMatchObject({ id: 'group:2', type: 'applyGroup', group: { name: '运营群' } });
    expect(messages[2]).toMatchObject({ type: 'rejectFriend', from: { name: 'carol' }, message: 'carol 拒绝了你的申请', timestamp: 20 });
    expect(parseRequestKey(messages[1]!.id)).toEqual({ kind: 'group', id: 2 });
  });
});
