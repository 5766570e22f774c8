import { useTranslation } from 'react-i18next';
import type { Lang } from '@contract/errors';
import { toLang } from '@/app/i18n';

/** The page's own dialogs open above the floating chat window (z-index 1002); the spec's dialog layers start at 2000. */
export const CHAT_MODAL_Z_INDEX = 2000;

const zh = {
  title: '买家会话',
  buyerChats: '买家会话',
  noShops: '还没有店铺，请先在店铺管理中添加店铺',
  noChats: '暂无会话',
  shopError: '暂时无法读取该店铺的会话，显示的是上次同步的结果',
  closed: '已关闭',
  support: 'Ozon客服',
  buyer: '买家',
  buyerChat: (short: string) => `买家 ${short}`,
  team: '团队',
  friends: '好友',
  groups: '群组',
  noFriends: '还没有好友，搜索用户名添加好友',
  noGroups: '还没有加入群组',
  systemMessages: '系统消息',
  pending: (n: number) => `${n} 条待处理`,
  addFriend: '添加好友',
  searchPlaceholder: '输入用户名或群名搜索',
  searchUsers: '用户',
  searchGroups: '群组',
  apply: '申请',
  alreadyFriend: '已是好友',
  alreadyMember: '已加入',
  noResults: '没有找到',
  createGroup: '创建群组',
  groupName: '群名称',
  groupIntroduction: '群介绍',
  groupCreated: (name: string) => `群组“${name}”已创建`,
  requestSent: '申请已发送，等待对方处理',
  sectionAdded: (name: string) => `分组“${name}”已添加`,
  online: '在线',
  offline: '离线',
  uploadUnsupported: '暂不支持发送图片和文件',
  appliedToJoin: (group: string) => `申请加入群“${group}”`,
  wantsToBeFriend: '申请加你为好友',
  requestAccepted: (name: string) => `${name} 同意了你的申请`,
  requestRejected: (name: string) => `${name} 拒绝了你的申请`,
  refresh: '刷新',
  openChat: '打开聊天窗口',
};

export type ChatTexts = typeof zh;

const en: ChatTexts = {
  title: 'Buyer chats',
  buyerChats: 'Buyer chats',
  noShops: 'No shops yet: add one under shop management first',
  noChats: 'No chats',
  shopError: 'This shop\'s chats cannot be read right now; these are from the last sync',
  closed: 'Closed',
  support: 'Ozon support',
  buyer: 'Buyer',
  buyerChat: (short: string) => `Buyer ${short}`,
  team: 'Team',
  friends: 'Friends',
  groups: 'Groups',
  noFriends: 'No friends yet: search a user name to add one',
  noGroups: 'You are in no group yet',
  systemMessages: 'System messages',
  pending: (n: number) => `${n} waiting`,
  addFriend: 'Add friend',
  searchPlaceholder: 'Search a user name or a group name',
  searchUsers: 'Users',
  searchGroups: 'Groups',
  apply: 'Apply',
  alreadyFriend: 'Friends',
  alreadyMember: 'Member',
  noResults: 'Nothing found',
  createGroup: 'Create group',
  groupName: 'Group name',
  groupIntroduction: 'Introduction',
  groupCreated: (name: string) => `Group "${name}" created`,
  requestSent: 'Application sent; waiting for an answer',
  sectionAdded: (name: string) => `Section "${name}" added`,
  online: 'Online',
  offline: 'Offline',
  uploadUnsupported: 'Sending pictures and files is not supported yet',
  appliedToJoin: (group: string) => `asks to join the group "${group}"`,
  wantsToBeFriend: 'wants to be your friend',
  requestAccepted: (name: string) => `${name} accepted your application`,
  requestRejected: (name: string) => `${name} declined your application`,
  refresh: 'Refresh',
  openChat: 'Open the chat window',
};

export const CHAT_TEXTS: Record<Lang, ChatTexts> = { zh, en };

export function useChatTexts(): { texts: ChatTexts; lang: Lang } {
  const { i18n } = useTranslation();
  const lang = toLang(i18n.language);
  return { texts: CHAT_TEXTS[lang], lang };
}
