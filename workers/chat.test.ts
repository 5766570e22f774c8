import { describe, expect, it } from 'vitest';
import type { ChatListData, TeamMessage } from '../contract/chat';
import type { DataEvents } from './api';
import { createChatArea } from './chat';
import { createEventBus } from './events';
import { HttpClient } from './http/client';
import { createFakeServer, fail, ok } from './testing/fakeServer';

const message: TeamMessage = { id: 7, kind: 'friend', sender: { id: 2, name: 'admin', avatar: '' }, toId: 5, content: '你好', createdAt: 1 };

function setup(routes: Parameters<typeof createFakeServer>[0]) {
  const server = createFakeServer(routes);
  const events = createEventBus();
  const client = new HttpClient({ events, fetch: server.fetch, baseUrl: '' });
  client.setCredentials({ token: 't', userId: 5 });
  return { server, events, chat: createChatArea(client, events) };
}

describe('worker chat area', () => {
  it('reads the buyer chat list and pages history with the query the server expects', async () => {
    const list: ChatListData = { shops: [{ storeId: 1, name: 'A', unread: 2, error: null, chats: [] }], totalUnread: 2 };
    const { server, chat } = setup({
      '/chat/list': () => ok(list),
      '/chat/history': () => ok({ messages: [], hasMore: false }),
      '/contacts/history': () => ok({ messages: [message], hasMore: true }),
    });
    expect(await chat.buyerList()).toEqual(list);
    await chat.buyerHistory({ storeId: 1, chatId: 'c-1', before: '99', rows: 30 });
    const seen = server.to('/chat/history')[0]!;
    expect(seen.method).toBe('GET');
    expect(Object.fromEntries(seen.query)).toEqual({ storeId: '1', chatId: 'c-1', before: '99', rows: '30' });
    expect(await chat.history({ kind: 'friend', id: 2 })).toEqual({ messages: [message], hasMore: true });
    expect(server.to('/contacts/history')[0]!.query.has('before')).toBe(false);
  });

  it('sends with a POST body and rejects with the server\'s reason', async () => {
    const { server, chat } = setup({
      '/sendMessage': () => fail(400, '该会话已关闭，不能再发送消息', { field: 'chatId' }),
      '/contacts/send': () => ok(message),
    });
    await expect(chat.buyerSend({ storeId: 1, chatId: 'c', text: 'hi' })).rejects.toMatchObject({ code: 400, message: '该会话已关闭，不能再发送消息' });
    expect(await chat.send({ kind: 'friend', id: 2, content: '你好' })).toEqual(message);
    expect(server.to('/contacts/send')[0]!.body).toEqual({ kind: 'friend', id: 2, content: '你好' });
  });

  it('turns chat pushes into their own topics and leaves other pushes alone', () => {
    const { events } = setup({});
    const seen: Partial<{ [T in keyof DataEvents]: DataEvents[T][] }> = {};
    for (const topic of ['chat.message', 'chat.buyerMessage', 'chat.contacts', 'chat.presence', 'chat.request'] as const) {
      events.on(topic, (payload) => ((seen[topic] ??= [] as never[]) as unknown[]).push(payload));
    }
    events.emit('push.message', { message: { type: 'chat.message', message } });
    events.emit('push.message', { message: { type: 'chat.presence', userId: 2, online: false } });
    events.emit('push.message', { message: { type: 'chat.contacts' } });
    events.emit('push.message', { message: { type: 'hello', userId: 5 } });
    expect(seen['chat.message']).toEqual([{ message }]);
    expect(seen['chat.presence']).toEqual([{ userId: 2, online: false }]);
    expect(seen['chat.contacts']).toEqual([{}]);
    expect(seen['chat.buyerMessage']).toBeUndefined();
    expect(seen['chat.request']).toBeUndefined();
  });
});
