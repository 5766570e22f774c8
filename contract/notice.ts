import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import { rowId } from './fields';
import { lazySchema } from './lazySchema';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';

/**
 * The notice manager (seller-tool §7 "Administration", §3 Notice) and the feature-update dialog's data (§2.4).
 * The newest notice by update time is what GET /api/noticeCheck serves; adding or updating one pushes
 * `{ type: 'notice', notice }` to every open socket (contract/push.ts).
 */
const id = rowId();
const ids = z.array(id).min(1).max(500);

export const NOTICE_TEXT_MAX = 2000;
const noticeText = z.string().trim().min(1).max(NOTICE_TEXT_MAX);

// GET /api/notice/list: newest first.
export const noticeListQuerySchema = pageQuerySchema;
export type NoticeListQuery = z.input<typeof noticeListQuerySchema>;

export const noticeRowSchema = lazySchema(() => z.object({
  id: z.number().int(),
  text: z.string(),
  /** yyyy-mm-dd hh:mm:ss, China time: the same value /api/noticeCheck answers. */
  updateTime: z.string(),
  /** Who added it, or null when that account is gone (or the notice was seeded). */
  author: z.string().nullable(),
}));
export type NoticeRow = z.infer<typeof noticeRowSchema>;
export const noticePageSchema = lazySchema(() => z.object({ list: z.array(noticeRowSchema), total: z.number().int() }));
export type NoticePage = z.infer<typeof noticePageSchema>;

// POST /api/notice/add: publishes; answers the row.
export const addNoticeBodySchema = lazySchema(() => z.object({ text: noticeText }));
export type AddNoticeBody = z.input<typeof addNoticeBodySchema>;

// POST /api/notice/update: changes the text and republishes (it becomes the newest); answers the row.
export const updateNoticeBodySchema = lazySchema(() => z.object({ id, text: noticeText }));
export type UpdateNoticeBody = z.input<typeof updateNoticeBodySchema>;

// POST /api/notice/delete: answers how many were deleted.
export const deleteNoticesBodySchema = lazySchema(() => z.object({ ids }));
export type DeleteNoticesBody = z.input<typeof deleteNoticesBodySchema>;
export const deletedDataSchema = lazySchema(() => z.object({ deleted: z.number().int() }));

/** A zh / en pair: the dialog picks the user's language. */
export const localizedTextSchema = lazySchema(() => z.object({
  zh: z.string().trim().min(1).max(500),
  en: z.string().trim().min(1).max(500),
}));
export type LocalizedText = z.infer<typeof localizedTextSchema>;

/**
 * One line of an announcement; `path` names the page it is about, and the dialog leaves the line out while that page
 * is still under construction (an announcement prepared ahead shows a feature only once it works).
 */
export const featureUpdateItemSchema = lazySchema(() => localizedTextSchema.extend({
  path: z.string().regex(/^\/[\w\-/]*$/).max(200).optional(),
}));
export type FeatureUpdateItem = z.infer<typeof featureUpdateItemSchema>;

/** yyyy-mm-dd that is a real calendar date. */
export const isoDateSchema = lazySchema(() =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((value) => {
      const time = Date.parse(`${value}T00:00:00Z`);
      return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
    }));

export { FEATURE_UPDATE_SHOW_DAYS } from './featureUpdate';

export const DEFAULT_FEATURE_UPDATE_TITLE: LocalizedText = { zh: '更新Tips：', en: 'What\'s new:' };

export const featureUpdateSchema = lazySchema(() => z.object({
  id: z.number().int(),
  /** yyyy-mm-dd, China date. */
  startDate: z.string(),
  title: localizedTextSchema,
  items: z.array(featureUpdateItemSchema),
  active: z.boolean(),
  /** Epoch milliseconds of the last change. */
  updatedAt: z.number(),
}));
export type FeatureUpdate = z.infer<typeof featureUpdateSchema>;

// GET /api/featureUpdate/current: the newest active announcement whose start date has come (China date), or null.
// The client shows it only if not yet acknowledged, fewer than FEATURE_UPDATE_SHOW_DAYS days since startDate,
// and follow or plug validity still in the future.
export const currentFeatureUpdateSchema = lazySchema(() => featureUpdateSchema.pick({ id: true, startDate: true, title: true, items: true }));
export type CurrentFeatureUpdate = z.infer<typeof currentFeatureUpdateSchema>;
export const currentFeatureUpdateDataSchema = lazySchema(() => currentFeatureUpdateSchema.nullable());

// GET /api/featureUpdate/list: newest start first.
export const featureUpdateListQuerySchema = pageQuerySchema;
export const featureUpdatePageSchema = lazySchema(() => z.object({ list: z.array(featureUpdateSchema), total: z.number().int() }));
export type FeatureUpdatePage = z.infer<typeof featureUpdatePageSchema>;

const items = z.array(featureUpdateItemSchema).min(1).max(20);

// POST /api/featureUpdate/add: answers the row.
export const addFeatureUpdateBodySchema = lazySchema(() => z.object({
  startDate: isoDateSchema,
  title: localizedTextSchema.default(DEFAULT_FEATURE_UPDATE_TITLE),
  items,
  active: z.boolean().default(true),
}));
export type AddFeatureUpdateBody = z.input<typeof addFeatureUpdateBodySchema>;

// POST /api/featureUpdate/update: fields left out stay as they are; answers the row.
export const updateFeatureUpdateBodySchema = lazySchema(() => z.object({
  id,
  startDate: isoDateSchema.optional(),
  title: localizedTextSchema.optional(),
  items: items.optional(),
  active: z.boolean().optional(),
}));
export type UpdateFeatureUpdateBody = z.input<typeof updateFeatureUpdateBodySchema>;

// POST /api/featureUpdate/delete: answers how many were deleted.
export const deleteFeatureUpdatesBodySchema = lazySchema(() => z.object({ ids }));
export type DeleteFeatureUpdatesBody = z.input<typeof deleteFeatureUpdatesBodySchema>;

export const NOTICE_MESSAGES = {
  noticeNotFound: { zh: '公告不存在', en: 'The notice does not exist', pt: 'O aviso não existe' },
  featureUpdateNotFound: { zh: '更新说明不存在', en: 'The feature update does not exist', pt: 'A novidade não existe' },
} as const satisfies Record<string, Localized>;

/** The notice manager's calls (admin only); publishing pushes the notice to every open socket. */
export const NOTICE_ENDPOINTS = {
  list: defineEndpoint({
    method: 'GET',
    path: '/notice/list',
    summary: 'One page of notices, newest first.',
    access: 'admin',
    input: noticeListQuerySchema,
    answer: noticePageSchema,
    settings: { cancellable: true },
  }),
  add: defineEndpoint({ method: 'POST', path: '/notice/add', summary: 'Publishes a notice.', access: 'admin', action: 'edit', input: addNoticeBodySchema, answer: noticeRowSchema }),
  update: defineEndpoint({
    method: 'POST',
    path: '/notice/update',
    summary: "Changes a notice's text and publishes it again.",
    access: 'admin',
    action: 'edit',
    input: updateNoticeBodySchema,
    answer: noticeRowSchema,
  }),
  delete: defineEndpoint({ method: 'POST', path: '/notice/delete', summary: 'Deletes notices.', access: 'admin', action: 'delete', input: deleteNoticesBodySchema, answer: deletedDataSchema }),
} as const;
export const NOTICE_PATHS = routePaths(NOTICE_ENDPOINTS);

/** The feature-update announcements: every user reads the current one, administrators manage them. */
export const FEATURE_UPDATE_ENDPOINTS = {
  current: defineEndpoint({
    method: 'GET',
    path: '/featureUpdate/current',
    summary: 'The newest active announcement whose start date has come, or null.',
    access: 'open',
    answer: currentFeatureUpdateDataSchema,
    settings: { silent: true },
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/featureUpdate/list',
    summary: 'One page of announcements, newest start first.',
    access: 'admin',
    input: featureUpdateListQuerySchema,
    answer: featureUpdatePageSchema,
    settings: { cancellable: true },
  }),
  add: defineEndpoint({
    method: 'POST',
    path: '/featureUpdate/add',
    summary: 'Adds an announcement.',
    access: 'admin',
    action: 'edit',
    input: addFeatureUpdateBodySchema,
    answer: featureUpdateSchema,
  }),
  update: defineEndpoint({
    method: 'POST',
    path: '/featureUpdate/update',
    summary: 'Changes an announcement; fields left out stay as they are.',
    access: 'admin',
    action: 'edit',
    input: updateFeatureUpdateBodySchema,
    answer: featureUpdateSchema,
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/featureUpdate/delete',
    summary: 'Deletes announcements.',
    access: 'admin',
    action: 'delete',
    input: deleteFeatureUpdatesBodySchema,
    answer: deletedDataSchema,
  }),
} as const;
export const FEATURE_UPDATE_PATHS = routePaths(FEATURE_UPDATE_ENDPOINTS);
