import { EDIT_ENDPOINTS, type Design, type DesignSummary, type EditImage, type PublishedImage, type SaveDesignBody } from '../contract/edit';
import {
  WATERMARK_ENDPOINTS,
  type WatermarkApplyBody,
  type WatermarkJob,
  type WatermarkJobDetail,
  type WatermarkSettingsInput,
  type WatermarkTemplate,
} from '../contract/watermark';
import type { HttpClient } from './http/client';

/** Image editing: the designer's designs and the stored edited images (contract/edit.ts). */
export type EditApi = {
  designs(): Promise<DesignSummary[]>;
  design(id: number): Promise<Design>;
  saveDesign(body: SaveDesignBody): Promise<DesignSummary>;
  deleteDesign(id: number): Promise<number>;
  /** Stores an edited image (PNG or JPEG); the server checks it against Ozon's picture rules. */
  upload(file: Blob, name: string): Promise<EditImage>;
  images(): Promise<EditImage[]>;
  /** A stored image's public address, for Ozon to fetch it. */
  publishImage(id: number): Promise<PublishedImage>;
  /** Watermark templates (contract/watermark.ts). */
  watermarkTemplates(): Promise<WatermarkTemplate[]>;
  /** Saves a template (a new one without `id`); `picture` is the file of a picture watermark, null keeps the one it has. */
  saveWatermarkTemplate(settings: WatermarkSettingsInput, picture: Blob | null, id?: number): Promise<WatermarkTemplate>;
  deleteWatermarkTemplate(id: number): Promise<number>;
  watermarkPicture(id: number): Promise<Blob>;
  /** One of a product's pictures with the template applied, as the job would make it. */
  watermarkPreview(templateId: number, productId: string, picture?: number): Promise<Blob>;
  applyWatermark(body: WatermarkApplyBody): Promise<WatermarkJob>;
  restoreWatermark(jobId: number): Promise<WatermarkJob>;
  watermarkJobs(): Promise<WatermarkJob[]>;
  watermarkJob(id: number): Promise<WatermarkJobDetail>;
};

export function createEditApi(client: HttpClient): EditApi {
  const E = EDIT_ENDPOINTS;
  const W = WATERMARK_ENDPOINTS;
  return {
    designs: async () => (await client.call(E.designs)).list,
    design: (id) => client.call(E.design, { id }, { silent: true }),
    saveDesign: (body) => client.call(E.saveDesign, body, { silent: true }),
    deleteDesign: async (id) => (await client.call(E.deleteDesign, { id })).id,
    upload: (file, name) => {
      const form = new FormData();
      form.append('name', name);
      form.append('file', file, name);
      return client.call(E.upload, form, { silent: true });
    },
    images: async () => (await client.call(E.images)).list,
    publishImage: (id) => client.call(E.publishImage, { id }, { silent: true }),
    watermarkTemplates: async () => (await client.call(W.list)).list,
    saveWatermarkTemplate: (settings, picture, id) => {
      const form = new FormData();
      form.append('settings', JSON.stringify(settings));
      if (id !== undefined) form.append('id', String(id));
      if (picture) form.append('file', picture, 'watermark');
      return client.call(W.upload, form, { silent: true });
    },
    deleteWatermarkTemplate: async (id) => (await client.call(W.delete, { id }, { silent: true })).id,
    watermarkPicture: (id) => client.call(W.picture, { id }),
    watermarkPreview: (templateId, productId, picture = 0) => client.call(W.preview, { templateId, productId, picture }),
    applyWatermark: (body) => client.call(W.apply, body, { silent: true }),
    restoreWatermark: (jobId) => client.call(W.restore, { id: jobId }, { silent: true }),
    watermarkJobs: async () => (await client.call(W.jobs)).list,
    watermarkJob: (id) => client.call(W.job, { id }),
  };
}
