/**
 * Vendors the official request schemas of the Ozon operations we call into `request-schemas.json` beside this file, so
 * the simulator validates requests as Ozon does without the 2.4 MB OpenAPI file at run time, and compiles them into
 * `request-types.ts`, the TypeScript types of those request bodies the simulator's handlers are typed with.
 * tests/server/marketplace/ozonRequestTypes.test.ts fails when either file is older than what this script makes.
 *
 *   npm run ozon:schemas -- [path/to/ozon-seller-api.swagger.json]
 *
 * Default source: ../shared/reference/ozon-seller-api.swagger.json (the official file, version 2.1, September 2025).
 * Rerun it when OZON_ENDPOINTS (versions.ts) gains a call or a newer official file arrives.
 *
 * What it does to the official schemas, and why:
 * - keeps only the operations in OZON_ENDPOINTS and the component schemas they reach; drops descriptions and examples;
 * - numbers as Ozon's gateway (grpc-gateway, protojson) reads them: an integer or int64 field takes a JSON number or a
 *   string of digits, a floating-point field a number or a numeric string; a string field takes only a string;
 * - a keyword whose value is null (`enum: null` in FilterOp) is dropped: it says nothing, and is not valid JSON Schema;
 * - a required name that the schema does not define (productv2ProductsStocksRequestStock lists `quant_size`, which it
 *   never describes) is dropped: the file contradicts itself there, and we cannot send what it does not define; so
 *   is a required name whose field is deprecated (actions' `offset`, replaced by `last_id`);
 * - operations newer than the file (marked (2026) in ozon-seller-api.md: v2 warehouse list, v4 posting lists) get
 *   the schemas the reference describes, written out in SUPPLEMENTS below.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OZON_ENDPOINTS } from './versions';

type Schema = { [key: string]: unknown };

const int64 = { type: 'integer', format: 'int64' };
const dateTime = { type: 'string', format: 'date-time' };
const withParams = { $ref: '#/components/schemas/postingv3FbsPostingWithParams' };
const sortDir = { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] };
/** The list filters both v4 posting lists take. */
const postingFilterLists = {
  statuses: { type: 'array', items: { type: 'string' } },
  warehouse_ids: { type: 'array', items: int64 },
  delivery_method_ids: { type: 'array', items: int64 },
  provider_ids: { type: 'array', items: int64 },
};

/** (2026) Request schemas of operations the 2025-09 file does not have, from ozon-seller-api.md. */
const SUPPLEMENTS: Record<string, Schema> = {
  '/v2/warehouse/list': {
    type: 'object',
    required: ['limit'],
    properties: {
      limit: { ...int64, minimum: 1, maximum: 200 },
      cursor: { type: 'string' },
      warehouse_ids: { type: 'array', items: int64 },
    },
  },
  '/v4/posting/fbs/list': {
    type: 'object',
    required: ['filter', 'limit'],
    properties: {
      filter: {
        type: 'object',
        required: ['since', 'to'],
        properties: {
          since: dateTime,
          to: dateTime,
          order_id: int64,
          order_numbers: { type: 'array', items: { type: 'string' } },
          ...postingFilterLists,
          last_changed_status_date: { $ref: '#/components/schemas/postinglistV3status' },
        },
      },
      limit: { ...int64, minimum: 1, maximum: 100 },
      cursor: { type: 'string' },
      sort_dir: sortDir,
      with: withParams,
    },
  },
  '/v4/posting/fbs/unfulfilled/list': {
    type: 'object',
    required: ['limit'],
    properties: {
      filter: {
        type: 'object',
        properties: {
          cutoff_from: dateTime,
          cutoff_to: dateTime,
          delivering_date_from: dateTime,
          delivering_date_to: dateTime,
          ...postingFilterLists,
          last_change_status_date: { $ref: '#/components/schemas/postinglistV3status' },
        },
      },
      limit: { ...int64, minimum: 1, maximum: 100 },
      cursor: { type: 'string' },
      sort_dir: sortDir,
      translit: { type: 'boolean' },
      with: withParams,
    },
  },
};

const DROPPED_KEYS = new Set(['description', 'example', 'title', 'externalDocs']);
const digits = { type: 'string', pattern: '^-?[0-9]+$' };
const numeric = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$' };

/** One schema node in the validator's terms (see the header for each rule). */
function convert(node: unknown, dropped: string[], where: string): unknown {
  if (Array.isArray(node)) return node.map((item) => convert(item, dropped, where));
  if (!node || typeof node !== 'object') return node;
  const input = node as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(input)) {
    // The official file has a few `enum: null` (FilterOp): a null keyword means none.
    if (DROPPED_KEYS.has(key) || key.startsWith('x-') || value === null) continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', '#/definitions/');
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child, dropped, `${where}.${name}`)]));
    } else out[key] = convert(value, dropped, where);
  }
  if (Array.isArray(out.required) && out.properties) {
    const properties = out.properties as Record<string, Schema>;
    // A deprecated field is not required, whatever the list says (actions' `offset`, replaced by `last_id`).
    const defined = new Set(Object.keys(properties).filter((name) => properties[name]?.deprecated !== true));
    const kept = (out.required as string[]).filter((name) => defined.has(name));
    for (const name of out.required as string[]) if (!defined.has(name)) dropped.push(`${where}.${name}`);
    if (kept.length) out.required = kept;
    else delete out.required;
  }
  if (out.nullable === true) delete out.nullable;
  const format = out.format;
  if (format !== 'date-time') delete out.format;
  const isInt = out.type === 'integer' || (out.type === 'string' && (format === 'int64' || format === 'uint64'));
  if (isInt) {
    const { type: _type, minimum, maximum, ...rest } = out;
    const bounds = { ...(minimum !== undefined ? { minimum } : {}), ...(maximum !== undefined ? { maximum } : {}) };
    return { ...rest, anyOf: [{ type: 'integer', ...bounds }, digits] };
  }
  if (out.type === 'number') {
    const { type: _type, ...rest } = out;
    return { ...rest, anyOf: [{ type: 'number' }, numeric] };
  }
  return out;
}

type OpenApi = {
  info?: { version?: string };
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
};

/** What `request-schemas.json` holds: each POST's request schema by path, and the definitions they refer to. */
export type RequestSchemas = { $comment: string; operations: Record<string, Schema>; definitions: Record<string, Schema> };

/** The request schemas of every POST in OZON_ENDPOINTS, converted as the header says; `dropped` lists the dropped required names. */
export function extractRequestSchemas(spec: OpenApi): { schemas: RequestSchemas; dropped: string[] } {
  const components = spec.components.schemas;
  const operations: Record<string, Schema> = {};
  const reached = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        if (!reached.has(name)) {
          reached.add(name);
          if (!components[name]) throw new Error(`${value} is not in the file`);
          visit(components[name]);
        }
      } else visit(value);
    }
  };
  const missing: string[] = [];
  for (const endpoint of Object.values(OZON_ENDPOINTS)) {
    if (endpoint.method !== 'POST') continue;
    const official = spec.paths[endpoint.path]?.post as { requestBody?: { content?: Record<string, { schema?: Schema }> } } | undefined;
    const schema = SUPPLEMENTS[endpoint.path] ?? official?.requestBody?.content?.['application/json']?.schema;
    if (!schema) {
      missing.push(endpoint.path);
      continue;
    }
    operations[endpoint.path] = schema;
    visit(schema);
  }
  if (missing.length) throw new Error(`no request schema for ${missing.join(', ')}: add it to SUPPLEMENTS`);
  const dropped: string[] = [];
  const definitions = Object.fromEntries([...reached].sort().map((name) => [name, convert(components[name], dropped, name) as Schema]));
  const converted = Object.fromEntries(Object.entries(operations).map(([path, schema]) => [path, convert(schema, dropped, path) as Schema]));
  const schemas = {
    $comment: `Generated by extract-request-schemas.ts from the official Ozon Seller API OpenAPI file (version ${spec.info?.version ?? '?'}) and its (2026) supplements. Do not edit: rerun the script.`,
    operations: converted,
    definitions,
  };
  return { schemas, dropped };
}

/** The JSON text of `request-schemas.json` for `schemas`. */
export const requestSchemasJson = (schemas: RequestSchemas) => `${JSON.stringify(schemas, null, 1)}\n`;

/**
 * For the types only: a `oneOf` whose branches just name required fields (the finance filter takes a posting number
 * or a date) becomes branches that carry those fields' schemas, so each compiles to `{ date: ... }` rather than to
 * an object of any fields.
 */
function typedAlternatives(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(typedAlternatives);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, typedAlternatives(value)])) as Schema;
  const properties = out.properties as Record<string, Schema> | undefined;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = out[key];
    if (!properties || !Array.isArray(branches)) continue;
    out[key] = branches.map((branch: Schema) =>
      Object.keys(branch).length === 1 && Array.isArray(branch.required)
        ? { type: 'object', required: branch.required, properties: Object.fromEntries((branch.required as string[]).map((name) => [name, properties[name] ?? {}])) }
        : branch,
    );
  }
  return out;
}

/**
 * For the types only: a definition identical to one before it (the official file repeats the product visibility
 * enum per API version) refers to that one, so the generated file has one type where the file has several copies.
 */
function sameAsFirst(definitions: Record<string, Schema>): Record<string, Schema> {
  const first = new Map<string, string>();
  return Object.fromEntries(
    Object.entries(definitions).map(([name, schema]) => {
      const text = JSON.stringify(schema);
      const earlier = first.get(text);
      if (earlier === undefined) first.set(text, name);
      return [name, earlier === undefined ? schema : { $ref: `#/definitions/${earlier}` }];
    }),
  );
}

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/**
 * TypeScript types of the request bodies in `schemas`, as `request-types.ts` holds them: one type per definition and
 * per inline operation (`<EndpointName>Request`), and `OzonRequests`, each POST's body by path.
 *
 * json-schema-to-typescript rather than openapi-typescript: the types must say exactly what the simulator's
 * validator accepts, so they are compiled from the converted schemas above (int64 as a number or a string of digits,
 * the (2026) supplements included), not from the raw OpenAPI file, which has neither. No object gets an index
 * signature: a field Ozon does not define is not in the type, so a handler reading one fails the type check.
 */
export async function requestTypesSource(schemas: RequestSchemas): Promise<string> {
  const { compile } = await import('json-schema-to-typescript');
  const nameOf = new Map<string, string>(Object.entries(OZON_ENDPOINTS).map(([name, endpoint]) => [endpoint.path, name]));
  const properties = Object.fromEntries(
    Object.entries(schemas.operations).map(([path, schema]) => [
      path,
      schema.$ref ? schema : { ...(typedAlternatives(schema) as Schema), title: `${pascal(nameOf.get(path) ?? path)}Request` },
    ]),
  );
  const root = {
    title: 'OzonRequests',
    description: "Each Ozon POST call's request body, by path.",
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    definitions: sameAsFirst(typedAlternatives(schemas.definitions) as Record<string, Schema>),
  };
  return compile(root as Parameters<typeof compile>[0], 'OzonRequests', {
    additionalProperties: false,
    bannerComment: `/* eslint-disable */\n/**\n * Generated by extract-request-schemas.ts (json-schema-to-typescript) from request-schemas.json. Do not edit: rerun\n * \`npm run ozon:schemas\`.\n */`,
    style: { singleQuote: true, printWidth: 120 },
  });
}

const here = dirname(fileURLToPath(import.meta.url));
/** Where the official file is by default: the shared reference beside the repository. */
export const DEFAULT_OPENAPI_SOURCE = join(here, '../../../../shared/reference/ozon-seller-api.swagger.json');
export const REQUEST_SCHEMAS_FILE = join(here, 'request-schemas.json');
export const REQUEST_TYPES_FILE = join(here, 'request-types.ts');

export const readOpenApi = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as OpenApi;

async function main() {
  const source = resolve(process.argv[2] ?? DEFAULT_OPENAPI_SOURCE);
  const { schemas, dropped } = extractRequestSchemas(readOpenApi(source));
  writeFileSync(REQUEST_SCHEMAS_FILE, requestSchemasJson(schemas));
  writeFileSync(REQUEST_TYPES_FILE, await requestTypesSource(schemas));
  console.log(`${Object.keys(schemas.operations).length} operations, ${Object.keys(schemas.definitions).length} definitions -> ${REQUEST_SCHEMAS_FILE}, ${REQUEST_TYPES_FILE}`);
  if (dropped.length) console.log(`required but undefined or deprecated, dropped: ${dropped.join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
