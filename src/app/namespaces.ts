import { components } from '@/components/locales';
import { attributeForm } from '@/components/attribute-form/locales';
import { admin } from '@/features/admin/locales';
import { auth } from '@/features/auth/locales';
import { chat } from '@/features/chat/locales';
import { chatWidget } from '@/features/chat/widget/locales';
import { construction } from '@/features/construction/locales';
import { collection } from '@/features/collection/locales';
import { copy } from '@/features/copy/locales';
import { create } from '@/features/create/locales';
import { docs } from '@/features/docs/locales';
import { errors } from '@/features/errors/locales';
import { flows } from '@/features/flows/locales';
import { home } from '@/features/home/locales';
import { orders } from '@/features/orders/locales';
import { products } from '@/features/products/locales';
import { returns } from '@/features/returns/locales';
import { profile } from '@/features/profile/locales';
import { store } from '@/features/store/locales';
import { tools } from '@/features/tools/locales';
import { promotions } from '@/features/promotions/locales';
import { analysis } from '@/features/analysis/locales';
import { research } from '@/features/research/locales';
import { edit } from '@/features/edit/locales';
import { plugin } from '@/features/plugin/locales';
import { security } from '@/features/security/locales';
import { securityServices } from '@/features/security/servicesLocales';
import { team } from '@/features/team/locales';
import { access } from '@/features/team/accessLocales';
import { apiClients } from '@/features/team/apiClientsLocales';
import type { Texts } from './locales/define';
import { shell } from './locales';

/**
 * Every i18next namespace, one line each: `<area>` for `src/features/<area>/locales.ts`. Components read theirs with
 * `useTranslation('<area>')`; `shell` is the default namespace (`useTranslation()`).
 */
export const NAMESPACES = {
  shell,
  components,
  attributeForm,
  admin,
  auth,
  construction,
  docs,
  errors,
  flows,
  home,
  profile,
  store,
  orders,
  products,
  returns,
  chat,
  chatWidget,
  tools,
  promotions,
  analysis,
  research,
  copy,
  create,
  collection,
  edit,
  plugin,
  team,
  access,
  apiClients,
  security,
  securityServices,
};

export type Namespace = keyof typeof NAMESPACES;
export const DEFAULT_NAMESPACE = 'shell' satisfies Namespace;

/** Each namespace's keys (from its zh texts) with string values: what i18next's typed `t` checks keys against. */
export type NamespaceTexts = { [N in Namespace]: Texts<(typeof NAMESPACES)[N]['zh']> };

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof DEFAULT_NAMESPACE;
    resources: NamespaceTexts;
    returnObjects: true;
  }
}

/**
 * The shell's texts (spec §2.3: menu, navbar, login, table, tags view and settings), which es and ja hold in full (pt
 * holds everything): key prefixes per namespace. Everything else in es and ja falls back to English.
 */
export const SHELL_KEYS: { readonly [N in Namespace]?: readonly string[] } = {
  auth: ['login'],
  components: ['dataTable', 'virtualTable'],
  shell: ['site', 'route', 'navbar', 'role', 'tagsView', 'settings'],
};
