import { ADMIN_AREA_PATH } from '@contract/access';
import { appRoutes, buildStatus, constructionPage, flattenRoutes, isExternal, type AppRoute } from '@/app/routes';
import { areaStatus, HOME_AREAS } from '@/features/home/areas';

const page = (path: string, built: boolean): AppRoute => {
  const real = appRoutes.find((route) => route.path === '/store')!.children![0]!;
  return { path, page: built ? real.page : constructionPage };
};

describe('the home page says how far each area is built, from the route table', () => {
  it('an area whose pages are all built is built, one with some placeholders partly built, one of placeholders alone under construction', () => {
    const group = (children: AppRoute[]): AppRoute[] => [{ path: '/area', children }];
    const area = { ...HOME_AREAS[0]!, groups: ['/area'] };
    expect(areaStatus(area, group([page('/area/a', true), page('/area/b', true)])).status).toBe('built');
    const partial = areaStatus(area, group([page('/area/a', true), page('/area/b', false)]));
    expect([partial.status, partial.building.map((route) => route.path)]).toEqual(['partial', ['/area/b']]);
    expect(areaStatus(area, group([page('/area/a', false)])).status).toBe('building');
  });

  it('reads the real table: the shop list, the collection pages and the plugin download are built', () => {
    expect(areaStatus(HOME_AREAS.find((area) => area.key === 'store')!).status).toBe('built');
    expect(buildStatus(flattenRoutes(appRoutes).filter((route) => route.path.startsWith('/collection/')))).toBe('built');
    expect(buildStatus(flattenRoutes(appRoutes).filter((route) => route.path === '/plugin/download'))).toBe('built');
  });

  it('every menu group with pages of an area belongs to a home area, so a new area cannot be left off the home page', () => {
    const shown = new Set(HOME_AREAS.flatMap((area) => area.groups));
    const own = ['/home', '/docs', '/plugin/download', `/${ADMIN_AREA_PATH}`];
    const groups = appRoutes.filter((route) => !route.hidden && !route.public && !isExternal(route.path) && route.children?.some((child) => child.page));
    expect(groups.map((route) => route.path).filter((path) => !shown.has(path) && !own.some((o) => path.startsWith(o)))).toEqual([]);
    for (const area of HOME_AREAS) expect(() => areaStatus(area)).not.toThrow();
  });
});
