import { ADMIN_USER_ENDPOINTS } from './admin';
import { ANALYSIS_ENDPOINTS } from './analysis';
import { CHAT_ENDPOINTS, CONTACTS_ENDPOINTS } from './chat';
import { CHAT_UPLOAD_ENDPOINTS } from './chatUpload';
import { COLLECTION_ENDPOINTS } from './collection';
import { COPY_ENDPOINTS } from './copy';
import { CREATE_ENDPOINTS } from './create';
import type { Endpoint } from './endpoint';
import { FEATURE_UPDATE_ENDPOINTS, NOTICE_ENDPOINTS } from './notice';
import { ORDER_ENDPOINTS } from './orders';
import { PROMOTION_ENDPOINTS } from './promotions';
import { PUSH_ENDPOINTS } from './push';
import { COST_ENDPOINTS } from './costs';
import { PRODUCT_ENDPOINTS } from './products';
import { REUPLOAD_ENDPOINTS } from './reupload';
import { RETURN_ENDPOINTS } from './returns';
import { SESSION_ENDPOINTS } from './session';
import { STORE_ENDPOINTS } from './store';
import { TOOL_ENDPOINTS } from './tools';
import { PREFERENCE_ENDPOINTS } from './preferences';
import { TRACK_ENDPOINTS } from './tracking';
import { POSTCODE_ENDPOINTS } from './postcodes';
import { FLOWS_ENDPOINTS } from './flows';
import { RESEARCH_ENDPOINTS } from './research';
import { EDIT_ENDPOINTS } from './edit';
import { WATERMARK_ENDPOINTS } from './watermark';
import { PLUGIN_ENDPOINTS } from './plugin';
import { EXTERNAL_IMAGE_ENDPOINTS } from './externalImage';
import { PASSWORD_POLICY_ENDPOINTS } from './passwordPolicy';
import { SIGNIN_ENDPOINTS } from './signin';
import { SERVICE_ENDPOINTS } from './signinServices';
import { ACCESS_ENDPOINTS } from './accessPolicy';
import { RESET_ENDPOINTS } from './passwordReset';
import { API_CLIENT_ENDPOINTS } from './apiClients';
import { TEAM_ENDPOINTS } from './team';
import { TRANSLATE_ENDPOINTS } from './translate';

/**
 * Every endpoint of the API by group (the groups are the OpenAPI document's tags). A new area adds its
 * `<AREA>_ENDPOINTS` here; the tests check that the server registers each of them, and only them.
 */
export const ENDPOINTS = {
  session: SESSION_ENDPOINTS,
  store: STORE_ENDPOINTS,
  orders: ORDER_ENDPOINTS,
  products: PRODUCT_ENDPOINTS,
  reupload: REUPLOAD_ENDPOINTS,
  returns: RETURN_ENDPOINTS,
  chat: CHAT_ENDPOINTS,
  chatUpload: CHAT_UPLOAD_ENDPOINTS,
  contacts: CONTACTS_ENDPOINTS,
  notice: NOTICE_ENDPOINTS,
  featureUpdate: FEATURE_UPDATE_ENDPOINTS,
  admin: ADMIN_USER_ENDPOINTS,
  tools: TOOL_ENDPOINTS,
  preferences: PREFERENCE_ENDPOINTS,
  tracking: TRACK_ENDPOINTS,
  postcodes: POSTCODE_ENDPOINTS,
  flows: FLOWS_ENDPOINTS,
  research: RESEARCH_ENDPOINTS,
  edit: EDIT_ENDPOINTS,
  watermark: WATERMARK_ENDPOINTS,
  analysis: ANALYSIS_ENDPOINTS,
  promotions: PROMOTION_ENDPOINTS,
  costs: COST_ENDPOINTS,
  copy: COPY_ENDPOINTS,
  push: PUSH_ENDPOINTS,
  collection: COLLECTION_ENDPOINTS,
  create: CREATE_ENDPOINTS,
  plugin: PLUGIN_ENDPOINTS,
  externalImage: EXTERNAL_IMAGE_ENDPOINTS,
  team: TEAM_ENDPOINTS,
  signin: SIGNIN_ENDPOINTS,
  signinServices: SERVICE_ENDPOINTS,
  passwordReset: RESET_ENDPOINTS,
  passwordPolicy: PASSWORD_POLICY_ENDPOINTS,
  access: ACCESS_ENDPOINTS,
  apiClients: API_CLIENT_ENDPOINTS,
  translate: TRANSLATE_ENDPOINTS,
} as const satisfies Record<string, Record<string, Endpoint>>;

export type EndpointGroup = keyof typeof ENDPOINTS;
export type NamedEndpoint = { group: EndpointGroup; name: string; endpoint: Endpoint };

/** Every endpoint with its group and name (`orders.ship`), in the order of ENDPOINTS. */
export function listEndpoints(): NamedEndpoint[] {
  return Object.entries(ENDPOINTS).flatMap(([group, endpoints]) =>
    Object.entries(endpoints as Record<string, Endpoint>).map(([name, endpoint]) => ({ group: group as EndpointGroup, name, endpoint })),
  );
}
