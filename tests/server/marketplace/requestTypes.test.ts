import { existsSync, readFileSync } from 'node:fs';
import {
  DEFAULT_OPENAPI_SOURCE,
  REQUEST_SCHEMAS_FILE,
  REQUEST_TYPES_FILE,
  extractRequestSchemas,
  readOpenApi,
  requestSchemasJson,
  requestTypesSource,
  type RequestSchemas,
} from '../../../server/marketplace/ozon/extract-request-schemas';
import { OZON_ENDPOINTS } from '../../../server/marketplace/ozon/versions';

/**
 * The vendored request schemas and the types generated from them are what `npm run ozon:schemas` makes: a changed
 * endpoint table, converter or official file without a rerun fails here, not as a handler typed with a stale body.
 */
const OUT_OF_DATE = 'out of date: run `npm run ozon:schemas` and commit the result';

describe('Ozon request schemas and types', () => {
  const vendored = JSON.parse(readFileSync(REQUEST_SCHEMAS_FILE, 'utf8')) as RequestSchemas;

  it('request-types.ts is what json-schema-to-typescript makes of request-schemas.json', async () => {
    const expected = await requestTypesSource(vendored);
    expect(readFileSync(REQUEST_TYPES_FILE, 'utf8') === expected, `request-types.ts is ${OUT_OF_DATE}`).toBe(true);
  });

  it('every POST endpoint has a request type', () => {
    const types = readFileSync(REQUEST_TYPES_FILE, 'utf8');
    const posts = Object.values(OZON_ENDPOINTS).filter((e) => e.method === 'POST');
    expect(posts.filter((e) => !types.includes(`'${e.path}':`)).map((e) => e.path)).toEqual([]);
  });

  // The official file lives in the shared reference beside the repository (CI has it); a clone without it skips this.
  it.skipIf(!existsSync(DEFAULT_OPENAPI_SOURCE))('request-schemas.json is what the official OpenAPI file gives', () => {
    const { schemas } = extractRequestSchemas(readOpenApi(DEFAULT_OPENAPI_SOURCE));
    expect(readFileSync(REQUEST_SCHEMAS_FILE, 'utf8') === requestSchemasJson(schemas), `request-schemas.json is ${OUT_OF_DATE}`).toBe(true);
  });
});
