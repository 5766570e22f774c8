import { Avatar, Button, Collapse, Descriptions, Dropdown } from 'antd';
import { useState } from 'react';
import type { Chat, Friend, FriendSection, Group } from '@contract/chatWidget';
import type { MessageBoxApi } from '@/components/message-box/messageBoxApi';
import { CopyText } from './CopyText';
import type { Translate } from './translate';

type ContactsManagerProps = {
  friends: FriendSection[];
  groups: Group[];
  t: Translate;
  messageBox: MessageBoxApi;
  defaultAvatar?: string;
  onBuildChat: (chat: Chat) => void;
  onAddGroup?: (name: string) => void;
  onRenameGroup?: (id: FriendSection['id'], name: string) => void;
  onAddFriendClick?: () => void;
};

type Selected = { kind: 'friend'; friend: Friend } | { kind: 'group'; group: Group } | null;

const friendChat = (f: Friend): Chat => ({ id: f.id, name: f.name, type: 'friend', avatar: f.avatar, online: f.online });
const groupChat = (g: Group): Chat => ({ id: g.id, name: g.name, type: 'group', avatar: g.avatar, userList: g.userList });

export function ContactsManager({ friends, groups, t, messageBox, defaultAvatar, onBuildChat, onAddGroup, onRenameGroup, onAddFriendClick }: ContactsManagerProps) {
  const [selected, setSelected] = useState<Selected>(null);

  const askGroupName = async (initial = '') => {
    try {
      const { value } = await messageBox.prompt(t('enterGroupName'), undefined, {
        inputValue: initial,
        inputValidator: (v) => v.trim() !== '',
      });
      return value.trim();
    } catch {
      return null;
    }
  };

  const sectionMenu = (section: FriendSection) => ({
    items: [
      { key: 'add', label: t('addGroup') },
      { key: 'rename', label: t('renameGroup') },
    ],
    onClick: async ({ key }: { key: string }) => {
      const name = await askGroupName(key === 'rename' ? section.name : '');
      if (!name) return;
      if (key === 'add') onAddGroup?.(name);
      else onRenameGroup?.(section.id, name);
    },
  });

  const isSelected = (kind: 'friend' | 'group', id: Friend['id']) => {
    if (selected?.kind !== kind) return false;
    return (selected.kind === 'friend' ? selected.friend.id : selected.group.id) === id;
  };

  const entry = (key: string, name: string, avatar: string | undefined, onSelect: () => void, onOpen: () => void, dim = false, current = false) => (
    <div
      key={key}
      role="button"
      tabIndex={0}
      aria-pressed={current}
      onClick={onSelect}
      onDoubleClick={onOpen}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 6,
        padding: 4,
        borderRadius: 4,
        cursor: 'pointer',
        opacity: dim ? 0.5 : 1,
        background: current ? '#e6f4ff' : undefined,
      }}
    >
      <Avatar size="small" src={avatar || defaultAvatar}>
        {name.slice(0, 1)}
      </Avatar>
      {name}
    </div>
  );

  return (
    <div className="ichat-contacts" style={{ display: 'flex', flex: 1, minHeight: 0 }}>
      <div style={{ width: 220, overflow: 'auto', borderRight: '1px solid #eee' }}>
        <Button type="link" onClick={onAddFriendClick}>
          + {t('addFriend')}
        </Button>
        <Collapse
          size="small"
          ghost
          items={[
            {
              key: 'groups',
              label: t('groups'),
              children: groups.map((g) =>
                entry(`g${String(g.id)}`, g.name, g.avatar, () => setSelected({ kind: 'group', group: g }), () => onBuildChat(groupChat(g)), false, isSelected('group', g.id)),
              ),
            },
            ...friends.map((section) => ({
              key: `s${String(section.id)}`,
              label: (
                <Dropdown trigger={['contextMenu']} menu={sectionMenu(section)}>
                  <span>
                    {section.name} ({section.userList.filter((f) => f.online).length}/{section.userList.length})
                  </span>
                </Dropdown>
              ),
              children: section.userList.map((f) =>
                entry(
                  `f${String(f.id)}`,
                  f.remark || f.name,
                  f.avatar,
                  () => setSelected({ kind: 'friend', friend: { ...f, groupName: f.groupName ?? section.name } }),
                  () => onBuildChat(friendChat(f)),
                  !f.online,
                  isSelected('friend', f.id),
                ),
              ),
            })),
          ]}
        />
      </div>
      <div style={{ flex: 1, padding: 12, overflow: 'auto' }}>
        {selected?.kind === 'friend' && <FriendDetail friend={selected.friend} t={t} onChat={() => onBuildChat(friendChat(selected.friend))} />}
        {selected?.kind === 'group' && <GroupDetail group={selected.group} t={t} onChat={() => onBuildChat(groupChat(selected.group))} />}
      </div>
    </div>
  );
}

function FriendDetail({ friend, t, onChat }: { friend: Friend; t: Translate; onChat: () => void }) {
  return (
    <>
      <Descriptions size="small" column={1} title={friend.name}>
        <Descriptions.Item label={t('nickname')}>{friend.name}</Descriptions.Item>
        <Descriptions.Item label={t('remark')}>{friend.remark || t('addRemark')}</Descriptions.Item>
        <Descriptions.Item label={t('friendGroup')}>{friend.groupName}</Descriptions.Item>
        <Descriptions.Item label={t('phone')}>{friend.phone || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('email')}>{friend.email || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('introduction')}>
          {friend.introduction || t('lazyIntro')} {friend.cid && <CopyText text={friend.cid} t={t} />}
        </Descriptions.Item>
      </Descriptions>
      <Button type="primary" style={{ marginTop: 12 }} onClick={onChat}>
        {t('sendToChat')}
      </Button>
    </>
  );
}

function GroupDetail({ group, t, onChat }: { group: Group; t: Translate; onChat: () => void }) {
  return (
    <>
      <Descriptions size="small" column={1} title={group.name}>
        <Descriptions.Item label={t('groupName')}>{group.name}</Descriptions.Item>
        <Descriptions.Item label={t('groupNumber')}>
          {String(group.id)} <CopyText text={String(group.id)} t={t} />
        </Descriptions.Item>
        <Descriptions.Item label={t('notice')}>{group.notify || t('noNoticeYet')}</Descriptions.Item>
        <Descriptions.Item label={t('myCard')}>{group.mine}</Descriptions.Item>
        <Descriptions.Item label={t('memberCount')}>{group.userList?.length ?? 0}</Descriptions.Item>
        <Descriptions.Item label={t('introduction')}>{group.introduction}</Descriptions.Item>
      </Descriptions>
      <Button type="primary" onClick={onChat}>
        {t('sendToChat')}
      </Button>
    </>
  );
}
