import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import requestSchemas from '../ozon/request-schemas.json' with { type: 'json' };
import { badRequest, type SimError } from './errors';

/**
 * Checks a request body against Ozon's official request schema of its path (vendored in
 * ../ozon/request-schemas.json by ../ozon/extract-request-schemas.ts): types, required fields and enum values, as
 * Ozon's gateway refuses them, with HTTP 400 and gRPC code 3 in Ozon's error shape. A body our client sends that
 * this refuses is a bug in the client: the simulator is the client's test partner.
 */

// ajv-formats is CommonJS; its default export arrives wrapped under tsx and vitest.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ?? addFormatsPlugin);

const ajv = new Ajv({ allErrors: false, strict: false });
addFormats(ajv, ['date-time']);
ajv.addSchema({ $id: 'ozon', definitions: requestSchemas.definitions });

const compiled = new Map<string, ValidateFunction>();
const operations = requestSchemas.operations as Record<string, object>;

function validatorFor(path: string): ValidateFunction | undefined {
  const schema = operations[path];
  if (!schema) return undefined;
  let validate = compiled.get(path);
  if (!validate) {
    // The operation's schema refers to shared definitions as '#/definitions/X': resolve them in the 'ozon' document.
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/definitions/', '"ozon#/definitions/')) as object);
    compiled.set(path, validate);
  }
  return validate;
}

/** Whether a path has an official request schema here (every POST of OZON_ENDPOINTS has). */
export const hasRequestSchema = (path: string) => path in operations;

/** The first way `body` breaks the schema of `path`, as Ozon's refusal; undefined when it is valid. */
export function invalidRequest(path: string, body: unknown): SimError | undefined {
  const validate = validatorFor(path);
  if (!validate || validate(body)) return undefined;
  return badRequest(describe(validate.errors?.[0]));
}

/** 'invalid GetProductListRequest.limit: must be <= 1000' in the spirit of Ozon's validator texts, naming the field. */
function describe(error: ErrorObject | undefined): string {
  if (!error) return 'invalid request';
  const field = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `invalid request: ${field ? `${field}.` : ''}${missing} is required`;
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    return `invalid request: ${field || 'body'} must be one of ${allowed.join(', ')}`;
  }
  if (error.keyword === 'anyOf' || error.keyword === 'type' || error.keyword === 'pattern') {
    return `invalid request: ${field || 'body'} has an invalid value for its type`;
  }
  return `invalid request: ${field || 'body'} ${error.message ?? 'is invalid'}`;
}
