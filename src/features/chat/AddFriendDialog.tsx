import { useTranslation } from 'react-i18next';
import { Avatar, Button, Input, List, Modal, Tabs, Typography } from 'antd';
import { useState } from 'react';
import type { UserCard } from '@contract/chat';
import { useDataClient } from '@/app/dataClient';
import { CHAT_MODAL_Z_INDEX } from './layers';

type FoundUser = UserCard & { isFriend: boolean };
type FoundGroup = { id: number; name: string; introduction: string; members: number; isMember: boolean };

type AddFriendDialogProps = {
  open: boolean;
  onClose: () => void;
  /** The widget's applyFriend / applyGroup dialog takes over from here. */
  onApplyFriend: (user: FoundUser) => void;
  onApplyGroup: (group: FoundGroup) => void;
};

/** "Add friend": finds people and groups by name; applying opens the widget's own apply dialog. */
export function AddFriendDialog({ open, onClose, onApplyFriend, onApplyGroup }: AddFriendDialogProps) {
  const { t } = useTranslation('chat');
  const client = useDataClient();
  const [users, setUsers] = useState<FoundUser[] | null>(null);
  const [groups, setGroups] = useState<FoundGroup[] | null>(null);
  const [searching, setSearching] = useState(false);

  const search = async (keyword: string) => {
    const text = keyword.trim();
    if (!text) return;
    setSearching(true);
    try {
      const [u, g] = await Promise.all([client.chat.searchUsers(text), client.chat.searchGroups(text)]);
      setUsers(u);
      setGroups(g);
    } catch {
      // The worker showed the reason.
    } finally {
      setSearching(false);
    }
  };

  return (
    <Modal open={open} title={t('addFriend')} zIndex={CHAT_MODAL_Z_INDEX} footer={null} onCancel={onClose} destroyOnHidden width={480}>
      <Input.Search placeholder={t('searchPlaceholder')} aria-label={t('searchPlaceholder')} enterButton loading={searching} onSearch={(v) => void search(v)} allowClear />
      {users && groups && (
        <Tabs
          items={[
            {
              key: 'users',
              label: `${t('searchUsers')} (${users.length})`,
              children: (
                <List
                  size="small"
                  locale={{ emptyText: t('noResults') }}
                  dataSource={users}
                  renderItem={(user) => (
                    <List.Item
                      actions={[
                        user.isFriend ? (
                          <Typography.Text type="secondary" key="f">
                            {t('alreadyFriend')}
                          </Typography.Text>
                        ) : (
                          <Button key="a" size="small" type="primary" aria-label={`${t('apply')} ${user.name}`} onClick={() => onApplyFriend(user)}>
                            {t('apply')}
                          </Button>
                        ),
                      ]}
                    >
                      <List.Item.Meta avatar={<Avatar src={user.avatar || undefined}>{user.name.slice(0, 1)}</Avatar>} title={user.name} description={user.introduction || undefined} />
                    </List.Item>
                  )}
                />
              ),
            },
            {
              key: 'groups',
              label: `${t('searchGroups')} (${groups.length})`,
              children: (
                <List
                  size="small"
                  locale={{ emptyText: t('noResults') }}
                  dataSource={groups}
                  renderItem={(group) => (
                    <List.Item
                      actions={[
                        group.isMember ? (
                          <Typography.Text type="secondary" key="m">
                            {t('alreadyMember')}
                          </Typography.Text>
                        ) : (
                          <Button key="a" size="small" type="primary" aria-label={`${t('apply')} ${group.name}`} onClick={() => onApplyGroup(group)}>
                            {t('apply')}
                          </Button>
                        ),
                      ]}
                    >
                      <List.Item.Meta title={`${group.name} (${group.members})`} description={group.introduction || undefined} />
                    </List.Item>
                  )}
                />
              ),
            },
          ]}
        />
      )}
    </Modal>
  );
}
