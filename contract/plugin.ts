import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { rowId } from './fields';
import { lazySchema } from './lazySchema';
import type { PluginUser } from './pluginProtocol';

/**
 * The browser plugin's calls (seller-tool top bar "plugin download"): a Chromium extension (Manifest V3, source in plugin/)
 * that adds a collect button to Ozon and 1688 product pages and sends the product to /CollectProduct.
 *
 * It signs in with a plugin token, not with the app's session: an access token lives two hours and its refresh
 * credential is an httpOnly cookie of the app's pages, neither of which an extension can keep. The user issues a
 * token on /plugin/download (the page hands it to the installed plugin, or shows it once to paste), sees where each
 * is used, and revokes it there. The server keeps only its hash, and a plugin token opens only the endpoints marked
 * `pluginToken` (collect, and `me` to show whose it is): never the rest of the account. The constants the
 * extension's scripts share are in ./pluginProtocol (no zod there, so those scripts stay small).
 */

export const pluginTokenSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    /** What the user called it (the browser it went to). */
    label: z.string(),
    /** The token's first characters, to tell them apart (the rest is never shown again). */
    hint: z.string(),
    createdAt: z.number(),
    expiresAt: z.number(),
    /** When a product was last collected (or the plugin checked in) with it; null: never used. */
    lastUsedAt: z.number().nullable(),
  }),
);
export type PluginToken = z.infer<typeof pluginTokenSchema>;

export const pluginInfoSchema = lazySchema(() =>
  z.object({
    /** The plugin's version as built with this app; null when this server has no built plugin to offer. */
    version: z.string().nullable(),
    /** The zip's size in bytes (null with no built plugin). */
    size: z.number().int().nullable(),
    /** The caller's live tokens, newest first. */
    tokens: z.array(pluginTokenSchema),
  }),
);
export type PluginInfo = z.infer<typeof pluginInfoSchema>;

export const issueTokenSchema = lazySchema(() => z.object({ label: z.string().trim().min(1).max(60) }));
/** The token itself is in this answer only: the server keeps its hash. */
export const issuedTokenSchema = lazySchema(() => z.object({ token: z.string(), info: pluginTokenSchema }));
export type IssuedToken = z.infer<typeof issuedTokenSchema>;

export const pluginUserSchema = lazySchema(() => z.object({ id: z.number().int(), name: z.string() }) satisfies z.ZodType<PluginUser>);

export const PLUGIN_ENDPOINTS = {
  info: defineEndpoint({
    method: 'GET',
    path: '/plugin/info',
    summary: "The plugin's version and download size, and the caller's plugin tokens",
    access: 'collection',
    answer: pluginInfoSchema,
  }),
  download: defineEndpoint({
    method: 'GET',
    path: '/plugin/package',
    summary: 'The plugin as a zip to load unpacked in Chromium, made for this server: it talks to this origin only',
    access: 'collection',
    raw: { contentType: 'application/zip', description: 'The unpacked extension (manifest.json at the root), attachment seller-plugin-VERSION.zip' },
    settings: { responseType: 'blob', timeout: 60_000 },
  }),
  issueToken: defineEndpoint({
    method: 'POST',
    path: '/plugin/token/create',
    summary: 'Issue a plugin token (shown once; the server keeps its hash)',
    access: 'collection',
    action: 'edit',
    input: issueTokenSchema,
    answer: issuedTokenSchema,
  }),
  revokeToken: defineEndpoint({
    method: 'POST',
    path: '/plugin/token/revoke',
    summary: 'Revoke a plugin token: the plugin holding it can no longer collect',
    access: 'collection',
    action: 'edit',
    input: lazySchema(() => z.object({ id: rowId() })),
    answer: lazySchema(() => z.object({ count: z.number().int() })),
  }),
  me: defineEndpoint({
    method: 'GET',
    path: '/plugin/me',
    summary: "Whose plugin token this is (the plugin shows it and checks a pasted token with it)",
    access: 'collection',
    pluginToken: true,
    answer: pluginUserSchema,
  }),
} as const;
