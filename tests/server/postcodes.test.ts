import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { zipSync } from 'fflate';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';
import type { LookupAnswer, PostcodeDataset, PostcodeSearchAnswer, PostOffice } from '../../contract/postcodes';
import { SAMPLE_POSTCODES } from '../../server/areas/postcodes/sample';
import { writePindx } from '../../server/areas/postcodes/pindx';

type Envelope<T> = { code: number; msg: string; data: T };

async function get<T>(app: FastifyInstance, session: Session, url: string) {
  const response = await app.inject({ method: 'GET', url, headers: session.headers });
  return { status: response.statusCode, body: response.json<Envelope<T>>() };
}

async function upload(app: FastifyInstance, session: Session, name: string, bytes: Uint8Array) {
  const boundary = '----postcodeTest';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/tool/postcode/import',
    headers: { ...session.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return { status: response.statusCode, body: response.json<Envelope<{ dataset: PostcodeDataset }>>() };
}

/** The post's file of these offices, as the DBF and as the zip the post publishes. */
async function pindxFile(offices: readonly PostOffice[]): Promise<{ dbf: Uint8Array; zip: Uint8Array }> {
  const dir = await mkdtemp(join(tmpdir(), 'pindx-test-'));
  try {
    await writePindx(join(dir, 'PIndx01.dbf'), offices);
    const dbf = new Uint8Array(await readFile(join(dir, 'PIndx01.dbf')));
    return { dbf, zip: zipSync({ 'PIndx01.dbf': dbf }) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const office = (index: string, city: string): PostOffice => ({
  index,
  name: `${city} ${index.slice(-2)}`,
  type: 'ОПС',
  parent: '',
  region: 'ТЕСТОВАЯ ОБЛАСТЬ',
  autonomous: '',
  area: '',
  city,
  settlement: '',
  changed: '2026-10-01',
  previousIndex: '',
});

describe.each(DATABASE_TARGETS)('Russian postcodes ($kind)', (target) => {
  let test: TestApp;
  let admin: Session;
  let seller: Session;
  beforeEach(async () => {
    test = await startTestApp(target, { app: { tools: { refreshEveryMs: 0 } } });
    admin = await login(test.app, 'admin', 'admin123');
    seller = await login(test.app, 'seller', 'seller123');
  });
  afterEach(async () => test.close());

  it("loads the post's zip (CP866 DBF), then finds an office by index with its address and hours", async () => {
    const { zip } = await pindxFile(SAMPLE_POSTCODES);
    const loaded = await upload(test.app, admin, 'PIndx01.zip', zip);
    expect(loaded.status).toBe(200);
    expect(loaded.body.data.dataset).toMatchObject({ file: 'PIndx01.zip', rows: SAMPLE_POSTCODES.length, newestChange: '2025-09-01' });

    const { status, body } = await get<LookupAnswer>(test.app, seller, '/api/tool/postcode/lookup?index=101000');
    expect(status).toBe(200);
    expect(body.data.office).toMatchObject({ index: '101000', name: 'МОСКВА ПОЧТАМТ', type: 'ПОЧТАМТ', region: 'МОСКВА' });
    expect(body.data.details?.address).toContain('Мясницкая');
    expect(body.data.details?.hours.find((day) => day.weekday === 1)).toMatchObject({ open: '08:00', close: '22:00' });

    // An index the post renumbered answers the office that has it now.
    const old = await get<LookupAnswer>(test.app, seller, '/api/tool/postcode/lookup?index=142784');
    expect(old.body.data.office).toBeNull();
    expect(old.body.data.renumbered.map((o) => o.index)).toEqual(['108811']);
    expect((await get(test.app, seller, '/api/tool/postcode/lookup?index=10100')).status).toBe(400);
  });

  it('searches by place words in any order and by street through the post-office service', async () => {
    await upload(test.app, admin, 'PIndx01.dbf', (await pindxFile(SAMPLE_POSTCODES)).dbf);
    const moscowRegion = await get<PostcodeSearchAnswer>(test.app, seller, `/api/tool/postcode/search?q=${encodeURIComponent('область московская')}`);
    expect(moscowRegion.body.data.offices.map((o) => o.city).sort()).toEqual(['ПОДОЛЬСК', 'РЕУТОВ', 'ХИМКИ']);
    const street = await get<PostcodeSearchAnswer>(test.app, seller, `/api/tool/postcode/search?q=${encodeURIComponent('Мясницкая 26')}`);
    expect(street.body.data.byAddress.map((o) => o.index)).toEqual(['101000']);
    expect(street.body.data.addressProblem).toBeNull();
    test.app.integrations.pochta.simulator!.down = true;
    const down = await get<PostcodeSearchAnswer>(test.app, seller, `/api/tool/postcode/search?q=${encodeURIComponent('Казань')}`);
    expect(down.body.data).toMatchObject({ addressProblem: 'unavailable', total: 1 });
    expect(down.body.data.offices[0]!.index).toBe('420111');
    const detailsDown = await get<LookupAnswer>(test.app, seller, '/api/tool/postcode/lookup?index=420111');
    expect(detailsDown.body.data).toMatchObject({ detailsProblem: 'unavailable', details: null });
    expect(detailsDown.body.data.office?.city).toBe('КАЗАНЬ');
  });

  it('refuses a broken file whole, naming the faulty row, and keeps the database it had', async () => {
    await upload(test.app, admin, 'PIndx01.zip', (await pindxFile(SAMPLE_POSTCODES)).zip);
    const broken = await pindxFile([...Array.from({ length: 30 }, (_, i) => office(String(300000 + i), 'НОВЫЙ')), office('12A456', 'ПЛОХОЙ')]);
    const refused = await upload(test.app, admin, 'PIndx02.dbf', broken.dbf);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('row 31: INDEX "12A456" is not six digits');
    const cut = (await pindxFile(SAMPLE_POSTCODES)).dbf.slice(0, 900);
    expect((await upload(test.app, admin, 'PIndx03.dbf', cut)).status).toBe(400);
    expect((await upload(test.app, admin, 'notes.txt', new TextEncoder().encode('hello'))).status).toBe(400);
    const still = await get<PostcodeDataset>(test.app, seller, '/api/tool/postcode/dataset');
    expect(still.body.data).toMatchObject({ file: 'PIndx01.zip', rows: SAMPLE_POSTCODES.length });
    expect((await get<LookupAnswer>(test.app, seller, '/api/tool/postcode/lookup?index=300001')).body.data.office).toBeNull();
  });

  it('replaces the database whole on a new file, and only an administrator may load one', async () => {
    await upload(test.app, admin, 'PIndx01.zip', (await pindxFile(SAMPLE_POSTCODES)).zip);
    expect((await upload(test.app, seller, 'PIndx02.zip', (await pindxFile([office('300001', 'НОВЫЙ')])).zip)).status).toBe(401);
    const next = await upload(test.app, admin, 'PIndx02.zip', (await pindxFile([office('300001', 'НОВЫЙ'), office('300002', 'НОВЫЙ')])).zip);
    expect(next.body.data.dataset).toMatchObject({ file: 'PIndx02.zip', rows: 2 });
    expect((await get<LookupAnswer>(test.app, seller, '/api/tool/postcode/lookup?index=101000')).body.data.office).toBeNull();
    expect((await get<LookupAnswer>(test.app, seller, '/api/tool/postcode/lookup?index=300002')).body.data.office?.city).toBe('НОВЫЙ');
  });
});
