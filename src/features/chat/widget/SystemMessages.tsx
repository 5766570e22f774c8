import { useActorRef, useSelector } from '@xstate/react';
import { appActorOptions } from '@/app/createAppActor';
import { Avatar, Button, Space, Tag } from 'antd';
import { useEffect, useRef } from 'react';
import type { GroupOption, SystemMessage } from '@contract/chatWidget';
import { friendRequestMachine, selectRequestStatus } from '@machines/friendRequestMachine';
import { useFormats } from '@/app/formats';
import type { Translate } from './translate';

export type FriendRequestDecision = {
  /** Asks the user for a group (confirmFriend dialog; confirmGroup for an applyGroup item); resolves undefined when dismissed. */
  chooseGroup: (request: SystemMessage) => Promise<GroupOption | null | undefined>;
  /** Asks "reject {name}'s friend application?"; resolves false when dismissed. */
  confirmReject: (request: SystemMessage) => Promise<boolean>;
};

type SystemMessagesProps = FriendRequestDecision & {
  messages: SystemMessage[];
  t: Translate;
  defaultAvatar?: string;
  onAcceptFriend?: (data: SystemMessage, group: GroupOption | null) => void;
  onRejectFriend?: (data: SystemMessage) => void;
};

export function SystemMessages({ messages, t, defaultAvatar, ...rest }: SystemMessagesProps) {
  const formats = useFormats();
  return (
    <div className="ichat-system" style={{ flex: 1, overflow: 'auto', padding: 8 }}>
      {messages.map((m) => (
        <div key={String(m.id)} style={{ display: 'flex', gap: 8, padding: '6px 0', borderBottom: '1px solid #f2f2f2' }}>
          <Avatar src={m.from.avatar || defaultAvatar}>{m.from.name.slice(0, 1)}</Avatar>
          <div style={{ flex: 1 }}>
            <div>
              <strong>{m.from.name}</strong> <span style={{ color: '#999', fontSize: 12 }}>{formats.seconds.format(m.timestamp)}</span>
            </div>
            {m.type === 'applyGroup' ? (
              <div>
                <Tag color="blue">{t('groupApplication')}</Tag>
                {t('appliesToJoin')} <strong>{m.group?.name}</strong>
                {m.message ? <div style={{ color: '#666' }}>{m.message}</div> : null}
              </div>
            ) : m.type === 'applyFriend' ? (
              <div>
                <Tag color="green">{t('friendApplication')}</Tag>
                {m.message}
              </div>
            ) : (
              <div>{m.message}</div>
            )}
          </div>
          {(m.type === 'applyFriend' || m.type === 'applyGroup') && <FriendRequestItem request={m} t={t} {...rest} />}
        </div>
      ))}
      <p style={{ textAlign: 'center', color: '#999' }}>{t('noMoreMessages')}</p>
    </div>
  );
}

type FriendRequestItemProps = FriendRequestDecision & {
  request: SystemMessage;
  t: Translate;
  onAcceptFriend?: (data: SystemMessage, group: GroupOption | null) => void;
  onRejectFriend?: (data: SystemMessage) => void;
};

function FriendRequestItem({ request, t, chooseGroup, confirmReject, onAcceptFriend, onRejectFriend }: FriendRequestItemProps) {
  const actor = useActorRef(friendRequestMachine, { ...appActorOptions(), input: { request } });
  const status = useSelector(actor, selectRequestStatus);
  const handlers = useRef({ onAcceptFriend, onRejectFriend });
  handlers.current = { onAcceptFriend, onRejectFriend };

  useEffect(() => {
    const a = actor.on('acceptFriend', (e) => handlers.current.onAcceptFriend?.(e.data, e.group));
    const r = actor.on('rejectFriend', (e) => handlers.current.onRejectFriend?.(e.data));
    return () => {
      a.unsubscribe();
      r.unsubscribe();
    };
  }, [actor]);

  if (status === 'accepted') return <span style={{ color: '#999' }}>{t('agreed')}</span>;
  if (status === 'rejected') return <span style={{ color: '#999' }}>{t('rejected')}</span>;
  const busy = status !== 'pending';
  return (
    <Space>
      <Button
        size="small"
        type="primary"
        disabled={busy}
        onClick={async () => {
          actor.send({ type: 'request.agree' });
          const group = await chooseGroup(request);
          actor.send(group === undefined ? { type: 'request.dismissed' } : { type: 'request.groupChosen', group });
        }}
      >
        {t('agree')}
      </Button>
      <Button
        size="small"
        disabled={busy}
        onClick={async () => {
          actor.send({ type: 'request.reject' });
          actor.send((await confirmReject(request)) ? { type: 'request.rejectConfirmed' } : { type: 'request.dismissed' });
        }}
      >
        {t('reject')}
      </Button>
    </Space>
  );
}
