import { useCallback, useEffect, useState } from 'react';
import type { ContactsOverview } from '@contract/chat';
import type { DataClient } from '@workers/client';

/**
 * The team side of the chat page: the user, friends by section, groups, requests and unread counts. Loaded on mount
 * and on `reload`; `setUnread` and `setOnline` follow pushes without a reload.
 */
export function useContacts(client: DataClient) {
  const [overview, setOverview] = useState<ContactsOverview | null>(null);
  const reload = useCallback(async () => {
    try {
      setOverview(await client.chat.overview());
    } catch {
      // The worker showed the reason.
    }
  }, [client]);
  useEffect(() => {
    void reload();
  }, [reload]);

  /** A conversation's unread count (`kind:id`): a number, or a change of the one held. */
  const setUnread = useCallback((key: string, unread: number | ((held: number) => number)) => {
    setOverview((current) => {
      if (!current) return current;
      const next = typeof unread === 'number' ? unread : unread(current.unread[key] ?? 0);
      return { ...current, unread: { ...current.unread, [key]: next } };
    });
  }, []);

  const setOnline = useCallback((userId: number, online: boolean) => {
    setOverview((current) =>
      current
        ? {
            ...current,
            sections: current.sections.map((s) => ({ ...s, friends: s.friends.map((f) => (f.id === userId ? { ...f, online } : f)) })),
            groups: current.groups.map((g) => ({ ...g, members: g.members.map((m) => (m.id === userId ? { ...m, online } : m)) })),
          }
        : current,
    );
  }, []);

  return { overview, reload, setUnread, setOnline };
}
