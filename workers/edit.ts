import { EDIT_ENDPOINTS, type Design, type DesignSummary, type EditImage, type SaveDesignBody } from '../contract/edit';
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
};

export function createEditApi(client: HttpClient): EditApi {
  const E = EDIT_ENDPOINTS;
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
  };
}
