import type { AppRoute } from '@/app/routes';
import { appRoutes, filterRoutes, findRoute, isRoutePermitted, loginHref, matchPath } from '@/app/routes';

const table: AppRoute[] = [
  { path: '/login', public: true },
  { path: '/tool/currency-change' },
  { path: '/store/store-list', roles: ['admin', 'follow'] },
  { path: '/search', children: [{ path: '/search/hot-product-pro', roles: ['admin', 'follow', 'search'] }, { path: '/search/key-word', roles: ['search', 'follow'] }] },
  { path: '/ops-console/user-manager', roles: ['admin'] },
];
const paths = (routes: AppRoute[]) => routes.flatMap((route): string[] => [route.path, ...paths(route.children ?? [])]);

describe('filterRoutes (spec §6)', () => {
  it('gives an admin every route', () => {
    expect(paths(filterRoutes(table, ['admin'], ['admin']))).toEqual(paths(table));
  });

  it('gives other roles the open routes and those listing one of their permissions, children alike', () => {
    expect(paths(filterRoutes(table, ['search'], ['search']))).toEqual([
      '/login',
      '/tool/currency-change',
      '/search',
      '/search/hot-product-pro',
      '/search/key-word',
    ]);
    expect(paths(filterRoutes(table, ['follow'], ['follow']))).not.toContain('/ops-console/user-manager');
  });

  it("treats a user without permissions as 'common': open routes only", () => {
    expect(paths(filterRoutes(table, ['common'], []))).toEqual(['/login', '/tool/currency-change', '/search']);
  });
});

describe('route lookup', () => {
  it('matches exact paths, parameters and the redirect helper', () => {
    expect(matchPath('/redirect/*', '/redirect/home/introduction')).toBe(true);
    expect(matchPath('/order/:id', '/order/42')).toBe(true);
    expect(matchPath('/order/:id', '/order/42/x')).toBe(false);
    expect(findRoute('/home/introduction')?.titleKey).toBe('route.introduction');
    expect(findRoute('/no/such/page')).toBeNull();
  });

  it('knows whether the generated routes hold a route', () => {
    const route = findRoute('/profile/modify-psw');
    expect(route && isRoutePermitted(filterRoutes(appRoutes, ['common'], []), route)).toBe(true);
    expect(route && isRoutePermitted([], route)).toBe(false);
  });

  it('keeps the wanted path with its query in the login redirect', () => {
    expect(loginHref('/store/store-list?page=2')).toBe('/login?redirect=%2Fstore%2Fstore-list%3Fpage%3D2');
    expect(loginHref('/')).toBe('/login');
    // Coming back to the not-found page after a login is no use.
    expect(loginHref('/404')).toBe('/login');
  });
});
