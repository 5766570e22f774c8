import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { POSTCODE_ENDPOINTS as E, POSTCODE_IMPORT_MAX_BYTES, type LookupAnswer, type PostOffice } from '../../../contract/postcodes';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { CarrierUnavailable } from '../../integrations/tracking/types';
import { PindxError, readPindx } from './pindx';
import { dataset, officeByIndex, replacePostcodes, searchOffices } from './service';

/** Postcode lookup and search for every signed-in user; administrators replace the database with the post's file. */
export async function postcodeRoutes(app: FastifyInstance) {
  const database = app.database;
  const pochta = app.integrations.pochta.client;
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: POSTCODE_IMPORT_MAX_BYTES, files: 1, fields: 1, parts: 2 } });

  route(app, E.dataset, async () => dataset(database));

  route(app, E.lookup, async ({ input }) => {
    const { office, renumbered } = await officeByIndex(database, input.index);
    let details: LookupAnswer['details'] = null;
    let detailsProblem: LookupAnswer['detailsProblem'] = null;
    if (office) {
      if (!pochta) detailsProblem = 'notConfigured';
      else {
        try {
          details = await pochta.office(office.index);
          if (!details) detailsProblem = 'unknown';
        } catch (error) {
          if (!(error instanceof CarrierUnavailable)) throw error;
          app.log.warn({ err: error.message }, 'postcodes: the post-office service could not be read');
          detailsProblem = 'unavailable';
        }
      }
    }
    return { office, renumbered, details, detailsProblem, dataset: await dataset(database) };
  });

  route(app, E.search, async ({ input }) => {
    const { offices, total } = await searchOffices(database, input.q, input.region);
    let byAddress: PostOffice[] = [];
    let addressProblem: 'notConfigured' | 'unavailable' | null = null;
    if (!pochta) addressProblem = 'notConfigured';
    else {
      try {
        const indexes = await pochta.byAddress(input.q);
        byAddress = (await Promise.all(indexes.slice(0, 20).map(async (index) => (await officeByIndex(database, index)).office))).filter((o): o is PostOffice => o !== null);
      } catch (error) {
        if (!(error instanceof CarrierUnavailable)) throw error;
        addressProblem = 'unavailable';
      }
    }
    return { offices, total, byAddress, addressProblem, dataset: await dataset(database) };
  });

  route(app, E.import, async ({ user, request }) => {
    const part = request.isMultipart() ? await request.file() : undefined;
    if (!part) throw new ApiError(400, 'postcodeNoFile', 'file');
    const bytes = await part.toBuffer();
    if (part.file.truncated) throw new ApiError(400, { key: 'postcodeFileInvalid', params: { reason: `larger than ${POSTCODE_IMPORT_MAX_BYTES / 1024 / 1024} MB` } }, 'file');
    let offices: PostOffice[];
    try {
      offices = await readPindx(new Uint8Array(bytes));
    } catch (error) {
      if (error instanceof PindxError) throw new ApiError(400, { key: 'postcodeFileInvalid', params: { reason: error.message } }, 'file');
      throw error;
    }
    const name = part.filename.replace(/[^\p{L}\p{N}._-]/gu, '_').slice(0, 120) || `upload-${randomBytes(4).toString('hex')}`;
    return { dataset: await replacePostcodes(database, offices, name, user.id) };
  });
}
