import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Chat, ChatMessage } from '@contract/chatWidget';
import { createRef } from 'react';
import type { ChatWidgetHandle } from '@/features/chat/widget/types';
import { ChatWidget } from '@/features/chat/widget/ChatWidget';
import { anchorIndexAfterPrepend, offsetAfterPrepend } from '@/features/chat/widget/history';
import { loadChannels } from '@/features/chat/widget/storage';
import { acceptsFile } from '@/features/chat/widget/upload';

const mine = { id: 100, username: '我' };
const friend: Chat = { id: 1, name: '韩梅梅', type: 'friend', online: true };
const group: Chat = { id: 2, name: '卖家群', type: 'group', userList: [{ id: 100, name: '我', online: true }, { id: 3, name: '李雷', online: false }] };
const incoming = (id: number, chat: Chat, content = 'hello'): ChatMessage & { chat: Chat } => ({
  id,
  username: '韩梅梅',
  mine: false,
  content,
  timestamp: Date.UTC(2024, 0, 2, 3, 4, 5),
  chat,
});

beforeEach(() => localStorage.clear());

describe('ChatWidget with two conversations', () => {
  it('shows both tabs, switches between them, and sends only non-empty text', async () => {
    const user = userEvent.setup();
    const onSendMessage = vi.fn();
    const onTalkClick = vi.fn();
    render(<ChatWidget mine={mine} chats={[friend, group]} onSendMessage={onSendMessage} onTalkClick={onTalkClick} />);

    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([expect.stringContaining('韩梅梅'), expect.stringContaining('卖家群')]);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');

    const box = screen.getByRole('textbox', { name: '输入消息' });
    await user.type(box, '   {Enter}');
    expect(onSendMessage).not.toHaveBeenCalled();

    await user.clear(box);
    await user.type(box, '你好{Enter}');
    expect(onSendMessage).toHaveBeenCalledWith(
      expect.objectContaining({ content: '你好', type: 'text', to: { id: 1, name: '韩梅梅', type: 'friend', avatar: undefined }, mine: expect.objectContaining({ id: 100, mine: true }) }),
    );

    await user.click(tabs[1]!);
    expect(onTalkClick).toHaveBeenCalledWith(expect.objectContaining({ id: 2, type: 'group' }));
    expect(screen.getAllByRole('tab')[1]).toHaveAttribute('aria-selected', 'true');
  });

  it('badges the other tab for an incoming message and clears it on switching there', async () => {
    const user = userEvent.setup();
    const widget = createRef<ChatWidgetHandle>();
    render(<ChatWidget mine={mine} ref={widget} chats={[friend, group]} />);
    act(() => widget.current!.send({ type: 'message.incoming', message: incoming(1, group) }));
    act(() => widget.current!.send({ type: 'message.incoming', message: incoming(2, group) }));
    const groupTab = screen.getAllByRole('tab')[1]!;
    expect(within(groupTab).getByText('2')).toBeInTheDocument();
    await user.click(groupTab);
    expect(within(screen.getAllByRole('tab')[1]!).queryByText('2')).not.toBeInTheDocument();
  });

  it('adds the channel of a message from an unknown chat and saves the list under IChat_key_channels', () => {
    const widget = createRef<ChatWidgetHandle>();
    render(<ChatWidget mine={mine} ref={widget} chats={[friend]} />);
    // A single chat is shown alone, without tabs.
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    act(() => widget.current!.send({ type: 'message.incoming', message: incoming(9, group) }));
    expect(screen.getAllByRole('tab')).toHaveLength(2);
    expect(loadChannels()?.map((c) => c.name)).toEqual(['韩梅梅', '卖家群']);
    expect(localStorage.getItem('IChat_key_channels')).toContain('"content"');
  });

  it('shows "暂时没有会话" with no conversations, and English when asked', () => {
    const { unmount } = render(<ChatWidget mine={mine} chats={[]} />);
    expect(screen.getByText('暂时没有会话')).toBeInTheDocument();
    unmount();
    render(<ChatWidget mine={mine} chats={[]} lang="en" />);
    expect(screen.getByText('No conversations yet')).toBeInTheDocument();
  });

  it('removing a tab tells the host', async () => {
    const user = userEvent.setup();
    const onRemoveChat = vi.fn();
    render(<ChatWidget mine={mine} chats={[friend, group]} onRemoveChat={onRemoveChat} />);
    await user.click(screen.getByRole('button', { name: '关闭会话 韩梅梅' }));
    expect(onRemoveChat).toHaveBeenCalledWith({ id: 1, name: '韩梅梅', type: 'friend' });
  });

  it('inserts an emoji token at the caret', async () => {
    const user = userEvent.setup();
    render(<ChatWidget mine={mine} chats={[friend]} />);
    const box = screen.getByRole('textbox', { name: '输入消息' }) as HTMLTextAreaElement;
    await user.type(box, 'ab');
    box.setSelectionRange(1, 1);
    box.dispatchEvent(new Event('select', { bubbles: true }));
    await user.click(screen.getByRole('button', { name: '表情' }));
    await user.click(await screen.findByRole('option', { name: '微笑' }));
    expect(box.value).toBe('aface[微笑]b');
  });

  it('shows "you clicked yourself" when double-clicking yourself in the group drawer', async () => {
    const user = userEvent.setup();
    const onClickGroupUser = vi.fn();
    render(<ChatWidget mine={mine} chats={[group]} onClickGroupUser={onClickGroupUser} />);
    // The right box (notices and members) shows beside a group chat and collapses to a handle.
    await user.click(screen.getByRole('button', { name: '收起右栏' }));
    expect(screen.queryAllByTestId('group-member')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: '展开右栏' }));
    const members = screen.getAllByTestId('group-member');
    await user.dblClick(members[0]!);
    expect(await screen.findByText('你点击了自己')).toBeInTheDocument();
    expect(onClickGroupUser).not.toHaveBeenCalled();
    await user.dblClick(members[1]!);
    expect(onClickGroupUser).toHaveBeenCalledWith(expect.objectContaining({ id: 3 }));
  });
});

describe('history and upload rules', () => {
  it('keeps the reading position: the old top message moves down by what was inserted', () => {
    expect(anchorIndexAfterPrepend(0, 20)).toBe(20);
    expect(offsetAfterPrepend(130, [60, 72, 40])).toBe(302);
  });

  it('filters uploads by extension, case-insensitively, and honours a configured list', () => {
    expect(acceptsFile('PHOTO.JPG', 'image')).toBe(true);
    expect(acceptsFile('movie.mp4', 'image')).toBe(false);
    expect(acceptsFile('photo.jpg', 'image', { image: ['webp'] })).toBe(false);
    expect(acceptsFile('photo.WEBP', 'image', { image: ['webp'] })).toBe(true);
    expect(acceptsFile('any.bin', 'file')).toBe(true);
    expect(acceptsFile('any.bin', 'file', { file: ['pdf'] })).toBe(false);
  });
});
