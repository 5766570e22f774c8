import { App } from 'antd';
import { useMemo } from 'react';
import type { DataClient } from '@workers/client';
import { parseRequestKey, type ChatT } from './adapters';
import type { ChatWidgetEvents } from './widget/types';

type TeamActions = Pick<ChatWidgetEvents, 'onAcceptFriend' | 'onRejectFriend' | 'onAddGroup' | 'onRenameGroup' | 'onApplyFriend' | 'onApplyResult'> & {
  createGroup: (name: string, introduction: string, done: () => void) => void;
};

/**
 * The widget's team events (friend and group requests, sections, new groups) as worker calls: each says what it did
 * when there is something to say, and the contacts are read again after it (the worker showed any failure).
 */
export function useTeamActions(client: DataClient, t: ChatT, reloadOverview: () => unknown): TeamActions {
  const { message } = App.useApp();
  return useMemo(() => {
    const act = (run: () => Promise<string | null>) =>
      void run()
        .then((done) => {
          if (done) void message.success(done);
        })
        .catch(() => undefined)
        .finally(() => void reloadOverview());
    return {
      onAcceptFriend: (data, group) =>
        act(async () => {
          const request = parseRequestKey(data.id);
          if (!request) return null;
          if (request.kind === 'group') await client.chat.decideGroup(request.id, true);
          else await client.chat.acceptFriend({ requestId: request.id, sectionId: group ? Number(group.value) : undefined });
          return null;
        }),
      onRejectFriend: (data) =>
        act(async () => {
          const request = parseRequestKey(data.id);
          if (!request) return null;
          if (request.kind === 'group') await client.chat.decideGroup(request.id, false);
          else await client.chat.rejectFriend(request.id);
          return null;
        }),
      onAddGroup: (name) => act(async () => (await client.chat.addSection(name), t('sectionAdded', { name }))),
      onRenameGroup: (id, name) => act(async () => (await client.chat.renameSection(Number(id), name), null)),
      onApplyFriend: ({ to, message: text, group }) =>
        act(async () => {
          await client.chat.applyFriend({ toId: Number(to.id), message: text, sectionId: group ? Number(group.value) : undefined });
          return t('requestSent');
        }),
      onApplyResult: (result) =>
        act(async () => {
          if (result.kind !== 'applyGroup') return null;
          await client.chat.applyGroup(Number(result.info.id), result.value);
          return t('requestSent');
        }),
      createGroup: (name, introduction, done) =>
        act(async () => {
          await client.chat.createGroup({ name, introduction });
          done();
          return t('groupCreated', { name });
        }),
    };
  }, [client, t, message, reloadOverview]);
}
