import { PLUGIN_ENDPOINTS, type IssuedToken, type PluginInfo } from '../contract/plugin';
import type { HttpClient } from './http/client';

/** The browser plugin's page: its download and the tokens it signs in with (workers side of contract/plugin.ts). */
export type PluginApi = {
  info(): Promise<PluginInfo>;
  /** The zip made for this origin. */
  download(): Promise<Blob>;
  /** Silent: the connect action shows its own outcome. */
  issueToken(label: string): Promise<IssuedToken>;
  revokeToken(id: number): Promise<number>;
};

export function createPluginApi(client: HttpClient): PluginApi {
  const E = PLUGIN_ENDPOINTS;
  return {
    info: () => client.call(E.info),
    download: () => client.call(E.download),
    issueToken: (label) => client.call(E.issueToken, { label }, { silent: true }),
    revokeToken: async (id) => (await client.call(E.revokeToken, { id })).count,
  };
}
