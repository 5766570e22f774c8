import { HomeOutlined, UserOutlined } from '@ant-design/icons';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { isPermitted, type AreaRoles } from '@contract/access';
import type { RouteNode } from '@machines/sessionMachine';
import type { Resources } from './locales/zh';

/** An i18n key under `route.` (zh and en both have it: the locale type holds that). */
export type RouteTitleKey = `route.${keyof Resources['route']}`;

/**
 * One entry of the route table (seller-tool §2.1). Paths are absolute, children included, so a route is found by its
 * path alone. A pattern may hold `:name` segments or end in `/*`.
 */
export type AppRoute = {
  path: string;
  titleKey?: RouteTitleKey;
  icon?: ComponentType;
  /** Who may open it (contract/access.ts AREA_ROLES); none means every logged-in user. */
  roles?: AreaRoles;
  /** Left out of menus. */
  hidden?: boolean;
  /** A tab that cannot be closed. */
  affix?: boolean;
  /** Reachable without a session (only /login and /register, spec §2.2). */
  public?: boolean;
  /** 'blank' pages fill the window; the others sit in the logged-in layout. */
  layout?: 'shell' | 'blank';
  redirect?: string;
  page?: LazyExoticComponent<ComponentType>;
  children?: AppRoute[];
};

const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

export const HOME_PATH = '/home/introduction';
export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404';

export const appRoutes: AppRoute[] = [
  {
    path: LOGIN_PATH,
    titleKey: 'route.login',
    hidden: true,
    public: true,
    layout: 'blank',
    page: page(() => import('@/features/auth/LoginPage').then((m) => ({ default: m.LoginPage }))),
  },
  {
    path: '/register',
    titleKey: 'route.register',
    hidden: true,
    public: true,
    layout: 'blank',
    page: page(() => import('@/features/auth/RegisterPage').then((m) => ({ default: m.RegisterPage }))),
  },
  {
    path: NOT_FOUND_PATH,
    titleKey: 'route.notFound',
    hidden: true,
    layout: 'blank',
    page: page(() => import('@/features/errors/NotFoundPage').then((m) => ({ default: m.NotFoundPage }))),
  },
  {
    // The tab refresh goes through here: /redirect/<full path> replaces itself with <full path>.
    path: '/redirect/*',
    titleKey: 'route.redirect',
    hidden: true,
    page: page(() => import('@/features/redirect/RedirectPage').then((m) => ({ default: m.RedirectPage }))),
  },
  { path: '/', hidden: true, redirect: HOME_PATH },
  {
    path: '/home',
    titleKey: 'route.home',
    icon: HomeOutlined,
    redirect: HOME_PATH,
    children: [
      {
        path: HOME_PATH,
        titleKey: 'route.introduction',
        icon: HomeOutlined,
        affix: true,
        page: page(() => import('@/features/home/IntroductionPage').then((m) => ({ default: m.IntroductionPage }))),
      },
    ],
  },
  {
    path: '/profile',
    titleKey: 'route.profile',
    icon: UserOutlined,
    redirect: '/profile/modify-psw',
    children: [
      {
        path: '/profile/modify-psw',
        titleKey: 'route.modifyPsw',
        icon: UserOutlined,
        page: page(() => import('@/features/profile/ModifyPasswordPage').then((m) => ({ default: m.ModifyPasswordPage }))),
      },
    ],
  },
];

/**
 * The routes a user may see (spec §6): admin gets everything; anyone else the routes listing at least one of their
 * role permissions ('common' when they have none); routes without roles are open; children are filtered alike.
 */
export function filterRoutes<T extends Pick<AppRoute, 'roles'> & { children?: T[] }>(
  routes: readonly T[],
  roles: readonly string[],
  rolePermissions: readonly string[],
): T[] {
  if (roles.includes('admin')) return [...routes];
  return routes
    .filter((route) => isPermitted(route.roles ?? [], rolePermissions))
    .map((route) => (route.children ? { ...route, children: filterRoutes(route.children, roles, rolePermissions) } : route));
}

export function flattenRoutes<T extends { children?: readonly T[] }>(routes: readonly T[]): T[] {
  return routes.flatMap((route) => [route, ...flattenRoutes(route.children ?? [])]);
}

export function matchPath(pattern: string, path: string): boolean {
  if (pattern.endsWith('/*')) {
    const base = pattern.slice(0, -2);
    return path === base || path.startsWith(`${base}/`);
  }
  const want = pattern.split('/');
  const have = path.replace(/\/+$/, '').split('/');
  if (path === '/' || pattern === '/') return path === pattern;
  return want.length === have.length && want.every((segment, i) => segment.startsWith(':') || segment === have[i]);
}

export function findRoute(path: string, routes: readonly AppRoute[] = appRoutes): AppRoute | null {
  return flattenRoutes(routes).find((route) => matchPath(route.path, path)) ?? null;
}

/** Whether the generated (permitted) route tree holds this route. */
export function isRoutePermitted(permitted: readonly RouteNode[], route: AppRoute): boolean {
  return flattenRoutes(permitted).some((node) => node.path === route.path);
}

/** A link to a route: `getHref('/profile/modify-psw', { from: 'x' })`. */
export function getHref(path: string, query?: Record<string, string>): string {
  const search = query ? new URLSearchParams(query).toString() : '';
  return search ? `${path}?${search}` : path;
}

export function loginHref(wanted: string): string {
  return wanted && wanted !== '/' && !wanted.startsWith(LOGIN_PATH) ? getHref(LOGIN_PATH, { redirect: wanted }) : LOGIN_PATH;
}
