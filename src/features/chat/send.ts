import type { SentMessage } from '@contract/chatWidget';
import type { SendReceipt } from '@machines/chatSendMachine';
import type { DataClient } from '@workers/client';
import { buyerWidgetMessageId, parseBuyerChatId, splitUploads } from './adapters';

export type ChatSendCalls = Pick<DataClient['chat'], 'send' | 'buyerSend' | 'buyerSendFile'>;

export type ChatSender = {
  /** The widget's send: the server's id and time of the message, or the worker's failure (the reason the user reads). */
  send: (sent: SentMessage) => Promise<SendReceipt>;
  /** True once for the echo of a message this page sent: the server pushes it to the sender's pages too. */
  isOwnEcho: (clientKey: string | undefined) => boolean;
};

/**
 * The chat page's sends. Each call carries a client key, so the echo of a message this page shows already is
 * skipped. A buyer message goes out in pieces (Ozon takes files through their own call: attachments one by one, the
 * words around them as text); a retry resumes after the pieces that went out.
 */
export function createChatSender(calls: ChatSendCalls): ChatSender {
  const sentKeys = new Set<string>();
  const piecesSent = new Map<string, number>();

  const withClientKey = async <T>(send: (clientKey: string) => Promise<T>): Promise<T> => {
    const clientKey = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    sentKeys.add(clientKey);
    try {
      return await send(clientKey);
    } catch (error) {
      sentKeys.delete(clientKey);
      throw error;
    }
  };

  const send = async (sent: SentMessage): Promise<SendReceipt> => {
    const buyer = parseBuyerChatId(sent.to.id);
    if (!buyer) {
      const stored = await withClientKey((clientKey) =>
        calls.send({ kind: sent.to.type === 'group' ? 'group' : 'friend', id: Number(sent.to.id), content: sent.content, clientKey }),
      );
      return { id: stored.id, timestamp: stored.createdAt };
    }
    const pieces = splitUploads(sent.content);
    const key = String(sent.id);
    let last: SendReceipt | null = null;
    for (let i = piecesSent.get(key) ?? 0; i < pieces.length; i += 1) {
      const piece = pieces[i]!;
      const { message: stored } = await withClientKey((clientKey) =>
        piece.kind === 'file'
          ? calls.buyerSendFile({ ...buyer, fileId: piece.fileId, clientKey })
          : calls.buyerSend({ ...buyer, text: piece.text, clientKey }),
      );
      piecesSent.set(key, i + 1);
      last = { id: buyerWidgetMessageId(stored.id), timestamp: stored.createdAt };
    }
    piecesSent.delete(key);
    // A message of several pieces is one bubble here and several on the server: the bubble keeps its local id.
    return pieces.length === 1 && last ? last : { id: sent.id, timestamp: sent.timestamp };
  };

  return { send, isOwnEcho: (clientKey) => clientKey !== undefined && sentKeys.delete(clientKey) };
}
