import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FriendSection } from '@contract/chatWidget';
import { ChatWidget } from '@/features/chat/widget/ChatWidget';

const sections: FriendSection[] = [
  {
    id: 1,
    name: '我的好友',
    userList: [
      { id: 7, name: '韩梅梅', online: true },
      { id: 8, name: '李雷', online: false, phone: '13800000000', cid: 'CN123456789HK' },
    ],
  },
];

beforeEach(() => localStorage.clear());

describe('ChatWidget: contacts manager', () => {
  it('marks the selected friend and shows the spec defaults for what the friend left empty', async () => {
    const user = userEvent.setup();
    render(<ChatWidget mine={{ id: 100, username: '我' }} chats={[]} friends={sections} />);
    await user.click(screen.getByRole('button', { name: '联系人' }));
    await user.click(screen.getByText('我的好友 (1/2)'));

    const hanMeimei = screen.getByRole('button', { name: /韩梅梅/ });
    const liLei = screen.getByRole('button', { name: /李雷/ });
    expect(hanMeimei).toHaveAttribute('aria-pressed', 'false');

    await user.click(hanMeimei);
    expect(hanMeimei).toHaveAttribute('aria-pressed', 'true');
    expect(liLei).toHaveAttribute('aria-pressed', 'false');
    const first = screen.getByText('添加备注').closest('.ant-descriptions') as HTMLElement;
    expect(within(first).getByText('这个人很懒，什么都没有写')).toBeInTheDocument();
    // Neither phone nor e-mail given: a dash each, not an empty cell.
    expect(within(first).getAllByText('—')).toHaveLength(2);

    await user.click(liLei);
    expect(liLei).toHaveAttribute('aria-pressed', 'true');
    expect(hanMeimei).toHaveAttribute('aria-pressed', 'false');
    const details = screen.getByText('13800000000').closest('.ant-descriptions') as HTMLElement;
    expect(within(details).getAllByText('—')).toHaveLength(1);
  });
});
