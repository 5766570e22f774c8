/** An answer the simulator refuses with, in Ozon's rpcStatus form `{ code, message, details }`. */
export class SimError extends Error {
  readonly status: number;
  readonly code: number;

  constructor(status: number, message: string, code?: number) {
    super(message);
    this.status = status;
    // gRPC codes as Ozon's gateway sends them.
    this.code = code ?? (status === 400 ? 3 : status === 401 ? 16 : status === 403 ? 7 : status === 404 ? 5 : status === 429 ? 8 : 13);
  }
}

export const badRequest = (message: string) => new SimError(400, message);
export const notFound = (message: string) => new SimError(404, message);

/** Ozon's documented texts (swagger "Errors"). */
export const OZON_TEXT = {
  invalidKey: 'Invalid Api-Key, please check the key and try again',
  deactivated: 'Api-key is deactivated, use another one or generate a new one',
  missingRole: 'Api-Key is missing a required role for a method',
  ipRestricted: 'Api-Key is restricted to specific IP addresses',
  rateLimit: 'You have reached request rate limit per second',
  circleOpen: 'Circle is open',
  internal: 'Internal error',
  labelsNotReady: "The next postings aren't ready",
} as const;
