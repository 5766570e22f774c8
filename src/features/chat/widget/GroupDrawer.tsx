import { CrownOutlined, StarOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { Avatar, Input, List, message as antdMessage } from 'antd';
import { useMemo, useState } from 'react';
import type { Chat, CurrentUser, GroupMember } from '@contract/chatWidget';
import type { Translate } from './translate';

type GroupDrawerProps = {
  chat: Chat;
  mine: CurrentUser;
  t: Translate;
  defaultAvatar?: string;
  onClickGroupUser?: (member: GroupMember) => void;
};

const ROLE_ICON: Record<string, ReactNode> = { owner: <CrownOutlined />, admin: <StarOutlined /> };

export function GroupDrawer({ chat, mine, t, defaultAvatar, onClickGroupUser }: GroupDrawerProps) {
  const [search, setSearch] = useState('');
  const members = useMemo(() => chat.userList ?? [], [chat.userList]);
  const online = members.filter((m) => m.online).length;
  const visible = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q === '' ? members : members.filter((m) => m.name.toLowerCase().includes(q));
  }, [members, search]);
  const notices = chat.notices ?? [];

  const onMember = (member: GroupMember) => {
    if (String(member.id) === String(mine.id)) {
      void antdMessage.info(t('youClickedYourself'));
      return;
    }
    onClickGroupUser?.(member);
  };

  return (
    <aside className="ichat-group-drawer" style={{ width: 198, borderLeft: '1px solid #eee', display: 'flex', flexDirection: 'column' }}>
      <section style={{ height: 146, overflow: 'auto', padding: 6 }}>
        <h4 style={{ margin: '0 0 4px' }}>{t('groupNotices')}</h4>
        {notices.length === 0 ? (
          <p style={{ color: '#999' }}>{t('noNotices')}</p>
        ) : (
          <ul style={{ paddingLeft: 16, margin: 0 }}>
            {notices.map((n, i) => (
              <li key={i}>
                [{n.type}] {n.title}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section style={{ flex: 1, overflow: 'auto', padding: 6 }}>
        <h4 style={{ margin: '0 0 4px' }}>{t('groupMembers', { online, total: members.length })}</h4>
        <Input size="small" allowClear placeholder={t('searchMembers')} aria-label={t('searchMembers')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <List
          size="small"
          dataSource={visible}
          rowKey={(m) => String(m.id)}
          renderItem={(member) => (
            <List.Item
              onDoubleClick={() => onMember(member)}
              style={{ cursor: 'pointer', opacity: member.online ? 1 : 0.5 }}
              data-testid="group-member"
            >
              <Avatar size="small" src={member.avatar || defaultAvatar}>
                {member.name.slice(0, 1)}
              </Avatar>{' '}
              {member.name} {member.role ? <span title={member.role}>{ROLE_ICON[member.role] ?? '•'}</span> : null}
            </List.Item>
          )}
        />
      </section>
    </aside>
  );
}
