import type { Chat, ChatMessage, IncomingMessage } from '@contract/chatWidget';

/**
 * The host talks to a mounted widget through this bus: `getMessage` delivers an incoming message (spec §7), the other
 * commands manage the channel list and open an apply dialog.
 */
export type ChatBusCommand =
  | { type: 'getMessage'; message: IncomingMessage }
  /**
   * Many messages for one conversation at once (oldest first), shown as its history: merged by id in time order,
   * nothing counted unread, no sound; the list shows the newest. Adds the conversation when it is not open.
   */
  | { type: 'loadMessages'; chat: Chat; messages: ChatMessage[] }
  | { type: 'addChat'; chat: Chat; activate?: boolean }
  | { type: 'replaceChats'; chats: Chat[] }
  | { type: 'removeChat'; chat: Pick<Chat, 'id' | 'type'> };

export type ChatBus = {
  send: (command: ChatBusCommand) => void;
  getMessage: (message: IncomingMessage) => void;
  subscribe: (listener: (command: ChatBusCommand) => void) => () => void;
};

export function createChatBus(): ChatBus {
  const listeners = new Set<(command: ChatBusCommand) => void>();
  const send = (command: ChatBusCommand) => listeners.forEach((l) => l(command));
  return {
    send,
    getMessage: (message) => send({ type: 'getMessage', message }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
