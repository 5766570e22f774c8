import { useTranslation } from 'react-i18next';
import { BellOutlined, ReloadOutlined, ShopOutlined, TeamOutlined, UserAddOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { Alert, Avatar, Badge, Button, Collapse, Empty, Space, Tag, Tooltip, Typography } from 'antd';
import type { BuyerChat, ChatListData, ContactsOverview, TeamGroup, TeamFriend } from '@contract/chat';
import { listTime } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { buyerChatLabel } from './adapters';

type ChatSidebarProps = {
  buyers: ChatListData | null;
  overview: ContactsOverview | null;
  onOpenBuyer: (chat: BuyerChat, shopName: string) => void;
  onOpenFriend: (friend: TeamFriend) => void;
  onOpenGroup: (group: TeamGroup) => void;
  onOpenSystem: () => void;
  onAddFriend: () => void;
  onCreateGroup: () => void;
  onRefresh: () => void;
};

/** The list beside the chat window: buyer chats per shop with unread counts, then the team's friends and groups. */
export function ChatSidebar({ buyers, overview, onOpenBuyer, onOpenFriend, onOpenGroup, onOpenSystem, onAddFriend, onCreateGroup, onRefresh }: ChatSidebarProps) {
  const { t } = useTranslation('chat');
  const pending = overview?.requests.filter((r) => r.status === 'pending' && r.to.id === overview.me.id).length ?? 0;
  return (
    <aside className="chat-sidebar" aria-label={t('title')}>
      <section aria-label={t('buyerChats')}>
        <div className="chat-sidebar-head">
          <Typography.Title level={5} style={{ margin: 0 }}>
            <ShopOutlined /> {t('buyerChats')}
          </Typography.Title>
          <Badge count={buyers?.totalUnread ?? 0} overflowCount={999} />
          <Tooltip title={t('refresh')}>
            <Button size="small" type="text" icon={<ReloadOutlined />} aria-label={t('refresh')} onClick={onRefresh} />
          </Tooltip>
        </div>
        {buyers && buyers.shops.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noShops')} />}
        {buyers && buyers.shops.length > 0 && (
          <Collapse
            size="small"
            defaultActiveKey={buyers.shops.map((s) => String(s.storeId))}
            items={buyers.shops.map((shop) => ({
              key: String(shop.storeId),
              label: (
                <span className="chat-shop-label" aria-label={`${shop.name} ${shop.unread}`}>
                  <span className="chat-ellipsis">{shop.name}</span>
                  <Badge count={shop.unread} overflowCount={999} title={String(shop.unread)} />
                </span>
              ),
              children: (
                <>
                  {shop.error && <Alert type="warning" showIcon message={t('shopError')} description={shop.error} style={{ marginBottom: 6 }} />}
                  {shop.chats.length === 0 && <Typography.Text type="secondary">{t('noChats')}</Typography.Text>}
                  <ul className="chat-entries chat-entries-scroll">
                    {shop.chats.map((chat) => (
                      <li key={chat.chatId}>
                        <BuyerEntry chat={chat} onOpen={() => onOpenBuyer(chat, shop.name)} />
                      </li>
                    ))}
                  </ul>
                </>
              ),
            }))}
          />
        )}
      </section>

      <section aria-label={t('team')}>
        <div className="chat-sidebar-head">
          <Typography.Title level={5} style={{ margin: 0 }}>
            <TeamOutlined /> {t('team')}
          </Typography.Title>
          <Space size={2}>
            <Tooltip title={t('addFriend')}>
              <Button size="small" type="text" icon={<UserAddOutlined />} aria-label={t('addFriend')} onClick={onAddFriend} />
            </Tooltip>
            <Tooltip title={t('createGroup')}>
              <Button size="small" type="text" icon={<UsergroupAddOutlined />} aria-label={t('createGroup')} onClick={onCreateGroup} />
            </Tooltip>
          </Space>
        </div>
        <button type="button" className="chat-entry" onClick={onOpenSystem}>
          <BellOutlined />
          <span className="chat-ellipsis">{t('systemMessages')}</span>
          {pending > 0 && <Tag color="orange">{t('pending', { count: pending })}</Tag>}
        </button>
        {overview && (
          <Collapse
            size="small"
            ghost
            defaultActiveKey={['friends', 'groups']}
            items={[
              {
                key: 'friends',
                label: t('friends'),
                children:
                  overview.sections.every((s) => s.friends.length === 0) ? (
                    <Typography.Text type="secondary">{t('noFriends')}</Typography.Text>
                  ) : (
                    overview.sections
                      .filter((s) => s.friends.length > 0)
                      .map((section) => (
                        <div key={section.id}>
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {section.name}
                          </Typography.Text>
                          <ul className="chat-entries">
                            {section.friends.map((friend) => (
                              <li key={friend.id}>
                                <button type="button" className="chat-entry" aria-label={friend.remark || friend.name} onClick={() => onOpenFriend(friend)}>
                                  <Badge dot status={friend.online ? 'success' : 'default'} title={friend.online ? t('online') : t('offline')}>
                                    <Avatar size="small" src={friend.avatar || undefined}>
                                      {friend.name.slice(0, 1)}
                                    </Avatar>
                                  </Badge>
                                  <span className="chat-ellipsis">{friend.remark || friend.name}</span>
                                  <Badge count={overview.unread[`friend:${friend.id}`] ?? 0} size="small" />
                                </button>
                              </li>
                            ))}
                          </ul>
                        </div>
                      ))
                  ),
              },
              {
                key: 'groups',
                label: t('groups'),
                children:
                  overview.groups.length === 0 ? (
                    <Typography.Text type="secondary">{t('noGroups')}</Typography.Text>
                  ) : (
                    <ul className="chat-entries">
                      {overview.groups.map((group) => (
                        <li key={group.id}>
                          <button type="button" className="chat-entry" aria-label={group.name} onClick={() => onOpenGroup(group)}>
                            <Avatar size="small" style={{ background: '#1890ff' }}>
                              {group.name.slice(0, 1)}
                            </Avatar>
                            <span className="chat-ellipsis">
                              {group.name} ({group.members.filter((m) => m.online).length}/{group.members.length})
                            </span>
                            <Badge count={overview.unread[`group:${group.id}`] ?? 0} size="small" />
                          </button>
                        </li>
                      ))}
                    </ul>
                  ),
              },
            ]}
          />
        )}
      </section>
    </aside>
  );
}

/**
 * One buyer chat in the list: who and when, the last message (a picture says so; the seller's own marked), the
 * unread count, and the posting and product the buyer writes about.
 */
function BuyerEntry({ chat, onOpen }: { chat: BuyerChat; onOpen: () => void }) {
  const { t, i18n } = useTranslation('chat');
  const lang = toLang(i18n.language);
  const last = chat.last;
  const text = last ? (last.isImage ? t('lastPicture') : last.text || t('lastEmpty')) : null;
  const about = chat.about;
  return (
    <button type="button" className="chat-entry chat-entry--buyer" onClick={onOpen}>
      <span className="chat-buyer-line">
        <span className="chat-ellipsis chat-buyer-name">{buyerChatLabel(chat, t)}</span>
        {chat.status === 'Closed' && <Tag className="chat-buyer-tag">{t('closed')}</Tag>}
        {last && (
          <time className="chat-buyer-time" dateTime={new Date(last.createdAt).toISOString()}>
            {listTime(lang, last.createdAt)}
          </time>
        )}
      </span>
      {text !== null && (
        <span className="chat-buyer-line">
          <span className={`chat-ellipsis chat-buyer-last${chat.unread > 0 ? ' chat-buyer-last--unread' : ''}`}>
            {last?.from === 'seller' ? t('lastMine', { text }) : text}
          </span>
          <Badge count={chat.unread} size="small" overflowCount={99} />
        </span>
      )}
      {text === null && chat.unread > 0 && <Badge count={chat.unread} size="small" overflowCount={99} />}
      {about && (
        <span className="chat-buyer-about chat-ellipsis" title={[about.postingNumber || about.orderNumber, about.productName].filter(Boolean).join(' · ')}>
          {about.postingNumber || about.orderNumber ? t('aboutPosting', { posting: about.postingNumber || about.orderNumber }) : null}
          {about.productName ? <span className="chat-buyer-product"> · {about.productName}</span> : null}
        </span>
      )}
    </button>
  );
}
