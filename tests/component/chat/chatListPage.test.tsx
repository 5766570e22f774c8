import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { BuyerReplyWindow, ChatListData, ContactsOverview } from '@contract/chat';
import type { DataClient } from '@workers/client';
import { ChatListPage } from '@/features/chat/ChatListPage';
import { renderWithApp } from '../renderApp';

const overview: ContactsOverview = {
  me: { id: 100, name: '店主', avatar: '', introduction: '', online: true },
  sections: [],
  groups: [],
  requests: [],
  unread: {},
};
const buyers: ChatListData = {
  totalUnread: 0,
  shops: [
    {
      storeId: 1,
      name: '深圳数码',
      unread: 0,
      error: null,
      chats: [
        { storeId: 1, chatId: 'c-closed-01', chatType: 'Buyer_Seller', status: 'Opened', createdAt: 0, unread: 0, lastMessageId: '1', last: null, about: null },
        {
          storeId: 1,
          chatId: 'c-open-002',
          chatType: 'Buyer_Seller',
          status: 'Opened',
          createdAt: 0,
          unread: 2,
          lastMessageId: '2',
          last: { text: 'Когда отправите заказ?', createdAt: Date.parse('2026-11-25T09:30:00Z'), from: 'customer', isImage: false },
          about: { orderNumber: '1001-0042', postingNumber: '1001-0042-1', productName: 'Чехол Remax G813', offerId: 'SKU-1001-00042', sku: '42', image: '' },
        },
      ],
    },
  ],
};

/** A chat page client whose buyer chats answer the reply windows each test gives. */
function pageClient(windows: Record<string, BuyerReplyWindow>) {
  const asked: string[] = [];
  const chat = {
    overview: async () => overview,
    buyerList: async () => buyers,
    buyerRead: async () => ({ unread: 0 }),
    buyerHistory: async () => ({ messages: [], hasMore: false }),
    buyerReplyWindow: async ({ chatId }: { chatId: string }) => {
      asked.push(chatId);
      return windows[chatId]!;
    },
    file: async () => ({ bytes: new ArrayBuffer(0), contentType: 'text/plain' }),
  };
  const client = { chat, session: {}, pollers: {}, subscribe: async () => () => undefined } as unknown as DataClient;
  return { client, asked };
}

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(500);
});
afterEach(() => vi.restoreAllMocks());

describe('chat page: the buyer chat list', { timeout: 60_000 }, () => {
  it('lists each buyer chat with its last message, its time, the unread count and the posting and product it is about', async () => {
    const { client } = pageClient({});
    renderWithApp(<ChatListPage />, { client });
    const entry = await screen.findByRole('button', { name: /pen002/ }, { timeout: 10_000 });
    expect(entry).toHaveTextContent('Когда отправите заказ?');
    expect(entry).toHaveTextContent('货件 1001-0042-1');
    expect(entry).toHaveTextContent('Чехол Remax G813');
    expect(entry.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-25T09:30:00.000Z');
    expect(entry.querySelector('time')).toHaveTextContent(/2026-11-2\d/);
    expect(entry.querySelector('.ant-badge')).toHaveTextContent('2');
    // A chat whose last message could not be read yet is still listed, by its buyer.
    expect(screen.getByRole('button', { name: /osed01/ })).not.toHaveTextContent('货件');
  });
});

describe('chat page: the reply window of a buyer chat', { timeout: 60_000 }, () => {
  it('disables the entry box with the reason when Ozon no longer lets the seller reply, and says until when otherwise', async () => {
    const until = Date.parse('2026-11-27T05:07:00Z');
    const { client, asked } = pageClient({
      'c-closed-01': { canReply: false, until: null, reason: '已超出可回复时间：订单送达72小时后，只能在买家最后一条消息后48小时内回复' },
      'c-open-002': { canReply: true, until, reason: null },
    });
    renderWithApp(<ChatListPage />, { client });

    fireEvent.click(await screen.findByRole('button', { name: /osed01/ }, { timeout: 10_000 }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: '输入消息' })).toBeDisabled(), { timeout: 10_000 });
    expect(screen.getAllByText(/已超出可回复时间/).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: '发送(S)' })).toBeDisabled();
    expect(asked).toEqual(['c-closed-01']);

    fireEvent.click(screen.getByRole('button', { name: /pen002/ }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: '输入消息' })).toBeEnabled(), { timeout: 10_000 });
    // The user's time zone decides the clock; the date and Ozon's rule are what the seller reads.
    expect(await screen.findByText(/可回复至 2026-11-2\d \d\d:\d\d（Ozon规则）/)).toBeInTheDocument();
  });
});
