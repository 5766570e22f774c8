import {
  CONTACTS_MESSAGES,
  type ContactsOverview,
  type ConversationKind,
  type TeamGroup,
  type TeamMessage,
  type TeamRequest,
  type UserCard,
} from '../../../contract/chat';
import type { Lang } from '../../../contract/errors';
import type { PushMessage } from '../../../contract/push';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';

/**
 * Team contacts: friends in sections, friend and group applications, groups with notices and members, and the
 * messages between them. Every query is scoped by the caller's id, so a user only ever reads their own sections,
 * requests and conversations (a one-to-one conversation is the pair (caller, other); a group's only for its members).
 */
export type ContactsDeps = {
  database: Database;
  now: () => Date;
  push: (userId: number, message: PushMessage) => void;
  isOnline: (userId: number) => boolean;
};

type UserRow = { id: number; username: string; avatar: string; introduction: string };
type RequestRow = {
  id: number;
  from_user_id: number;
  to_user_id: number;
  group_id: number | null;
  from_section_id: number | null;
  message: string;
  status: TeamRequest['status'];
  created_at: Date | string;
  decided_at: Date | string | null;
};

const ms = (v: Date | string) => new Date(v).getTime();
const fail = (code: number, key: keyof typeof CONTACTS_MESSAGES, field: string | null = null) => new ApiError(code, CONTACTS_MESSAGES[key], field);

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** LIKE pattern for a literal substring. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createContactsService(deps: ContactsDeps) {
  const { database } = deps;
  const q = database.query.bind(database);
  const now = () => deps.now().toISOString();

  const card = (row: UserRow): UserCard => ({
    id: row.id,
    name: row.username,
    avatar: row.avatar,
    introduction: row.introduction,
    online: deps.isOnline(row.id),
  });

  async function userById(id: number): Promise<UserRow | undefined> {
    const [row] = await q<UserRow>(`select id, username, avatar, introduction from users where id = $1`, [id]);
    return row;
  }

  async function requireUserRow(id: number, field = 'toId'): Promise<UserRow> {
    const row = await userById(id);
    if (!row) throw fail(404, 'userNotFound', field);
    return row;
  }

  /** The caller's first section, made on first need in the caller's language. */
  async function defaultSection(userId: number, lang: Lang): Promise<number> {
    const [first] = await q<{ id: number }>(`select id from chat_friend_sections where user_id = $1 order by id limit 1`, [userId]);
    if (first) return first.id;
    const [made] = await q<{ id: number }>(
      `insert into chat_friend_sections (user_id, name, created_at) values ($1, $2, $3::timestamptz)
       on conflict (user_id, name) do update set name = excluded.name returning id`,
      [userId, CONTACTS_MESSAGES.defaultSection[lang], now()],
    );
    return made!.id;
  }

  async function ownSection(userId: number, sectionId: number | undefined, lang: Lang): Promise<number> {
    if (sectionId === undefined) return defaultSection(userId, lang);
    const [row] = await q<{ id: number }>(`select id from chat_friend_sections where id = $1 and user_id = $2`, [sectionId, userId]);
    if (!row) throw fail(404, 'sectionNotFound', 'sectionId');
    return row.id;
  }

  async function areFriends(userId: number, otherId: number): Promise<boolean> {
    const rows = await q(`select 1 from chat_friendships where user_id = $1 and friend_id = $2`, [userId, otherId]);
    return rows.length > 0;
  }

  async function isMember(userId: number, groupId: number): Promise<boolean> {
    const rows = await q(`select 1 from chat_group_members where group_id = $1 and user_id = $2`, [groupId, userId]);
    return rows.length > 0;
  }

  async function memberIds(groupId: number): Promise<number[]> {
    return (await q<{ user_id: number }>(`select user_id from chat_group_members where group_id = $1`, [groupId])).map((r) => r.user_id);
  }

  async function toRequest(row: RequestRow): Promise<TeamRequest> {
    const [from, to] = await Promise.all([userById(row.from_user_id), userById(row.to_user_id)]);
    const [group] = row.group_id === null ? [] : await q<{ id: number; name: string }>(`select id, name from chat_groups where id = $1`, [row.group_id]);
    const brief = (u: UserRow | undefined, id: number) => ({ id, name: u?.username ?? '', avatar: u?.avatar ?? '' });
    return {
      id: row.id,
      kind: row.group_id === null ? 'friend' : 'group',
      from: brief(from, row.from_user_id),
      to: brief(to, row.to_user_id),
      group: group ?? null,
      message: row.message,
      status: row.status,
      createdAt: ms(row.created_at),
      decidedAt: row.decided_at === null ? null : ms(row.decided_at),
    };
  }

  async function groupsOf(userId: number): Promise<TeamGroup[]> {
    const groups = await q<{ id: number; name: string; introduction: string; owner_id: number }>(
      `select g.id, g.name, g.introduction, g.owner_id from chat_groups g join chat_group_members m on m.group_id = g.id and m.user_id = $1 order by g.id`,
      [userId],
    );
    if (groups.length === 0) return [];
    const ids = groups.map((g) => g.id);
    const members = await q<UserRow & { group_id: number; role: 'owner' | 'member' }>(
      `select m.group_id, m.role, u.id, u.username, u.avatar, u.introduction from chat_group_members m join users u on u.id = m.user_id
       where m.group_id = any($1::int[]) order by m.role desc, m.joined_at, u.id`,
      [ids],
    );
    const notices = await q<{ id: number; group_id: number; type: string; title: string; created_at: Date | string }>(
      `select id, group_id, type, title, created_at from chat_group_notices where group_id = any($1::int[]) order by id desc`,
      [ids],
    );
    return groups.map((g) => ({
      id: g.id,
      name: g.name,
      introduction: g.introduction,
      ownerId: g.owner_id,
      notices: notices.filter((n) => n.group_id === g.id).map((n) => ({ id: n.id, type: n.type, title: n.title, createdAt: ms(n.created_at) })),
      members: members.filter((m) => m.group_id === g.id).map((m) => ({ ...card(m), role: m.role })),
    }));
  }

  async function friendIds(userId: number): Promise<number[]> {
    return (await q<{ friend_id: number }>(`select friend_id from chat_friendships where user_id = $1`, [userId])).map((r) => r.friend_id);
  }

  async function unreadCounts(userId: number): Promise<Record<string, number>> {
    const friends = await q<{ peer: number; n: number }>(
      `select m.sender_id as peer, count(*)::int as n from chat_messages m
       left join chat_reads r on r.user_id = $1 and r.conversation = 'friend:' || m.sender_id
       where m.group_id is null and (m.user_low = $1 or m.user_high = $1) and m.sender_id <> $1 and m.id > coalesce(r.last_read_id, 0)
       group by m.sender_id`,
      [userId],
    );
    const groups = await q<{ group_id: number; n: number }>(
      `select m.group_id, count(*)::int as n from chat_messages m
       join chat_group_members gm on gm.group_id = m.group_id and gm.user_id = $1
       left join chat_reads r on r.user_id = $1 and r.conversation = 'group:' || m.group_id
       where m.sender_id <> $1 and m.created_at >= gm.joined_at and m.id > coalesce(r.last_read_id, 0)
       group by m.group_id`,
      [userId],
    );
    return Object.fromEntries([...friends.map((r) => [`friend:${r.peer}`, r.n]), ...groups.map((r) => [`group:${r.group_id}`, r.n])]);
  }

  const pushContacts = (userIds: Iterable<number>) => {
    for (const id of new Set(userIds)) deps.push(id, { type: 'chat.contacts' });
  };
  const pushRequest = (request: TeamRequest) => {
    for (const id of new Set([request.from.id, request.to.id])) deps.push(id, { type: 'chat.request', request });
  };

  async function pendingRequest(requestId: number, ownerId: number, kind: ConversationKind): Promise<RequestRow> {
    const [row] = await q<RequestRow>(
      `select * from chat_requests where id = $1 and to_user_id = $2 and status = 'pending' and (group_id is null) = $3`,
      [requestId, ownerId, kind === 'friend'],
    );
    if (!row) throw fail(404, 'requestNotFound', 'requestId');
    return row;
  }

  async function decide(row: RequestRow, status: 'accepted' | 'rejected'): Promise<TeamRequest> {
    const [updated] = await q<RequestRow>(
      `update chat_requests set status = $2, decided_at = $3::timestamptz where id = $1 and status = 'pending' returning *`,
      [row.id, status, now()],
    );
    // Answered twice at the same moment (two pages): the first answer stands.
    if (!updated) throw fail(404, 'requestNotFound', 'requestId');
    const request = await toRequest(updated);
    pushRequest(request);
    return request;
  }

  const conversationOf = (kind: ConversationKind, id: number) => `${kind}:${id}`;

  async function requireConversation(userId: number, kind: ConversationKind, id: number) {
    if (kind === 'group') {
      if (!(await isMember(userId, id))) throw fail(400, 'notMember', 'id');
    } else if (!(await userById(id))) {
      throw fail(404, 'userNotFound', 'id');
    }
  }

  type MessageRow = { id: number; sender_id: number; group_id: number | null; user_low: number | null; user_high: number | null; content: string; created_at: Date | string; username: string; avatar: string };
  const toMessage = (row: MessageRow): TeamMessage => ({
    id: row.id,
    kind: row.group_id === null ? 'friend' : 'group',
    sender: { id: row.sender_id, name: row.username, avatar: row.avatar },
    toId: row.group_id ?? (row.user_low === row.sender_id ? row.user_high! : row.user_low!),
    content: row.content,
    createdAt: ms(row.created_at),
  });

  async function markRead(userId: number, body: { kind: ConversationKind; id: number; messageId: number }): Promise<number> {
    await q(
      `insert into chat_reads (user_id, conversation, last_read_id) values ($1, $2, $3)
       on conflict (user_id, conversation) do update set last_read_id = greatest(chat_reads.last_read_id, excluded.last_read_id)`,
      [userId, conversationOf(body.kind, body.id), body.messageId],
    );
    return (await unreadCounts(userId))[conversationOf(body.kind, body.id)] ?? 0;
  }

  return {
    async overview(userId: number, lang: Lang): Promise<ContactsOverview> {
      const me = await requireUserRow(userId, 'userId');
      await defaultSection(userId, lang);
      const sections = await q<{ id: number; name: string }>(`select id, name from chat_friend_sections where user_id = $1 order by id`, [userId]);
      const friends = await q<UserRow & { section_id: number; remark: string }>(
        `select f.section_id, f.remark, u.id, u.username, u.avatar, u.introduction from chat_friendships f join users u on u.id = f.friend_id
         where f.user_id = $1 order by u.username`,
        [userId],
      );
      const requests = await q<RequestRow>(
        `select * from chat_requests where to_user_id = $1 or (from_user_id = $1 and status <> 'pending') order by id desc limit 100`,
        [userId],
      );
      return {
        me: card(me),
        sections: sections.map((s) => ({
          id: s.id,
          name: s.name,
          friends: friends.filter((f) => f.section_id === s.id).map((f) => ({ ...card(f), sectionId: f.section_id, remark: f.remark })),
        })),
        groups: await groupsOf(userId),
        requests: await Promise.all(requests.map(toRequest)),
        unread: await unreadCounts(userId),
      };
    },

    async searchUsers(userId: number, keyword: string) {
      const rows = await q<UserRow & { is_friend: boolean }>(
        `select u.id, u.username, u.avatar, u.introduction, exists (select 1 from chat_friendships f where f.user_id = $1 and f.friend_id = u.id) as is_friend
         from users u where u.id <> $1 and lower(u.username) like $2 escape '\\' order by length(u.username), u.username limit 20`,
        [userId, containsPattern(keyword)],
      );
      return rows.map((r) => ({ ...card(r), isFriend: r.is_friend }));
    },

    async searchGroups(userId: number, keyword: string) {
      const rows = await q<{ id: number; name: string; introduction: string; members: number; is_member: boolean }>(
        `select g.id, g.name, g.introduction, (select count(*)::int from chat_group_members m where m.group_id = g.id) as members,
           exists (select 1 from chat_group_members m where m.group_id = g.id and m.user_id = $1) as is_member
         from chat_groups g where lower(g.name) like $2 escape '\\' order by g.id limit 20`,
        [userId, containsPattern(keyword)],
      );
      return rows.map((r) => ({ id: r.id, name: r.name, introduction: r.introduction, members: r.members, isMember: r.is_member }));
    },

    async applyFriend(userId: number, body: { toId: number; message: string; sectionId?: number | undefined }, lang: Lang): Promise<TeamRequest> {
      if (body.toId === userId) throw fail(400, 'notYourself', 'toId');
      await requireUserRow(body.toId);
      if (await areFriends(userId, body.toId)) throw fail(400, 'alreadyFriends', 'toId');
      const sectionId = await ownSection(userId, body.sectionId, lang);
      const pending = await q(`select 1 from chat_requests where from_user_id = $1 and to_user_id = $2 and group_id is null and status = 'pending'`, [userId, body.toId]);
      if (pending.length) throw fail(400, 'requestPending', 'toId');
      const [row] = await q<RequestRow>(
        `insert into chat_requests (from_user_id, to_user_id, from_section_id, message, created_at) values ($1, $2, $3, $4, $5::timestamptz) returning *`,
        [userId, body.toId, sectionId, body.message, now()],
      );
      const request = await toRequest(row!);
      pushRequest(request);
      return request;
    },

    async acceptFriend(userId: number, body: { requestId: number; sectionId?: number | undefined }, lang: Lang): Promise<TeamRequest> {
      const row = await pendingRequest(body.requestId, userId, 'friend');
      const mySection = await ownSection(userId, body.sectionId, lang);
      const theirSection = row.from_section_id ?? (await defaultSection(row.from_user_id, lang));
      const request = await decide(row, 'accepted');
      await q(
        `insert into chat_friendships (user_id, friend_id, section_id, created_at) values ($1, $2, $3, $5::timestamptz), ($2, $1, $4, $5::timestamptz)
         on conflict do nothing`,
        [userId, row.from_user_id, mySection, theirSection, now()],
      );
      pushContacts([userId, row.from_user_id]);
      return request;
    },

    async rejectFriend(userId: number, requestId: number): Promise<TeamRequest> {
      return decide(await pendingRequest(requestId, userId, 'friend'), 'rejected');
    },

    async addSection(userId: number, name: string) {
      try {
        const [row] = await q<{ id: number; name: string }>(
          `insert into chat_friend_sections (user_id, name, created_at) values ($1, $2, $3::timestamptz) returning id, name`,
          [userId, name, now()],
        );
        pushContacts([userId]);
        return row!;
      } catch (error) {
        if (isUniqueViolation(error)) throw fail(400, 'sectionExists', 'name');
        throw error;
      }
    },

    async renameSection(userId: number, id: number, name: string) {
      try {
        const [row] = await q<{ id: number; name: string }>(`update chat_friend_sections set name = $3 where id = $1 and user_id = $2 returning id, name`, [id, userId, name]);
        if (!row) throw fail(404, 'sectionNotFound', 'id');
        pushContacts([userId]);
        return row;
      } catch (error) {
        if (isUniqueViolation(error)) throw fail(400, 'sectionExists', 'name');
        throw error;
      }
    },

    async createGroup(userId: number, body: { name: string; introduction: string }): Promise<TeamGroup> {
      const [group] = await q<{ id: number }>(
        `insert into chat_groups (name, introduction, owner_id, created_at) values ($1, $2, $3, $4::timestamptz) returning id`,
        [body.name, body.introduction, userId, now()],
      );
      await q(`insert into chat_group_members (group_id, user_id, role, joined_at) values ($1, $2, 'owner', $3::timestamptz)`, [group!.id, userId, now()]);
      pushContacts([userId]);
      return (await groupsOf(userId)).find((g) => g.id === group!.id)!;
    },

    async applyGroup(userId: number, body: { groupId: number; message: string }): Promise<TeamRequest> {
      const [group] = await q<{ id: number; owner_id: number }>(`select id, owner_id from chat_groups where id = $1`, [body.groupId]);
      if (!group) throw fail(404, 'groupNotFound', 'groupId');
      if (await isMember(userId, group.id)) throw fail(400, 'alreadyMember', 'groupId');
      const pending = await q(`select 1 from chat_requests where from_user_id = $1 and group_id = $2 and status = 'pending'`, [userId, group.id]);
      if (pending.length) throw fail(400, 'groupRequestPending', 'groupId');
      const [row] = await q<RequestRow>(
        `insert into chat_requests (from_user_id, to_user_id, group_id, message, created_at) values ($1, $2, $3, $4, $5::timestamptz) returning *`,
        [userId, group.owner_id, group.id, body.message, now()],
      );
      const request = await toRequest(row!);
      pushRequest(request);
      return request;
    },

    async decideGroup(userId: number, requestId: number, accept: boolean): Promise<TeamRequest> {
      const row = await pendingRequest(requestId, userId, 'group');
      const request = await decide(row, accept ? 'accepted' : 'rejected');
      if (accept) {
        await q(`insert into chat_group_members (group_id, user_id, role, joined_at) values ($1, $2, 'member', $3::timestamptz) on conflict do nothing`, [
          row.group_id,
          row.from_user_id,
          now(),
        ]);
        pushContacts(await memberIds(row.group_id!));
      }
      return request;
    },

    async leaveGroup(userId: number, groupId: number) {
      const [member] = await q<{ role: string }>(`select role from chat_group_members where group_id = $1 and user_id = $2`, [groupId, userId]);
      if (!member) throw fail(400, 'notMember', 'groupId');
      if (member.role === 'owner') throw fail(400, 'ownerCannotLeave', 'groupId');
      await q(`delete from chat_group_members where group_id = $1 and user_id = $2`, [groupId, userId]);
      pushContacts([userId, ...(await memberIds(groupId))]);
      return null;
    },

    async addNotice(userId: number, body: { groupId: number; type: string; title: string }) {
      const [group] = await q<{ owner_id: number }>(`select owner_id from chat_groups where id = $1`, [body.groupId]);
      if (!group) throw fail(404, 'groupNotFound', 'groupId');
      if (group.owner_id !== userId) throw fail(400, 'ownerOnly', 'groupId');
      const [row] = await q<{ id: number; type: string; title: string; created_at: Date | string }>(
        `insert into chat_group_notices (group_id, type, title, created_at) values ($1, $2, $3, $4::timestamptz) returning id, type, title, created_at`,
        [body.groupId, body.type, body.title, now()],
      );
      pushContacts(await memberIds(body.groupId));
      return { id: row!.id, type: row!.type, title: row!.title, createdAt: ms(row!.created_at) };
    },

    async history(userId: number, query: { kind: ConversationKind; id: number; before?: number | undefined; rows: number }) {
      await requireConversation(userId, query.kind, query.id);
      const before = query.before ?? 2_147_483_647;
      const scope =
        query.kind === 'group'
          ? { sql: `m.group_id = $1`, params: [query.id] }
          : { sql: `m.group_id is null and m.user_low = $1 and m.user_high = $2`, params: [Math.min(userId, query.id), Math.max(userId, query.id)] };
      const n = scope.params.length;
      const rows = await q<MessageRow>(
        `select m.*, u.username, u.avatar from chat_messages m join users u on u.id = m.sender_id
         where ${scope.sql} and m.id < $${n + 1} order by m.id desc limit $${n + 2}`,
        [...scope.params, before, query.rows + 1],
      );
      return { messages: rows.slice(0, query.rows).reverse().map(toMessage), hasMore: rows.length > query.rows };
    },

    async send(userId: number, body: { kind: ConversationKind; id: number; content: string; clientKey?: string | undefined }): Promise<TeamMessage> {
      let recipients: number[];
      let row: MessageRow | undefined;
      if (body.kind === 'friend') {
        if (!(await areFriends(userId, body.id))) throw fail(400, 'notFriends', 'id');
        [row] = await q<MessageRow>(
          `insert into chat_messages (sender_id, user_low, user_high, content, created_at) values ($1, $2, $3, $4, $5::timestamptz) returning *, '' as username, '' as avatar`,
          [userId, Math.min(userId, body.id), Math.max(userId, body.id), body.content, now()],
        );
        recipients = [body.id];
      } else {
        if (!(await isMember(userId, body.id))) throw fail(400, 'notMember', 'id');
        [row] = await q<MessageRow>(
          `insert into chat_messages (sender_id, group_id, content, created_at) values ($1, $2, $3, $4::timestamptz) returning *, '' as username, '' as avatar`,
          [userId, body.id, body.content, now()],
        );
        recipients = (await memberIds(body.id)).filter((id) => id !== userId);
      }
      const sender = await requireUserRow(userId, 'userId');
      const message = toMessage({ ...row!, username: sender.username, avatar: sender.avatar });
      await markRead(userId, { kind: body.kind, id: body.id, messageId: message.id });
      // The other side gets it live, and so do the sender's other pages: the key tells the sending page its own copy.
      for (const id of recipients) deps.push(id, { type: 'chat.message', message });
      const own = body.clientKey ? { ...message, clientKey: body.clientKey } : message;
      deps.push(userId, { type: 'chat.message', message: own });
      return own;
    },

    async read(userId: number, body: { kind: ConversationKind; id: number; messageId: number }) {
      await requireConversation(userId, body.kind, body.id);
      return markRead(userId, body);
    },

    /** Friends hear when someone opens their first page or closes their last. */
    async announcePresence(userId: number, online: boolean) {
      for (const id of await friendIds(userId)) deps.push(id, { type: 'chat.presence', userId, online });
    },
  };
}

export type ContactsService = ReturnType<typeof createContactsService>;
