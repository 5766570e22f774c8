import {
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BulbOutlined,
  CarOutlined,
  CloudDownloadOutlined,
  CloudUploadOutlined,
  CopyOutlined,
  DollarOutlined,
  EditOutlined,
  EnvironmentOutlined,
  FileAddOutlined,
  FireOutlined,
  FundOutlined,
  GiftOutlined,
  HistoryOutlined,
  HomeOutlined,
  LineChartOutlined,
  LinkOutlined,
  MessageOutlined,
  NotificationOutlined,
  PictureOutlined,
  ProductOutlined,
  ReadOutlined,
  RollbackOutlined,
  SafetyOutlined,
  SearchOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  SyncOutlined,
  TeamOutlined,
  ToolOutlined,
  UnorderedListOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { createElement, lazy, useState, type ComponentType } from 'react';
import { ADMIN_AREA_PATH, AREA_ROLES, areaGranted, isPermitted, type Area, type AreaRoles } from '@contract/access';
import type { RouteNode } from '@machines/sessionMachine';
import type { construction } from '@/features/construction/locales';
import type { Resources } from './locales/zh';

/** An i18n key under `route.` (zh and en both have it: the locale type holds that). */
export type RouteTitleKey = `route.${keyof Resources['route']}`;
/** A page not built yet: its key under `construction.` says what it will do. */
export type ConstructionKey = keyof (typeof construction)['zh']['area'];

export type AppRoute = {
  path: string;
  titleKey?: RouteTitleKey;
  icon?: ComponentType;
  /** Who may open it (contract/access.ts AREA_ROLES); none means every logged-in user. */
  roles?: AreaRoles;
  /** The area of `roles`: a member sees the route when their role grants something in it (`areaGranted`). */
  area?: Area;
  /** Left out of menus. */
  hidden?: boolean;
  /** A tab that cannot be closed. */
  affix?: boolean;
  /** Reachable without a session (only /login and /register, spec §2.2). */
  public?: boolean;
  /** 'blank' pages fill the window; the others sit in the logged-in layout. */
  layout?: 'shell' | 'blank';
  redirect?: string;
  page?: RoutePageComponent;
  /** Pages of areas whose own issue has not landed yet show what they will do. */
  construction?: ConstructionKey;
  /** Tabs keep the page mounted while hidden unless this is set. */
  noCache?: boolean;
  children?: AppRoute[];
};

/** A page loaded on demand that can also be asked for ahead of its first render. */
export type RoutePageComponent = ComponentType & { preload: () => Promise<void> };

/**
 * A lazy page whose chunk can be fetched before React gets to it (main.tsx asks for the opened URL's page at start).
 * Once the chunk is in, the page renders straight away: a React.lazy component suspends on its first render even when
 * its promise has already settled, and the shell would show a spinner for a frame and then hold the page back by
 * React's Suspense reveal throttle (about 300 ms). A page mounted before its chunk came stays on React.lazy: switching it
 * to the loaded page on a later render changed the element's type whenever React had committed the lazy one (it does
 * when the chunk arrives during a render), and the page mounted a second time, losing what the user had typed.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): RoutePageComponent {
  let loaded: ComponentType | null = null;
  let loading: Promise<{ default: ComponentType }> | null = null;
  const start = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(start);
  function LazyPage() {
    // Chosen once per mounted page and kept for its life, so a later render never swaps one for the other.
    const [ready] = useState(() => loaded);
    return createElement(ready ?? Lazy);
  }
  return Object.assign(LazyPage, { preload: () => start().then(() => undefined) });
}
/** What a route not built yet shows (every route is built today; tests build placeholder routes with it). */
export const constructionPage = lazyPage(() =>
  import('@/features/construction/ConstructionPage').then((m) => ({ default: m.ConstructionPage })),
);

/** http, https, mailto and tel menu entries open in a new browser tab (spec §2.3). */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}

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
    page: lazyPage(() => import('@/features/auth/LoginPage').then((m) => ({ default: m.LoginPage }))),
  },
  {
    path: '/register',
    titleKey: 'route.register',
    hidden: true,
    public: true,
    layout: 'blank',
    page: lazyPage(() => import('@/features/auth/RegisterPage').then((m) => ({ default: m.RegisterPage }))),
  },
  {
    path: '/forgot',
    titleKey: 'route.forgot',
    hidden: true,
    public: true,
    layout: 'blank',
    page: lazyPage(() => import('@/features/auth/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage }))),
  },
  {
    path: NOT_FOUND_PATH,
    titleKey: 'route.notFound',
    hidden: true,
    layout: 'blank',
    page: lazyPage(() => import('@/features/errors/NotFoundPage').then((m) => ({ default: m.NotFoundPage }))),
  },
  {
    // The tab refresh goes through here: /redirect/<full path> replaces itself with <full path>.
    path: '/redirect/*',
    titleKey: 'route.redirect',
    hidden: true,
    page: lazyPage(() => import('@/features/redirect/RedirectPage').then((m) => ({ default: m.RedirectPage }))),
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
        page: lazyPage(() => import('@/features/home/IntroductionPage').then((m) => ({ default: m.IntroductionPage }))),
      },
    ],
  },
  {
    path: '/store',
    titleKey: 'route.store',
    icon: ShopOutlined,
    area: 'store', roles: AREA_ROLES.store,
    redirect: '/store/store-list',
    children: [
      {
        path: '/store/store-list',
        titleKey: 'route.storeList',
        icon: ShopOutlined,
        area: 'store', roles: AREA_ROLES.store,
        page: lazyPage(() => import('@/features/store/StoreListPage').then((m) => ({ default: m.StoreListPage }))),
      },
    ],
  },
  {
    path: '/copy',
    titleKey: 'route.copy',
    icon: CopyOutlined,
    area: 'copy', roles: AREA_ROLES.copy,
    redirect: '/copy/copy-product',
    children: [
      {
        path: '/copy/copy-product',
        titleKey: 'route.copyProduct',
        icon: CopyOutlined,
        area: 'copy', roles: AREA_ROLES.copy,
        page: lazyPage(() => import('@/features/copy/CopyProductPage').then((m) => ({ default: m.CopyProductPage }))),
      },
      {
        path: '/copy/copy-history',
        titleKey: 'route.copyHistory',
        icon: HistoryOutlined,
        area: 'copy', roles: AREA_ROLES.copy,
        page: lazyPage(() => import('@/features/copy/CopyHistoryPage').then((m) => ({ default: m.CopyHistoryPage }))),
      },
    ],
  },
  {
    path: '/collection',
    titleKey: 'route.collection',
    icon: CloudDownloadOutlined,
    area: 'collection', roles: AREA_ROLES.collection,
    redirect: '/collection/collection-list',
    children: [
      {
        path: '/collection/collection-list',
        titleKey: 'route.collectionList',
        icon: CloudDownloadOutlined,
        area: 'collection', roles: AREA_ROLES.collection,
        page: lazyPage(() => import('@/features/collection/CollectionListPage').then((m) => ({ default: m.CollectionListPage }))),
      },
      {
        path: '/collection/upload-history',
        titleKey: 'route.uploadHistory',
        icon: HistoryOutlined,
        area: 'collection', roles: AREA_ROLES.collection,
        page: lazyPage(() => import('@/features/collection/UploadHistoryPage').then((m) => ({ default: m.UploadHistoryPage }))),
      },
    ],
  },
  {
    path: '/create',
    titleKey: 'route.create',
    icon: FileAddOutlined,
    area: 'create', roles: AREA_ROLES.create,
    redirect: '/create/create-product-1',
    children: [
      {
        path: '/create/create-product-1',
        titleKey: 'route.createProduct1',
        icon: FileAddOutlined,
        area: 'create', roles: AREA_ROLES.create,
        page: lazyPage(() => import('@/features/create/CreateProductPage').then((m) => ({ default: m.CreateProductNewPage }))),
      },
      {
        path: '/create/create-product-2',
        titleKey: 'route.createProduct2',
        icon: FileAddOutlined,
        area: 'create', roles: AREA_ROLES.create,
        page: lazyPage(() => import('@/features/create/CreateProductPage').then((m) => ({ default: m.CreateProductTemplatePage }))),
      },
    ],
  },
  {
    path: '/edit',
    titleKey: 'route.edit',
    icon: PictureOutlined,
    area: 'editImage', roles: AREA_ROLES.editImage,
    redirect: '/edit/edit-image',
    children: [
      {
        path: '/edit/edit-image',
        titleKey: 'route.editImage',
        icon: EditOutlined,
        area: 'editImage', roles: AREA_ROLES.editImage,
        page: lazyPage(() => import('@/features/edit/DesignerPage').then((m) => ({ default: m.DesignerPage }))),
      },
    ],
  },
  {
    path: '/order-manager',
    titleKey: 'route.orders',
    icon: ShoppingCartOutlined,
    area: 'orders', roles: AREA_ROLES.orders,
    redirect: '/order-manager/order-list',
    children: [
      {
        path: '/order-manager/order-list',
        titleKey: 'route.orderList',
        icon: ShoppingCartOutlined,
        area: 'orders', roles: AREA_ROLES.orders,
        page: lazyPage(() => import('@/features/orders/OrderListPage').then((m) => ({ default: m.OrderListPage }))),
      },
      {
        path: '/order-manager/record-list',
        titleKey: 'route.recordList',
        icon: UnorderedListOutlined,
        area: 'orders', roles: AREA_ROLES.orders,
        page: lazyPage(() => import('@/features/orders/RecordListPage').then((m) => ({ default: m.RecordListPage }))),
      },
      {
        path: '/order-manager/all-copy-history',
        titleKey: 'route.allCopyHistory',
        icon: HistoryOutlined,
        area: 'allCopyHistory', roles: AREA_ROLES.allCopyHistory,
        page: lazyPage(() => import('@/features/copy/CopyHistoryPage').then((m) => ({ default: m.AllCopyHistoryPage }))),
      },
    ],
  },
  {
    path: '/product',
    titleKey: 'route.product',
    icon: ProductOutlined,
    area: 'products', roles: AREA_ROLES.products,
    redirect: '/product/oz-product-list',
    children: [
      // The spec's /product/{marketplace}-product-list with the marketplace spelled out, so it differs from the new list.
      {
        path: '/product/ozon-product-list',
        titleKey: 'route.ozonProductList',
        icon: AppstoreOutlined,
        area: 'products', roles: AREA_ROLES.products,
        page: lazyPage(() => import('@/features/products/ShopProductListPage').then((m) => ({ default: m.ShopProductListPage }))),
      },
      {
        path: '/product/oz-product-list',
        titleKey: 'route.ozProductList',
        icon: ProductOutlined,
        area: 'products', roles: AREA_ROLES.products,
        page: lazyPage(() => import('@/features/products/ProductListPage').then((m) => ({ default: m.ProductListPage }))),
      },
      {
        path: '/product/oz-reupload-product',
        titleKey: 'route.ozReuploadProduct',
        icon: SyncOutlined,
        area: 'products', roles: AREA_ROLES.products,
        page: lazyPage(() => import('@/features/products/ReuploadPage').then((m) => ({ default: m.ReuploadPage }))),
      },
    ],
  },
  {
    path: '/action',
    titleKey: 'route.action',
    icon: GiftOutlined,
    area: 'actions', roles: AREA_ROLES.actions,
    redirect: '/action/oz-action-list',
    children: [
      {
        path: '/action/oz-action-list',
        titleKey: 'route.ozActionList',
        icon: GiftOutlined,
        area: 'actions', roles: AREA_ROLES.actions,
        page: lazyPage(() => import('@/features/promotions/PromotionsPage').then((m) => ({ default: m.PromotionsPage }))),
      },
    ],
  },
  {
    // The data-analysis group (spec §2.1): visible to search, keyword and follow; its pages carry their own roles.
    path: '/search',
    titleKey: 'route.dataAnalysis',
    icon: FundOutlined,
    area: 'dataAnalysis', roles: AREA_ROLES.dataAnalysis,
    redirect: '/search/hot-product-pro',
    children: [
      {
        path: '/search/hot-product-pro',
        titleKey: 'route.hotProductPro',
        icon: FireOutlined,
        area: 'hotProductPro', roles: AREA_ROLES.hotProductPro,
        page: lazyPage(() => import('@/features/research/ProductResearchPage').then((m) => ({ default: m.HotProductsPage }))),
      },
      {
        path: '/search/hot-new-product',
        titleKey: 'route.hotNewProduct',
        icon: FireOutlined,
        area: 'research', roles: AREA_ROLES.research,
        page: lazyPage(() => import('@/features/research/ProductResearchPage').then((m) => ({ default: m.NewProductsPage }))),
      },
      {
        path: '/search/cn-product-pro',
        titleKey: 'route.cnProductPro',
        icon: SearchOutlined,
        area: 'research', roles: AREA_ROLES.research,
        page: lazyPage(() => import('@/features/research/ProductResearchPage').then((m) => ({ default: m.CnProductsPage }))),
      },
      {
        path: '/search/key-word',
        titleKey: 'route.keyWord',
        icon: SearchOutlined,
        area: 'research', roles: AREA_ROLES.research,
        page: lazyPage(() => import('@/features/research/KeywordPage').then((m) => ({ default: m.KeywordPage }))),
      },
      {
        path: '/search/potential-product',
        titleKey: 'route.potentialProduct',
        icon: LineChartOutlined,
        area: 'research', roles: AREA_ROLES.research,
        page: lazyPage(() => import('@/features/research/ProductResearchPage').then((m) => ({ default: m.PotentialProductsPage }))),
      },
      {
        path: '/search/market-data',
        titleKey: 'route.marketData',
        icon: CloudUploadOutlined,
        area: 'admin', roles: AREA_ROLES.admin,
        page: lazyPage(() => import('@/features/research/MarketDataPage').then((m) => ({ default: m.MarketDataPage }))),
      },
    ],
  },
  {
    path: '/return',
    titleKey: 'route.returns',
    icon: RollbackOutlined,
    area: 'returns', roles: AREA_ROLES.returns,
    redirect: '/return/return-list',
    children: [
      {
        path: '/return/return-list',
        titleKey: 'route.returnList',
        icon: RollbackOutlined,
        area: 'returns', roles: AREA_ROLES.returns,
        page: lazyPage(() => import('@/features/returns/ReturnListPage').then((m) => ({ default: m.ReturnListPage }))),
      },
      {
        path: '/return/return-list-new',
        titleKey: 'route.returnListNew',
        icon: RollbackOutlined,
        area: 'returns', roles: AREA_ROLES.returns,
        page: lazyPage(() => import('@/features/returns/ReturnListPage').then((m) => ({ default: m.ReturnListNewPage }))),
      },
    ],
  },
  {
    path: '/chat-manager',
    titleKey: 'route.chat',
    icon: MessageOutlined,
    area: 'chat', roles: AREA_ROLES.chat,
    redirect: '/chat-manager/chat-list',
    children: [
      {
        path: '/chat-manager/chat-list',
        titleKey: 'route.chatList',
        icon: MessageOutlined,
        area: 'chat', roles: AREA_ROLES.chat,
        page: lazyPage(() => import('@/features/chat/ChatListPage').then((m) => ({ default: m.ChatListPage }))),
      },
    ],
  },
  {
    path: '/analyze',
    titleKey: 'route.analyze',
    icon: BarChartOutlined,
    area: 'analyze', roles: AREA_ROLES.analyze,
    redirect: '/analyze/sale-analyze',
    children: [
      {
        path: '/analyze/sale-analyze',
        titleKey: 'route.saleAnalyze',
        icon: BarChartOutlined,
        page: lazyPage(() => import('@/features/analysis/SaleAnalyzePage').then((m) => ({ default: m.SaleAnalyzePage }))),
        area: 'analyze', roles: AREA_ROLES.analyze,
      },
    ],
  },
  {
    path: '/track',
    titleKey: 'route.track',
    icon: CarOutlined,
    redirect: '/track/track-search',
    children: [
      {
        path: '/track/track-search',
        titleKey: 'route.trackSearch',
        icon: CarOutlined,
        page: lazyPage(() => import('@/features/tools/TrackPage').then((m) => ({ default: m.TrackPage }))),
      },
    ],
  },
  {
    path: '/tool',
    titleKey: 'route.tool',
    icon: ToolOutlined,
    redirect: '/tool/currency-change',
    children: [
      {
        path: '/tool/currency-change',
        titleKey: 'route.currencyChange',
        icon: DollarOutlined,
        page: lazyPage(() => import('@/features/tools/CurrencyPage').then((m) => ({ default: m.CurrencyPage }))),
      },
      {
        path: '/tool/rus-post',
        titleKey: 'route.rusPost',
        icon: EnvironmentOutlined,
        page: lazyPage(() => import('@/features/tools/PostcodePage').then((m) => ({ default: m.PostcodePage }))),
      },
      { path: 'https://seller.ozon.ru', titleKey: 'route.ozonSeller', icon: LinkOutlined },
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
        page: lazyPage(() => import('@/features/profile/ModifyPasswordPage').then((m) => ({ default: m.ModifyPasswordPage }))),
      },
    ],
  },
  {
    // The seller's organisation: its staff, their roles and shops, and the operation log (owners and the administrator).
    path: '/team',
    titleKey: 'route.team',
    icon: TeamOutlined,
    area: 'team', roles: AREA_ROLES.team,
    redirect: '/team/members',
    children: [
      {
        path: '/team/members',
        titleKey: 'route.teamMembers',
        icon: TeamOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/MembersPage').then((m) => ({ default: m.MembersPage }))),
      },
      {
        path: '/team/roles',
        titleKey: 'route.teamRoles',
        icon: SafetyOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/RolesPage').then((m) => ({ default: m.RolesPage }))),
      },
      {
        path: '/team/departments',
        titleKey: 'route.teamDepartments',
        icon: ApartmentOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/DepartmentsPage').then((m) => ({ default: m.DepartmentsPage }))),
      },
      {
        path: '/team/positions',
        titleKey: 'route.teamPositions',
        icon: UserOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/PositionsPage').then((m) => ({ default: m.PositionsPage }))),
      },
      {
        path: '/team/log',
        titleKey: 'route.teamLog',
        icon: HistoryOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/LogPage').then((m) => ({ default: m.LogPage }))),
      },
      {
        path: '/team/online',
        titleKey: 'route.teamOnline',
        icon: UserOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/OnlinePage').then((m) => ({ default: m.OnlinePage }))),
      },
      {
        path: '/team/access-policies',
        titleKey: 'route.teamAccessPolicies',
        icon: SafetyOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/AccessPoliciesPage').then((m) => ({ default: m.AccessPoliciesPage }))),
      },
      {
        path: '/team/access-log',
        titleKey: 'route.teamAccessLog',
        icon: HistoryOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/AccessLogPage').then((m) => ({ default: m.AccessLogPage }))),
      },
      {
        path: '/team/api-clients',
        titleKey: 'route.teamApiClients',
        icon: ApiOutlined,
        area: 'team', roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/team/ApiClientsPage').then((m) => ({ default: m.ApiClientsPage }))),
      },
      {
        path: '/team/security',
        titleKey: 'route.teamSecurity',
        icon: SafetyOutlined,
        roles: AREA_ROLES.team,
        page: lazyPage(() => import('@/features/security/SecurityPage').then((m) => ({ default: m.SecurityPage }))),
      },
    ],
  },
  {
    // The administrator's area under a path of our choosing (spec §2.1 "an obscurely named admin area").
    path: `/${ADMIN_AREA_PATH}`,
    titleKey: 'route.admin',
    icon: SafetyOutlined,
    area: 'admin', roles: AREA_ROLES.admin,
    redirect: `/${ADMIN_AREA_PATH}/user-manager`,
    children: [
      {
        path: `/${ADMIN_AREA_PATH}/user-manager`,
        titleKey: 'route.userManager',
        icon: TeamOutlined,
        area: 'admin', roles: AREA_ROLES.admin,
        page: lazyPage(() => import('@/features/admin/UserManagerPage').then((m) => ({ default: m.UserManagerPage }))),
      },
      {
        path: `/${ADMIN_AREA_PATH}/notice-manager`,
        titleKey: 'route.noticeManager',
        icon: NotificationOutlined,
        area: 'admin', roles: AREA_ROLES.admin,
        page: lazyPage(() => import('@/features/admin/NoticeManagerPage').then((m) => ({ default: m.NoticeManagerPage }))),
      },
      {
        path: `/${ADMIN_AREA_PATH}/feature-update-manager`,
        titleKey: 'route.featureUpdateManager',
        icon: BulbOutlined,
        area: 'admin', roles: AREA_ROLES.admin,
        page: lazyPage(() => import('@/features/admin/FeatureUpdateManagerPage').then((m) => ({ default: m.FeatureUpdateManagerPage }))),
      },
    ],
  },
  {
    // Developers' view of the app's machines, live and offline (src/features/flows): anyone in development,
    // administrators in production.
    path: '/flows',
    titleKey: 'route.flows',
    icon: ApartmentOutlined,
    hidden: true,
    area: process.env.NODE_ENV === 'development' ? undefined : 'admin',
    roles: process.env.NODE_ENV === 'development' ? undefined : AREA_ROLES.admin,
    page: lazyPage(() => import('@/features/flows/FlowsPage').then((m) => ({ default: m.FlowsPage }))),
  },
  {
    path: '/docs',
    titleKey: 'route.docs',
    icon: ReadOutlined,
    hidden: true,
    page: lazyPage(() => import('@/features/docs/DocsPage').then((m) => ({ default: m.DocsPage }))),
  },
  {
    // Where the top bar's plugin button leads: the plugin's download, install steps and tokens.
    path: '/plugin/download',
    titleKey: 'route.plugin',
    icon: CloudDownloadOutlined,
    hidden: true,
    page: lazyPage(() => import('@/features/plugin/PluginPage').then((m) => ({ default: m.PluginPage }))),
  },
];

/**
 * The routes a user may see (spec §6): admin gets everything; anyone else the routes listing at least one of their
 * role permissions ('common' when they have none); routes without roles are open; children are filtered alike. A
 * member (`permissions` not null) sees, of those, the areas their organisation role grants something in, and a group
 * none of whose pages is left goes too.
 */
export function filterRoutes<T extends Pick<AppRoute, 'roles' | 'area'> & { children?: T[] }>(
  routes: readonly T[],
  roles: readonly string[],
  rolePermissions: readonly string[],
  permissions: readonly string[] | null = null,
): T[] {
  if (roles.includes('admin') && permissions === null) return [...routes];
  return routes
    .filter((route) => (roles.includes('admin') || isPermitted(route.roles ?? [], rolePermissions)) && areaGranted(permissions, route.area))
    .flatMap((route) => {
      if (!route.children) return [route];
      const children = filterRoutes(route.children, roles, rolePermissions, permissions);
      return permissions !== null && route.children.length > 0 && children.length === 0 ? [] : [{ ...route, children }];
    });
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

/**
 * Starts loading the page a path opens (following a redirect route), so its chunk arrives while the session is
 * restored and the shell renders, not after.
 */
export function preloadRoutePage(path: string, routes: readonly AppRoute[] = appRoutes): void {
  let route = findRoute(path, routes);
  if (route?.redirect) route = findRoute(route.redirect, routes);
  route?.page?.preload().catch(() => undefined);
}

export function findRoute(path: string, routes: readonly AppRoute[] = appRoutes): AppRoute | null {
  return flattenRoutes(routes).find((route) => !isExternal(route.path) && matchPath(route.path, path)) ?? null;
}

/** The pages (routes with a page of their own) of the menu groups at these paths, the groups' children included. */
export function pagesOf(groups: readonly string[], routes: readonly AppRoute[] = appRoutes): AppRoute[] {
  return flattenRoutes(routes.filter((route) => groups.includes(route.path))).filter((route) => route.page !== undefined);
}

/** Whether a page is built: the under-construction page stands in for one that is not. */
export function isBuilt(route: AppRoute): boolean {
  return route.page !== undefined && route.page !== constructionPage;
}

/** How far a set of pages is built: all, some, or none of them (each an under-construction page). */
export type BuildStatus = 'built' | 'partial' | 'building';

export function buildStatus(pages: readonly AppRoute[]): BuildStatus {
  const built = pages.filter(isBuilt).length;
  return built === pages.length ? 'built' : built === 0 ? 'building' : 'partial';
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

/** The login page, keeping the page to come back to; not the home page, the login itself or the not-found page. */
export function loginHref(wanted: string): string {
  const path = wanted.split('?')[0];
  const keep = wanted && path !== '/' && !wanted.startsWith(LOGIN_PATH) && path !== NOT_FOUND_PATH;
  return keep ? getHref(LOGIN_PATH, { redirect: wanted }) : LOGIN_PATH;
}
