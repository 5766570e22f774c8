import { API_TOKEN_EXAMPLE, API_TOKEN_PREFIX } from '../../contract/apiClients';
import { z } from 'zod';
import { AREA_ROLES } from '../../contract/access';
import { DEFAULT_CALL_SETTINGS, routePath, type Endpoint } from '../../contract/endpoint';
import { AUTH_HEADERS } from '../../contract/envelope';
import { listEndpoints, type NamedEndpoint } from '../../contract/endpoints';

type JsonSchema = Record<string, unknown>;

/** JSON Schema of a zod schema as the caller sends it (`input`: before coercion and defaults) or as it is answered. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Preprocessed fields (comma-separated lists in a query) have no JSON Schema: they are left open.
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function queryParameters(schema: z.ZodType, where: 'query' | 'path'): JsonSchema[] {
  const object = jsonSchema(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

const errorEnvelope: JsonSchema = {
  type: 'object',
  required: ['code', 'msg', 'data'],
  properties: {
    code: { type: 'integer', description: 'The same code as the HTTP status: 400 invalid input, 401 no permission, 402 expired token, 429, 468, 504, 507-509.' },
    msg: { type: 'string', description: "What went wrong, in the caller's language (Accept-Language); a 400 names the field." },
    data: { oneOf: [{ type: 'null' }, { type: 'object', properties: { field: { type: 'string' } } }] },
  },
};

function successContent(endpoint: Endpoint): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (endpoint.answer) {
    const data = jsonSchema(endpoint.answer, 'output');
    content['application/json'] = {
      schema: endpoint.site
        ? data
        : { type: 'object', required: ['code', 'msg', 'data'], properties: { code: { const: 200 }, msg: { type: 'string' }, data } },
    };
  }
  if (endpoint.raw) content[endpoint.raw.contentType] = { schema: { type: 'string', format: 'binary', description: endpoint.raw.description } };
  return content;
}

function operation({ group, name, endpoint }: NamedEndpoint): JsonSchema {
  const { access } = endpoint;
  const roles = access === 'public' ? null : AREA_ROLES[access];
  const who = access === 'public' ? 'Public: no session needed.' : roles && roles.length > 0 ? `Roles: ${roles.join(', ')} (area '${access}').` : 'Any signed-in user.';
  const parameters = [
    ...(endpoint.params ? queryParameters(endpoint.params, 'path') : []),
    ...(endpoint.input && endpoint.method === 'GET' ? queryParameters(endpoint.input, 'query') : []),
  ];
  const requestBody = endpoint.multipart
    ? {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              ...jsonSchema(endpoint.multipart.fields, 'input'),
              properties: {
                ...((jsonSchema(endpoint.multipart.fields, 'input').properties ?? {}) as JsonSchema),
                [endpoint.multipart.file]: { type: 'string', format: 'binary', description: 'The file part: after the fields.' },
              },
            },
          },
        },
      }
    : endpoint.input && endpoint.method === 'POST'
      ? { required: true, content: { 'application/json': { schema: jsonSchema(endpoint.input, 'input') } } }
      : undefined;
  return {
    operationId: `${group}.${name}`,
    tags: [group],
    summary: endpoint.summary,
    description: `${who} Call settings (the worker's client applies them): ${JSON.stringify({ ...DEFAULT_CALL_SETTINGS, ...endpoint.settings })}.`,
    ...(access === 'public' ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      200: { description: endpoint.raw ? `Success: ${endpoint.raw.description}` : 'Success', content: successContent(endpoint) },
      default: { description: 'Failure: the error envelope', content: { 'application/json': { schema: errorEnvelope } } },
    },
    'x-access': access,
    'x-call-settings': { ...DEFAULT_CALL_SETTINGS, ...endpoint.settings },
  };
}

/** The OpenAPI 3.1 document of every endpoint object (contract/endpoints.ts), built once per process. */
export function openApiDocument(version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const named of listEndpoints()) {
    const path = routePath(named.endpoint).replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [named.endpoint.method.toLowerCase()]: operation(named) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Seller Back Office API',
      version,
      description:
        `Every success is HTTP 200 with \`{ code: 200, msg, data }\` (binary and site-file answers excepted); failures carry the code as HTTP status and in the envelope. Generated from the endpoint objects in contract/.\n\n${API_TOKEN_EXAMPLE}`,
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: AUTH_HEADERS.token, description: 'The access token from login.' },
        userId: { type: 'apiKey', in: 'header', name: AUTH_HEADERS.userId, description: "The signed-in user's id." },
        apiToken: { type: 'http', scheme: 'bearer', description: `An application's API token (${API_TOKEN_PREFIX}...): its role's calls, its shops.` },
      },
    },
    security: [{ token: [], userId: [] }, { apiToken: [] }],
    paths,
  };
}
