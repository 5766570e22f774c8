import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';

/** Whether this server lets its administrators use the flows page (FLOWS_PAGE: on outside production by default). */
export const flowsSettingsSchema = lazySchema(() => z.object({ enabled: z.boolean() }));
export type FlowsSettings = z.infer<typeof flowsSettingsSchema>;

export const FLOWS_ENDPOINTS = {
  settings: defineEndpoint({
    method: 'GET',
    path: '/flows/settings',
    summary: 'Whether the flows page is allowed on this server',
    access: 'admin',
    answer: flowsSettingsSchema,
    settings: { timeout: 10_000 },
  }),
} as const;
