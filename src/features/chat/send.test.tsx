import { describe, expect, it, vi } from 'vitest';
import type { BuyerMessage, TeamMessage } from '@contract/chat';
import type { SentMessage } from '@contract/chatWidget';
import { createChatSender, type ChatSendCalls } from './send';

const FILE = `/api/chat/file/${'a'.repeat(32)}.png`;
const sent = (to: SentMessage['to'], content: string, attempt = 1): SentMessage => ({
  id: 'local-1',
  attempt,
  mine: { id: 5, username: 'seller', mine: true },
  to,
  content,
  type: 'text',
  timestamp: 1_000,
});
const stored = (id: string, text: string): { message: BuyerMessage } => ({
  message: { id, storeId: 3, chatId: 'c-9', from: 'seller', text, createdAt: 2_000, isRead: true, orderNumber: null },
});
const closed = { type: 'BadRequest', code: 400, message: '该会话已关闭，不能再发送消息', silent: false };

function fakeCalls() {
  return {
    send: vi.fn(async (body: { content: string; clientKey?: string }) => ({ id: 41, createdAt: 3_000, content: body.content }) as unknown as TeamMessage),
    buyerSend: vi.fn(async (body: { text: string }) => stored(`t-${body.text}`, body.text)),
    buyerSendFile: vi.fn(async () => stored('f-1', '')),
  } satisfies Record<keyof ChatSendCalls, unknown>;
}

describe('createChatSender', () => {
  it("answers a team message with the server's id and time, and knows its echo once", async () => {
    const calls = fakeCalls();
    const sender = createChatSender(calls as unknown as ChatSendCalls);
    expect(await sender.send(sent({ id: 7, name: '韩梅梅', type: 'friend' }, '你好'))).toEqual({ id: 41, timestamp: 3_000 });
    const key = calls.send.mock.calls[0]![0].clientKey;
    expect(sender.isOwnEcho(key)).toBe(true);
    expect(sender.isOwnEcho(key)).toBe(false);
    expect(sender.isOwnEcho(undefined)).toBe(false);
  });

  it('fails with the refusal, and a retry resumes a buyer message after the pieces that went out', async () => {
    const calls = fakeCalls();
    calls.buyerSendFile.mockRejectedValueOnce(closed);
    const sender = createChatSender(calls as unknown as ChatSendCalls);
    const to = { id: 'buyer:3:c-9', name: '买家 c9', type: 'friend' as const };
    const content = `请看图 img[${FILE}] 谢谢`;

    await expect(sender.send(sent(to, content))).rejects.toBe(closed);
    expect(calls.buyerSend.mock.calls.map(([b]) => b.text)).toEqual(['请看图']);

    // The words before the image are not sent twice; the bubble keeps its local id (it is several messages there).
    expect(await sender.send(sent(to, content, 2))).toEqual({ id: 'local-1', timestamp: 1_000 });
    expect(calls.buyerSend.mock.calls.map(([b]) => b.text)).toEqual(['请看图', '谢谢']);
    expect(calls.buyerSendFile).toHaveBeenCalledTimes(2);
  });

  it("answers a one-piece buyer message with the marketplace's id", async () => {
    const sender = createChatSender(fakeCalls() as unknown as ChatSendCalls);
    expect(await sender.send(sent({ id: 'buyer:3:c-9', name: '买家 c9', type: 'friend' }, '已发货'))).toEqual({ id: 'buyer:t-已发货', timestamp: 2_000 });
  });
});
