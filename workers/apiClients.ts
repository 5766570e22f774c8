import {
  API_CLIENT_ENDPOINTS as E,
  type ApiClient,
  type ApiClientListQuery,
  type ApiClientPage,
  type ApiToken,
  type IssuedToken,
  type IssueTokenBody,
  type SaveApiClientBody,
} from '../contract/apiClients';
import type { HttpClient } from './http/client';

/** Applications (the spec's licensable systems) and their API tokens (contract/apiClients.ts). */
export type ApiClientsApi = {
  list(query: ApiClientListQuery): Promise<ApiClientPage>;
  save(body: SaveApiClientBody): Promise<ApiClient>;
  remove(id: number): Promise<{ count: number }>;
  tokens(clientId: number): Promise<ApiToken[]>;
  /** The answer holds the token itself, once. */
  issue(body: IssueTokenBody): Promise<IssuedToken>;
  revoke(id: number): Promise<ApiToken>;
};

export function createApiClientsApi(client: HttpClient): ApiClientsApi {
  return {
    list: (query) => client.call(E.list, query),
    save: (body) => client.call(E.save, body, { silent: true }),
    remove: (id) => client.call(E.remove, { id }),
    tokens: (clientId) => client.call(E.tokens, { clientId }),
    issue: (body) => client.call(E.issue, body, { silent: true }),
    revoke: (id) => client.call(E.revoke, { id }),
  };
}
