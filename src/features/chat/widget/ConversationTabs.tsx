import { BellOutlined } from '@ant-design/icons';
import { Avatar, Badge } from 'antd';
import { chatKey, type Chat } from '@contract/chatWidget';
import type { Translate } from './translate';

type ConversationTabsProps = {
  channels: Chat[];
  activeKey: string | null;
  badges: Record<string, number>;
  t: Translate;
  defaultAvatar?: string;
  onActivate: (chat: Chat) => void;
  onClose: (chat: Chat) => void;
};

export function ConversationTabs({ channels, activeKey, badges, t, defaultAvatar, onActivate, onClose }: ConversationTabsProps) {
  return (
    <div role="tablist" className="ichat-tabs" style={{ width: 180, overflowY: 'auto', borderRight: '1px solid #eee' }}>
      {channels.map((chat) => {
        const key = chatKey(chat);
        const offline = chat.type === 'friend' && chat.online === false;
        const name = chat.type === 'sys_msg' ? t('systemMessage') : chat.name;
        return (
          <div
            key={key}
            role="tab"
            aria-selected={key === activeKey}
            tabIndex={0}
            className={offline ? 'ichat-tab ichat-tab-offline' : 'ichat-tab'}
            onClick={() => onActivate(chat)}
            style={{
              display: 'flex',
              alignItems: 'center',
              gap: 6,
              padding: '6px 8px',
              cursor: 'pointer',
              background: key === activeKey ? '#f2f2f2' : undefined,
              filter: offline ? 'grayscale(1)' : undefined,
              opacity: offline ? 0.6 : 1,
            }}
          >
            <Badge count={badges[key] ?? 0} size="small" title={t('unread', { n: badges[key] ?? 0 })}>
              <Avatar size="small" src={chat.type === 'sys_msg' ? undefined : chat.avatar || defaultAvatar}>
                {chat.type === 'sys_msg' ? <BellOutlined /> : name.slice(0, 1)}
              </Avatar>
            </Badge>
            <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {name}
              {offline && <span style={{ fontSize: 11, color: '#999' }}> ({t('offline')})</span>}
            </span>
            <button
              type="button"
              aria-label={`${t('closeChat')} ${name}`}
              onClick={(e) => {
                e.stopPropagation();
                onClose(chat);
              }}
              style={{ border: 0, background: 'none', cursor: 'pointer', color: '#999' }}
            >
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}
