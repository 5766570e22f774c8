import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Chat, SentMessage } from '@contract/chatWidget';
import { ChatWidget } from '@/features/chat/widget/ChatWidget';

const mine = { id: 100, username: '店铺' };
const buyer: Chat = { id: 'buyer:1:c-9', name: '买家 c9', type: 'friend' };
const replyWindowOver = { type: 'BadRequest', code: 400, message: '已超出可回复时间', silent: false };

beforeEach(() => {
  localStorage.clear();
  // The message list is virtualised: give it a height, so it renders its rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(500);
});
afterEach(() => vi.restoreAllMocks());

describe('ChatWidget: a send the server refuses', () => {
  it('shows the message failed with the reason, and sends it again on retry', async () => {
    const user = userEvent.setup();
    let answer: { resolve: (r: { id: string; timestamp: number }) => void; reject: (e: unknown) => void } | null = null;
    const onSendMessage = vi.fn(
      (_sent: SentMessage) =>
        new Promise<{ id: string; timestamp: number }>((resolve, reject) => {
          answer = { resolve, reject };
        }),
    );
    render(<ChatWidget mine={mine} chats={[buyer]} onSendMessage={onSendMessage} />);

    await user.type(screen.getByRole('textbox', { name: '输入消息' }), '您好，已发货{Enter}');
    const bubble = () => screen.getAllByTestId('chat-message').find((m) => m.textContent?.includes('您好，已发货'))!;
    expect(within(bubble()).getByLabelText('发送中')).toBeInTheDocument();

    await act(async () => answer!.reject(replyWindowOver));
    const alert = await within(bubble()).findByRole('alert');
    expect(alert).toHaveTextContent('发送失败：已超出可回复时间');
    expect(within(bubble()).queryByLabelText('发送中')).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: '重新发送' }));
    expect(onSendMessage).toHaveBeenCalledTimes(2);
    expect(onSendMessage.mock.calls[1]![0]).toMatchObject({ content: '您好，已发货', attempt: 2, id: onSendMessage.mock.calls[0]![0].id });
    expect(within(bubble()).getByLabelText('发送中')).toBeInTheDocument();

    await act(async () => answer!.resolve({ id: 'buyer:m-77', timestamp: Date.UTC(2024, 0, 2) }));
    await waitFor(() => expect(within(bubble()).queryByLabelText('发送中')).not.toBeInTheDocument());
    expect(within(bubble()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('deletes a failed message when asked, in English too', async () => {
    const user = userEvent.setup();
    const onSendMessage = vi.fn(() => Promise.reject({ type: 'Timeout', code: 504, message: 'The Ozon API timed out', silent: false }));
    render(<ChatWidget mine={mine} chats={[buyer]} lang="en" onSendMessage={onSendMessage} />);
    await user.type(screen.getByRole('textbox', { name: 'Type a message' }), 'hello{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not sent: The Ozon API timed out');
    await user.click(within(alert).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('hello')).not.toBeInTheDocument());
  });

  it("copies a refused reply's text, also on a page without the clipboard API (http at a LAN address)", async () => {
    const user = userEvent.setup();
    const onSendMessage = vi.fn(() => Promise.reject(replyWindowOver));
    render(<ChatWidget mine={mine} chats={[buyer]} onSendMessage={onSendMessage} />);
    await user.type(screen.getByRole('textbox', { name: '输入消息' }), '请问还需要发票吗{Enter}');
    const alert = await screen.findByRole('alert');
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const copied: string[] = [];
    document.execCommand = vi.fn(() => {
      copied.push(document.querySelector<HTMLTextAreaElement>('textarea[readonly]')!.value);
      return true;
    });
    await user.click(within(alert).getByRole('button', { name: '复制' }));
    expect(copied).toEqual(['请问还需要发票吗']);
    expect(await screen.findByText('复制成功')).toBeInTheDocument();
  });
});
