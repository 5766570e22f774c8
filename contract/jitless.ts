import { z } from 'zod';

/**
 * Imported first by the page and the data worker: zod compiles object parsers with `new Function`, which the
 * Content-Security-Policy (no 'unsafe-eval') forbids; even its probe for eval shows as a CSP violation.
 */
z.config({ jitless: true });
