import { App, ConfigProvider } from 'antd';
import { createRoot } from 'react-dom/client';
import type { Chat, ChatMessage } from '@contract/chatWidget';
import { createRef } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '@/app/i18n';
import { ChatWidget } from '@/features/chat/widget/ChatWidget';
import type { ChatWidgetHandle } from '@/features/chat/widget/types';
import '@/features/chat/chat.css';

declare global {
  interface Window {
    chatTest: { loadGenerated: (count: number) => void };
  }
}

const friend: Chat = { id: 7, name: '韩梅梅', type: 'friend', online: true };
const widget = createRef<ChatWidgetHandle>();
const START = Date.UTC(2024, 0, 1);

/** Messages generated here, not sent over the test's wire: 100,000 objects built in the page. */
function generated(count: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const mine = i % 3 === 0;
    return {
      id: i + 1,
      username: mine ? '我' : '韩梅梅',
      mine,
      // Some rows longer than others, so heights vary as they do in a real conversation.
      content: i % 7 === 0 ? `第 ${i + 1} 条：${'很长的一段话，'.repeat(6)}` : `第 ${i + 1} 条`,
      timestamp: START + i * 1000,
      type: 'text',
    };
  });
}

window.chatTest = { loadGenerated: (count) => widget.current?.send({ type: 'message.bulk', chat: friend, messages: generated(count) }) };

const lang = new URLSearchParams(location.search).get('lang') === 'en' ? 'en' : 'zh';
createRoot(document.getElementById('root')!).render(
  <I18nextProvider i18n={createI18n(lang)}>
    <ConfigProvider>
      <App>
        <ChatWidget mine={{ id: 1, username: '我' }} ref={widget} lang={lang} chats={[friend]} />
      </App>
    </ConfigProvider>
  </I18nextProvider>,
);
