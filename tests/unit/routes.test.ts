import { AREA_ROLES } from '@contract/access';
import { appRoutes, filterRoutes, flattenRoutes } from '@/app/routes';

/** The four demo accounts (server/demo/seed.ts) as the server's getInfo describes them: roles, and role permissions. */
const ACCOUNTS = {
  admin: { roles: ['admin'], rolePermissions: ['admin'] },
  seller: { roles: ['follow'], rolePermissions: ['follow'] },
  analyst: { roles: ['search', 'keyword'], rolePermissions: ['search', 'keyword'] },
  // No role at all: the permissions fall back to 'common' (spec §6).
  newbie: { roles: [], rolePermissions: ['common'] },
} as const;
type Account = keyof typeof ACCOUNTS;

const ALL: Account[] = ['admin', 'seller', 'analyst', 'newbie'];
const ADMIN: Account[] = ['admin'];
const FOLLOW: Account[] = ['admin', 'seller'];
const RESEARCH: Account[] = ['admin', 'seller', 'analyst'];

/**
 * Who may open each route, written out from spec §2.1 and §6 rather than derived from the code: every route of the
 * table is listed (the last test holds that), so a new route must say here who sees it.
 */
const EXPECTED: [path: string, who: Account[]][] = [
  ['/login', ALL],
  ['/register', ALL],
  ['/forgot', ALL],
  ['/404', ALL],
  ['/redirect/*', ALL],
  ['/', ALL],
  ['/home', ALL],
  ['/home/introduction', ALL],
  ['/store', FOLLOW],
  ['/store/store-list', FOLLOW],
  ['/copy', FOLLOW],
  ['/copy/copy-product', FOLLOW],
  ['/copy/copy-history', FOLLOW],
  ['/collection', FOLLOW],
  ['/collection/collection-list', FOLLOW],
  ['/collection/upload-history', FOLLOW],
  ['/create', ADMIN],
  ['/create/create-product-1', ADMIN],
  ['/create/create-product-2', ADMIN],
  ['/edit', FOLLOW],
  ['/edit/edit-image', FOLLOW],
  ['/order-manager', FOLLOW],
  ['/order-manager/order-list', FOLLOW],
  ['/order-manager/record-list', FOLLOW],
  ['/order-manager/all-copy-history', ADMIN],
  ['/product', FOLLOW],
  ['/product/ozon-product-list', FOLLOW],
  ['/product/oz-product-list', FOLLOW],
  ['/product/oz-reupload-product', FOLLOW],
  ['/action', FOLLOW],
  ['/action/oz-action-list', FOLLOW],
  // The data-analysis group: search, keyword and follow (and admin, who sees everything).
  ['/search', RESEARCH],
  ['/search/hot-product-pro', RESEARCH],
  ['/search/hot-new-product', RESEARCH],
  ['/search/cn-product-pro', RESEARCH],
  ['/search/key-word', RESEARCH],
  ['/search/potential-product', RESEARCH],
  ['/search/market-data', ADMIN],
  ['/return', FOLLOW],
  ['/return/return-list', FOLLOW],
  ['/return/return-list-new', FOLLOW],
  ['/chat-manager', FOLLOW],
  ['/chat-manager/chat-list', FOLLOW],
  ['/analyze', FOLLOW],
  ['/analyze/sale-analyze', FOLLOW],
  ['/track', ALL],
  ['/track/track-search', ALL],
  ['/tool', ALL],
  ['/tool/currency-change', ALL],
  ['/tool/rus-post', ALL],
  ['https://seller.ozon.ru', ALL],
  ['/profile', ALL],
  ['/profile/modify-psw', ALL],
  ['/team', ALL],
  ['/team/members', ALL],
  ['/team/roles', ALL],
  ['/team/departments', ALL],
  ['/team/positions', ALL],
  ['/team/log', ALL],
  ['/team/online', ALL],
  ['/team/access-policies', ALL],
  ['/team/access-log', ALL],
  ['/team/api-clients', ALL],
  ['/team/security', ALL],
  ['/ops-console', ADMIN],
  ['/ops-console/user-manager', ADMIN],
  ['/ops-console/notice-manager', ADMIN],
  ['/ops-console/feature-update-manager', ADMIN],
  ['/flows', ADMIN],
  ['/docs', ALL],
  ['/plugin/download', ALL],
];

function permittedPaths(account: Account): Set<string> {
  const { roles, rolePermissions } = ACCOUNTS[account];
  return new Set(flattenRoutes(filterRoutes(appRoutes, roles, rolePermissions)).map((route) => route.path));
}

describe('route filtering per demo account (spec §6)', () => {
  const cases = EXPECTED.flatMap(([path, who]) => ALL.map((account) => [path, account, who.includes(account)] as const));

  it.each(cases)('%s for %s: %s', (path, account, allowed) => {
    expect(permittedPaths(account).has(path)).toBe(allowed);
  });

  it('the table above lists every route of the app exactly once', () => {
    const listed = EXPECTED.map(([path]) => path);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(flattenRoutes(appRoutes).map((route) => route.path).sort());
  });

  it('a child is dropped on its own roles even when its group stays (seller keeps orders, not the admin-only list)', () => {
    const { roles, rolePermissions } = ACCOUNTS.seller;
    const orders = filterRoutes(appRoutes, roles, rolePermissions).find((route) => route.path === '/order-manager');
    expect(orders?.children?.map((child) => child.path)).toEqual(['/order-manager/order-list', '/order-manager/record-list']);
  });

  it('a user holding only the keyword role sees the data-analysis group but none of its pages', () => {
    const visible = new Set(flattenRoutes(filterRoutes(appRoutes, ['keyword'], ['keyword'])).map((route) => route.path));
    expect(visible.has('/search')).toBe(true);
    expect([...visible].filter((path) => path.startsWith('/search/'))).toEqual([]);
  });
});

describe('route filtering for a member of an organisation', () => {
  const { roles, rolePermissions } = ACCOUNTS.seller;
  const memberPaths = (permissions: string[]) => new Set(flattenRoutes(filterRoutes(appRoutes, roles, rolePermissions, permissions)).map((route) => route.path));

  it("sees only the areas the role grants something in, within the owner's roles, and the pages open to all", () => {
    // The demo shipper: shops, orders, shipping.
    const shipper = memberPaths(['store:view', 'orders:view', 'orders:edit', 'orders:ship']);
    expect(shipper.has('/order-manager/order-list')).toBe(true);
    expect(shipper.has('/order-manager/record-list')).toBe(true);
    expect(shipper.has('/store/store-list')).toBe(true);
    expect(shipper.has('/product')).toBe(false);
    expect([...shipper].filter((path) => path.startsWith('/product/'))).toEqual([]);
    expect([...shipper].filter((path) => path.startsWith('/team'))).toEqual([]);
    expect(shipper.has('/profile/modify-psw')).toBe(true);
    // Team pages need staff management.
    expect(memberPaths(['team:staff']).has('/team/members')).toBe(true);
  });

  it('every route gated on an area names that area, so a member is never shown a page by mistake', () => {
    const gated = flattenRoutes(appRoutes).filter((route) => route.roles && route.roles.length > 0);
    expect(gated.filter((route) => !route.area || AREA_ROLES[route.area] !== route.roles).map((route) => route.path)).toEqual([]);
  });

  it('a member with no grants keeps the pages open to everyone and no group left empty', () => {
    const none = memberPaths([]);
    expect(none.has('/order-manager')).toBe(false);
    expect(none.has('/home/introduction')).toBe(true);
    expect(filterRoutes(appRoutes, roles, rolePermissions, []).every((route) => !route.children || route.children.length > 0)).toBe(true);
  });
});
