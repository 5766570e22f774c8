import type { pinyin as pinyinOf } from 'pinyin-pro';
import type { RouteNode } from '@machines/sessionMachine';
import { appRoutes, flattenRoutes, isExternal, type AppRoute } from '../routes';

/** A sidebar entry: a leaf opens a page (or an external link), a group holds more than one visible child. */
export type MenuEntry = { route: AppRoute; children?: MenuEntry[] };

/** The permitted part of the route table, as full routes (the session keeps only their paths). */
export function permittedAppRoutes(permitted: readonly RouteNode[], routes: readonly AppRoute[] = appRoutes): AppRoute[] {
  const allowed = new Set(flattenRoutes(permitted).map((node) => node.path));
  const keep = (list: readonly AppRoute[]): AppRoute[] =>
    list.filter((route) => allowed.has(route.path)).map((route) => (route.children ? { ...route, children: keep(route.children) } : route));
  return keep(routes);
}

/**
 * The sidebar (spec §2.3): hidden routes are skipped; a route with more than one visible child is a submenu, with
 * exactly one it is that child's item; a group with none is left out.
 */
export function buildMenu(routes: readonly AppRoute[]): MenuEntry[] {
  return routes.flatMap((route): MenuEntry[] => {
    if (route.hidden || !route.titleKey) return [];
    if (!route.children) return route.page || isExternal(route.path) ? [{ route }] : [];
    const children = buildMenu(route.children);
    if (children.length === 0) return [];
    if (children.length === 1) return children;
    return [{ route, children }];
  });
}

/** A page the menu search can offer, with the groups it sits in (outermost first). */
export type MenuPage = { route: AppRoute; groups: AppRoute[] };

/** The menu's pages with their groups, from the (permitted) route table: a group of one page is still named. */
export function menuPages(routes: readonly AppRoute[], groups: AppRoute[] = []): MenuPage[] {
  return routes.flatMap((route): MenuPage[] => {
    if (route.hidden || !route.titleKey) return [];
    if (route.children) return menuPages(route.children, [...groups, route]);
    return route.page || isExternal(route.path) ? [{ route, groups }] : [];
  });
}

let pinyin: typeof pinyinOf | null = null;
let pinyinLoading: Promise<void> | null = null;

/**
 * pinyin-pro carries its dictionary (about half a megabyte of script): it is loaded when the menu search is first
 * used, not with the shell. Until it is in, titles match as written.
 */
export function loadPinyin(): Promise<void> {
  pinyinLoading ??= import('pinyin-pro').then(
    (module) => {
      pinyin = module.pinyin;
    },
    (error: unknown) => {
      pinyinLoading = null;
      throw error;
    },
  );
  return pinyinLoading;
}

export function isPinyinLoaded(): boolean {
  return pinyin !== null;
}

/**
 * How a title can be typed: as written, and with pinyin search on, its full pinyin (ü typed v, as a pinyin keyboard
 * does: 汇率 is huilv) and its initials.
 */
export function searchKeys(title: string, supportPinyin: boolean): string[] {
  const keys = [title.toLowerCase()];
  if (supportPinyin && pinyin && /[\u4e00-\u9fa5]/.test(title)) {
    keys.push(pinyin(title, { toneType: 'none', separator: '', nonZh: 'consecutive', v: true }).toLowerCase());
    keys.push(pinyin(title, { pattern: 'first', toneType: 'none', separator: '', nonZh: 'consecutive' }).toLowerCase());
  }
  return keys;
}

export function matchesMenu(query: string, titles: readonly string[], supportPinyin: boolean): boolean {
  const wanted = query.trim().toLowerCase().replace(/\s+/g, '');
  if (!wanted) return false;
  return titles.some((title) => searchKeys(title, supportPinyin).some((key) => key.replace(/\s+/g, '').includes(wanted)));
}
