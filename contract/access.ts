/**
 * Who may reach what (seller-tool §2.1 and §6). One table for the browser's route filtering and the server's
 * call checks: a page's calls are gated on the same roles as the page.
 *
 * Rule: admin reaches everything; anyone else reaches what lists at least one of their role permissions
 * (their active roles, or 'common' when they have none); an area without roles is open to every logged-in user.
 */
export const ROLES = ['admin', 'follow', 'search', 'keyword'] as const;
export type Role = (typeof ROLES)[number];
/** What a user without any role is treated as (spec §6). */
export const COMMON_ROLE = 'common';
export type RoleOrCommon = Role | typeof COMMON_ROLE;

export type AreaRoles = readonly Role[];

/**
 * The paid period that keeps each paid role active (the user's validity times, contract/session.ts); admin needs
 * none. A role whose period has ended opens nothing until it is extended.
 */
export const ROLE_PERIOD = {
  follow: 'followValidTime',
  search: 'searchWordValidTime',
  keyword: 'keyWordValidTime',
} as const satisfies Record<Exclude<Role, 'admin'>, string>;

export const ADMIN_AREA_PATH = 'ops-console';

export const AREA_ROLES = {
  open: [],
  store: ['admin', 'follow'],
  copy: ['admin', 'follow'],
  collection: ['admin', 'follow'],
  create: ['admin'],
  editImage: ['admin', 'follow'],
  orders: ['admin', 'follow'],
  allCopyHistory: ['admin'],
  products: ['admin', 'follow'],
  actions: ['admin', 'follow'],
  hotProductPro: ['admin', 'follow', 'search'],
  research: ['search', 'follow'],
  /** The data-analysis group: visible to search, keyword and follow. */
  dataAnalysis: ['search', 'keyword', 'follow'],
  returns: ['admin', 'follow'],
  chat: ['admin', 'follow'],
  analyze: ['admin', 'follow'],
  admin: ['admin'],
  /** The organisation console (members, departments, positions, roles, operation log): every owner has one. */
  team: [],
} as const satisfies Record<string, AreaRoles>;

export type Area = keyof typeof AREA_ROLES;

export function isPermitted(roles: readonly string[], rolePermissions: readonly string[]): boolean {
  if (rolePermissions.includes('admin')) return true;
  if (roles.length === 0) return true;
  const held = rolePermissions.length > 0 ? rolePermissions : ['common'];
  return roles.some((role) => held.includes(role));
}

/**
 * What a role of an organisation grants, per area (contract/endpoint.ts `permissionOf`): view; edit (create and
 * edit); delete; ship (ship, cancel, print labels); price (prices and stock); publish (publish and re-upload);
 * promote (join and leave promotions); reply (answer buyers); export; staff (manage staff).
 */
export const PERMISSION_ACTIONS = ['view', 'edit', 'delete', 'ship', 'price', 'publish', 'promote', 'reply', 'export', 'staff'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];
/** `area:action`, e.g. `orders:ship`. */
export type Permission = `${Area}:${PermissionAction}`;

/** Areas whose calls no member permission reaches: the administrator's, and those open to everyone signed in. */
export const UNGRANTED_AREAS: readonly Area[] = ['open', 'admin', 'allCopyHistory'];

/**
 * Which shops a role's members see: every shop of the organisation, the role's chosen shops, the shops of the
 * member's department, or of the department and the departments below it.
 */
export const DATA_SCOPES = ['all', 'shops', 'dept', 'deptAndBelow'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];

/** `permissions` null: everything (an owner, the administrator); else the member's granted `area:action` list. */
export function hasPermission(permissions: readonly string[] | null, needed: string | null): boolean {
  if (permissions === null || needed === null) return true;
  return permissions.includes(needed);
}

/**
 * Whether a member's permissions open an area's pages and menus: any action granted in it (the team console's calls
 * are all `team:staff`). Null permissions (an owner, the administrator) open every area their roles reach; the
 * areas no role grants (`open`) are everyone's.
 */
export function areaGranted(permissions: readonly string[] | null, area: Area | undefined): boolean {
  if (permissions === null || area === undefined || area === 'open') return true;
  return permissions.some((permission) => permission.startsWith(`${area}:`));
}
