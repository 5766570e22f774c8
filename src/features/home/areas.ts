import {
  AppstoreOutlined,
  BarChartOutlined,
  CloudDownloadOutlined,
  CopyOutlined,
  CustomerServiceOutlined,
  GiftOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';
import { AREA_ROLES, type Role } from '@contract/access';
import { buildStatus, isBuilt, pagesOf, type AppRoute, type BuildStatus } from '@/app/routes';
import type { home } from './locales';

type AreaKey = keyof (typeof home)['zh']['area'];

export type HomeArea = {
  key: AreaKey;
  icon: ComponentType;
  /** The roles that open it (from the one access table). */
  roles: readonly Role[];
  /** Its menu groups in the route table (src/app/routes.tsx): their pages say how far the area is built. */
  groups: readonly string[];
};

const unique = (...lists: (readonly Role[])[]): Role[] => [...new Set(lists.flat())];

/** Each functional area the home page presents. */
export const HOME_AREAS: readonly HomeArea[] = [
  { key: 'store', icon: ShopOutlined, roles: AREA_ROLES.store, groups: ['/store'] },
  { key: 'copy', icon: CopyOutlined, roles: AREA_ROLES.copy, groups: ['/copy', '/create', '/edit'] },
  { key: 'collection', icon: CloudDownloadOutlined, roles: AREA_ROLES.collection, groups: ['/collection'] },
  { key: 'orders', icon: ShoppingCartOutlined, roles: AREA_ROLES.orders, groups: ['/order-manager'] },
  { key: 'products', icon: AppstoreOutlined, roles: AREA_ROLES.products, groups: ['/product'] },
  { key: 'actions', icon: GiftOutlined, roles: AREA_ROLES.actions, groups: ['/action'] },
  { key: 'service', icon: CustomerServiceOutlined, roles: unique(AREA_ROLES.returns, AREA_ROLES.chat), groups: ['/return', '/chat-manager'] },
  {
    key: 'research',
    icon: BarChartOutlined,
    roles: unique(AREA_ROLES.analyze, AREA_ROLES.hotProductPro, AREA_ROLES.research, AREA_ROLES.dataAnalysis),
    groups: ['/analyze', '/search'],
  },
  { key: 'tools', icon: ToolOutlined, roles: AREA_ROLES.open, groups: ['/track', '/tool', '/profile', '/team'] },
];

/** An area's status from the route table: built, partly built (with the pages still to come), or under construction. */
export function areaStatus(area: HomeArea, routes?: readonly AppRoute[]): { status: BuildStatus; building: AppRoute[] } {
  const pages = pagesOf(area.groups, routes);
  if (pages.length === 0) throw new Error(`The home area '${area.key}' names no menu group with pages: ${area.groups.join(', ')}`);
  return { status: buildStatus(pages), building: pages.filter((page) => !isBuilt(page)) };
}
