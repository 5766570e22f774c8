import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Chat, ChatMessage, SystemMessage } from '@contract/chatWidget';
import { createRef } from 'react';
import type { ChatWidgetHandle } from '@/features/chat/widget/types';
import { ChatWidget } from '@/features/chat/widget/ChatWidget';

const mine = { id: 100, username: '我' };
const friend: Chat = { id: 1, name: '韩梅梅', type: 'friend', online: true };
const other: Chat = { id: 4, name: '李雷', type: 'friend', online: false };
const message = (id: number, content: string, isMine = false): ChatMessage => ({
  id,
  username: isMine ? '我' : '韩梅梅',
  mine: isMine,
  content,
  timestamp: Date.UTC(2024, 0, 2, 3, 4, id),
});

/** Counts chimes and browser notifications: the two things a user hears and sees outside the window. */
function stubAlerts() {
  const chimes = vi.fn();
  const notifications = vi.fn();
  class FakeAudioContext {
    currentTime = 0;
    destination = {};
    createOscillator() {
      chimes();
      return { frequency: {}, connect: (n: unknown) => n, start() {}, stop() {} };
    }
    createGain() {
      return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n: unknown) => n };
    }
  }
  class FakeNotification {
    static permission = 'granted';
    static requestPermission = () => Promise.resolve('granted');
    constructor(title: string, options: { body: string }) {
      notifications(title, options.body);
    }
  }
  vi.stubGlobal('AudioContext', FakeAudioContext);
  vi.stubGlobal('Notification', FakeNotification);
  return { chimes, notifications };
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('ChatWidget: opening a conversation', () => {
  it('asks for the recent history at once and shows it as history: no chime, no notification, no badge', async () => {
    const alerts = stubAlerts();
    const onLoadHistory = vi.fn((_chat: Chat, _last: ChatMessage | null, callback: (older: ChatMessage[]) => void) =>
      callback([message(1, '昨天的消息'), message(2, '我的回复', true)]),
    );
    const widget = createRef<ChatWidgetHandle>();
    render(<ChatWidget mine={mine} ref={widget} chats={[friend, other]} voice onLoadHistory={onLoadHistory} />);
    await waitFor(() => expect(onLoadHistory).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }), null, expect.any(Function)));
    // Only the conversation on screen is loaded; the other waits until it is opened.
    expect(onLoadHistory).toHaveBeenCalledTimes(1);
    expect(alerts.chimes).not.toHaveBeenCalled();
    expect(alerts.notifications).not.toHaveBeenCalled();
    expect(within(screen.getAllByRole('tab')[0]!).queryByText(/^\d+$/)).not.toBeInTheDocument();

    // A live message from someone else in the conversation not being read: chime and notification.
    act(() => widget.current!.send({ type: 'message.incoming', message: { ...message(3, '在吗？'), username: '李雷', chat: other } }));
    expect(alerts.chimes).toHaveBeenCalled();
    expect(alerts.notifications).toHaveBeenCalledWith('新消息', '你有 1 条未读消息');
  });
});

describe('ChatWidget: header, modes and uploads', () => {
  it('raises chatInfo when the conversation title is clicked', async () => {
    const user = userEvent.setup();
    const onChatInfo = vi.fn();
    render(<ChatWidget mine={mine} chats={[friend]} onChatInfo={onChatInfo} />);
    await user.click(screen.getByRole('button', { name: '会话资料: 韩梅梅' }));
    expect(onChatInfo).toHaveBeenCalledWith(expect.objectContaining({ id: 1, name: '韩梅梅' }));
  });

  it('mini mode is a compact window with one conversation and no tabs', async () => {
    const user = userEvent.setup();
    render(<ChatWidget mine={mine} chats={[friend, other]} />);
    const windowEl = screen.getByRole('dialog', { name: '韩梅梅' });
    expect(windowEl.style.width).toBe('550px');
    expect(screen.getAllByRole('tab')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: '简洁模式' }));
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(windowEl.style.width).toBe('380px');
    await user.click(screen.getByRole('button', { name: '标准模式' }));
    expect(screen.getAllByRole('tab')).toHaveLength(2);
  });

  it('shows a picked image as a preview in the entry box, not as markup, and sends it as an image token', async () => {
    const user = userEvent.setup();
    const onSendMessage = vi.fn();
    const onUploadEvent = vi.fn(({ callback }: { callback: (url: string) => void }) => callback('/api/chat/file/abc.png'));
    render(<ChatWidget mine={mine} chats={[friend]} onUploadEvent={onUploadEvent} onSendMessage={onSendMessage} />);
    const picture = new File(['png'], 'photo.PNG', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('chat-image-input'), { target: { files: [picture] } });
    expect(onUploadEvent).toHaveBeenCalledWith(expect.objectContaining({ type: 'image', file: picture, chat: expect.objectContaining({ id: 1 }) }));
    const box = screen.getByRole('textbox', { name: '输入消息' }) as HTMLTextAreaElement;
    const waiting = await screen.findByRole('list', { name: '待发送的图片和文件' });
    expect(waiting.querySelector('img.ichat-img')?.getAttribute('src')).toBe('/api/chat/file/abc.png');
    expect(box.value).toBe('');
    expect(waiting).not.toHaveTextContent('img[');
    await user.type(box, '请看图');
    await user.click(screen.getByRole('button', { name: '发送(S)' }));
    expect(onSendMessage).toHaveBeenCalledWith(expect.objectContaining({ content: '请看图\nimg[/api/chat/file/abc.png]' }));
    expect(screen.queryByRole('list', { name: '待发送的图片和文件' })).toBeNull();

    // A file waits by its name and goes as a file token; a picture of the wrong type is silently dropped; one can be removed.
    fireEvent.change(screen.getByTestId('chat-image-input'), { target: { files: [new File(['x'], 'notes.pdf')] } });
    expect(onUploadEvent).toHaveBeenCalledTimes(1);
    onUploadEvent.mockImplementation(({ callback }) => callback('/api/chat/file/def.pdf'));
    fireEvent.change(screen.getByTestId('chat-file-input'), { target: { files: [new File(['x'], '报价单.pdf')] } });
    fireEvent.change(screen.getByTestId('chat-file-input'), { target: { files: [new File(['x'], '发票.pdf')] } });
    expect(await screen.findByRole('list', { name: '待发送的图片和文件' })).toHaveTextContent('报价单.pdf');
    await user.click(screen.getByRole('button', { name: '移除 发票.pdf' }));
    await user.click(screen.getByRole('button', { name: '发送(S)' }));
    expect(onSendMessage).toHaveBeenLastCalledWith(expect.objectContaining({ content: 'file(/api/chat/file/def.pdf)[报价单.pdf]' }));
  });
});

describe('ChatWidget: a group application in the system tab', () => {
  it('shows it as a group application and confirms it through the confirmGroup dialog', async () => {
    const user = userEvent.setup();
    const onAcceptFriend = vi.fn();
    const request: SystemMessage = {
      id: 'group:7',
      from: { id: 5, name: '王芳' },
      type: 'applyGroup',
      message: '我是新来的运营',
      timestamp: Date.UTC(2024, 0, 2),
      status: 'none',
      group: { id: 2, name: '卖家群' },
    };
    const system: Chat = { id: -1, name: '系统消息', type: 'sys_msg', messages: [request] };
    render(<ChatWidget mine={mine} chats={[system]} onAcceptFriend={onAcceptFriend} />);
    expect(screen.getByText('加群申请')).toBeInTheDocument();
    expect(screen.getByText('卖家群')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^同\s?意$/ }));
    const dialog = await screen.findByRole('dialog', { name: '同意加群申请' });
    // No section to choose for a group: only the fixed greeting.
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(dialog).getByText('欢迎加入本群！')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /^确\s?定$/ }));
    await waitFor(() => expect(onAcceptFriend).toHaveBeenCalledWith(expect.objectContaining({ id: 'group:7', type: 'applyGroup' }), null));
    expect(await screen.findByText('已同意')).toBeInTheDocument();
  });
});

describe('ChatWidget: history requests and bulk loading', () => {
  it('a double click on "view more messages" loads one page, and the link works again after the 1 s rest', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const onLoadHistory = vi.fn((_chat: Chat, last: ChatMessage | null, callback: (older: ChatMessage[]) => void) =>
        callback(last === null ? [message(40, '最近')] : [message(Number(last.id) - 1, `更早 ${Number(last.id) - 1}`)]),
      );
      render(<ChatWidget mine={mine} chats={[friend]} onLoadHistory={onLoadHistory} />);
      await waitFor(() => expect(onLoadHistory).toHaveBeenCalledTimes(1));
      const more = await screen.findByRole('button', { name: '查看更多消息' });
      fireEvent.click(more);
      fireEvent.click(more);
      await waitFor(() => expect(onLoadHistory).toHaveBeenCalledTimes(2));
      vi.setSystemTime(Date.now() + 1000);
      // The link is named so once the page is in (while it loads, its spinner's label is part of its name).
      fireEvent.click(await screen.findByRole('button', { name: '查看更多消息' }));
      await waitFor(() => expect(onLoadHistory).toHaveBeenCalledTimes(3));
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes many messages for one conversation at once through the window actor, as history: nothing unread, no chime', async () => {
    const alerts = stubAlerts();
    const widget = createRef<ChatWidgetHandle>();
    const onLoadHistory = vi.fn();
    render(<ChatWidget mine={mine} ref={widget} chats={[friend]} voice onLoadHistory={onLoadHistory} />);
    const many = Array.from({ length: 5000 }, (_, i) => ({ ...message(i + 1, `第 ${i + 1} 条`), timestamp: i + 1 }));
    act(() => widget.current!.send({ type: 'message.bulk', chat: other, messages: many }));
    const tab = await screen.findByRole('tab', { name: /李雷/ });
    expect(within(tab).queryByText(/^\d+$/)).not.toBeInTheDocument();
    expect(alerts.chimes).not.toHaveBeenCalled();
    fireEvent.click(tab);
    // Opening it asks the host for nothing more: the messages are there.
    await waitFor(() => expect(onLoadHistory).not.toHaveBeenCalledWith(expect.objectContaining({ id: 4 }), expect.anything(), expect.any(Function)));
  });
});
