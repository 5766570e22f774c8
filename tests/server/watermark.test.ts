import sharp from 'sharp';
import type { ProductPage, ProductRow } from '../../contract/products';
import type { Store } from '../../contract/store';
import { message } from '../../contract/errors';
import { WATERMARK_MESSAGES, WATERMARK_PICTURE_RETENTION_DAYS, WATERMARK_PICTURES_CAP, type WatermarkJob, type WatermarkJobDetail, type WatermarkSettingsInput, type WatermarkTemplate } from '../../contract/watermark';
import type { WatermarkJobs } from '../../server/areas/edit/watermarkJobs';
import { capParams, type PictureCleanup } from '../../server/areas/products/pictures';
import { multipart } from '../support/multipart';
import { orgMembers, orgRoles, users } from '../../server/db/schema';
import { hashPassword } from '../../server/areas/session/passwords';
import { newPasswordStamp } from '../../server/areas/session/service';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

type Envelope<T> = { code: number; msg: string; data: T };

const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 4, background } }).png().toBuffer();
/** The RGB of one pixel of an encoded image. */
async function pixel(bytes: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}
const isRed = ([r, g, b]: [number, number, number]) => r > 240 && g < 15 && b < 15;

describe.each(DATABASE_TARGETS)('watermarks on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let storeId: number;
  /** The picture after which the next run stops as a crashed server would (its id), or null. */
  let crashAfter: ((itemId: number) => boolean) | null = null;
  let jobs!: WatermarkJobs;
  let cleanup!: PictureCleanup;

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: {
        marketplace: { simulatorOptions: { ordersPerShop: 10, productsPerShop: 8, control: { taskDelayMs: 0 } } },
        products: { reuploadIntervalMs: 0, pictureCleanupIntervalMs: 0, onPictureCleanup: (c) => (cleanup = c) },
        edit: {
          resumeIntervalMs: 0,
          onJobs: (runner) => (jobs = runner),
          afterPicture: (itemId) => {
            if (crashAfter?.(itemId)) {
              crashAfter = null;
              throw new Error('simulated crash');
            }
          },
        },
      },
    });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const added = await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' });
    storeId = added.body.data.id;
    await t.app.sync.runShop(storeId, ['products']);
  });
  afterAll(() => t.close());

  const get = <T>(url: string, session: Session = seller) =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json<Envelope<T>>(), raw: r }));
  const post = <T>(url: string, payload: unknown, session: Session = seller) =>
    t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object }).then((r) => ({ status: r.statusCode, body: r.json<Envelope<T>>(), raw: r }));
  async function saveTemplate(settings: Partial<WatermarkSettingsInput> & { name: string; kind: 'text' | 'image' }, file: Buffer | null = null, session: Session = seller, id?: number) {
    const { payload, contentType } = multipart({ settings: JSON.stringify(settings), ...(id ? { id: String(id) } : {}) }, file && { name: 'mark.png', bytes: file, type: 'image/png' });
    const response = await t.app.inject({ method: 'POST', url: '/api/waterMarker/upload', headers: { ...session.headers, 'content-type': contentType }, payload });
    return { status: response.statusCode, body: response.json<Envelope<WatermarkTemplate>>() };
  }
  const products = async () => (await get<ProductPage>(`/api/ozonProduct/list?storeId=${storeId}&rows=50`)).body.data.list;
  const simProduct = (row: ProductRow) => t.app.marketplace.simulator!.shops.get('1001')!.productById.get(Number(row.productId))!;
  async function runToEnd(job: WatermarkJob): Promise<WatermarkJobDetail> {
    await jobs.settled();
    return (await get<WatermarkJobDetail>(`/api/waterMarker/job?id=${job.id}`)).body.data;
  }
  const redMark = (over: Partial<WatermarkSettingsInput> = {}) => ({ name: '红色角标', kind: 'image' as const, position: 'bottom-right' as const, opacity: 1, scale: 0.25, margin: 0.05, ...over });

  it('keeps templates per owner: saves a picture and a text template, replaces one, deletes it; others see none of them', async () => {
    const picture = await saveTemplate(redMark(), await solid(120, 60, '#ff0000'));
    expect(picture.status).toBe(200);
    expect(picture.body.data).toMatchObject({ name: '红色角标', kind: 'image', position: 'bottom-right', opacity: 1, hasPicture: true });
    const text = await saveTemplate({ name: '店名', kind: 'text', text: '义乌小店 Магазин', position: 'center', opacity: 0.4 });
    expect(text.body.data).toMatchObject({ kind: 'text', text: '义乌小店 Магазин', hasPicture: false, scale: 0.3, tile: false });
    // Replaced without a new file: a picture template keeps its picture.
    const moved = await saveTemplate({ ...redMark(), position: 'top-left' }, null, seller, picture.body.data.id);
    expect(moved.body.data).toMatchObject({ id: picture.body.data.id, position: 'top-left', hasPicture: true });
    const back = await t.app.inject({ method: 'GET', url: `/api/waterMarker/picture/${picture.body.data.id}`, headers: seller.headers });
    expect((await sharp(back.rawPayload).metadata()).width).toBe(120);

    const admin = await login(t.app, 'admin', 'admin123');
    expect((await get<{ list: WatermarkTemplate[] }>('/api/waterMarker/list', admin)).body.data.list).toEqual([]);
    expect((await post('/api/waterMarker/delete', { id: text.body.data.id }, admin)).status).toBe(404);
    expect((await saveTemplate({ name: 'x', kind: 'text', text: 'x' }, null, admin, text.body.data.id)).status).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/waterMarker/picture/${picture.body.data.id}`, headers: admin.headers })).statusCode).toBe(404);

    expect((await post('/api/waterMarker/delete', { id: text.body.data.id })).status).toBe(200);
    const list = (await get<{ list: WatermarkTemplate[] }>('/api/waterMarker/list')).body.data.list;
    expect(list.map((x) => x.id)).toEqual([picture.body.data.id]);
    const analyst = await login(t.app, 'analyst', 'analyst123');
    expect((await get('/api/waterMarker/list', analyst)).status).toBe(401);
    expect((await post('/api/waterMarker/apply', { templateId: picture.body.data.id, shopId: storeId }, analyst)).status).toBe(401);
  });

  it('refuses, with the reason, a picture template without a picture or with a file that is not one, text without text, and bad settings', async () => {
    expect((await saveTemplate(redMark())).body).toMatchObject({ code: 400, msg: WATERMARK_MESSAGES.pictureNeeded.zh });
    const notPicture = await saveTemplate(redMark(), Buffer.from('GIF89a not really'));
    expect(notPicture.body).toMatchObject({ code: 400, msg: WATERMARK_MESSAGES.pictureNotImage.zh });
    expect((await saveTemplate(redMark(), await solid(8, 8, '#f00'))).body.msg).toBe(WATERMARK_MESSAGES.pictureBadSize.zh);
    expect((await saveTemplate({ name: 't', kind: 'text', text: '  ' })).body.msg).toBe(WATERMARK_MESSAGES.textNeeded.zh);
    const opacity = await saveTemplate({ ...redMark(), opacity: 3 }, await solid(40, 40, '#f00'));
    expect(opacity.body.code).toBe(400);
    expect(opacity.body.msg).toMatch(/^settings\.opacity/);
  });

  it('previews a product picture with the watermark where the template puts it', async () => {
    const template = (await saveTemplate(redMark({ position: 'top-left', scale: 0.25, margin: 0.05 }), await solid(100, 100, '#ff0000'))).body.data;
    const [row] = await products();
    const response = await t.app.inject({ method: 'POST', url: '/api/waterMarker/preview', headers: seller.headers, payload: { templateId: template.id, productId: row!.id } });
    expect(response.statusCode).toBe(200);
    const bytes = response.rawPayload;
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 800, height: 800 });
    // 800 px wide: the mark is 200 px, 40 px from the top-left corner.
    expect(isRed(await pixel(bytes, 41, 41))).toBe(true);
    expect(isRed(await pixel(bytes, 238, 238))).toBe(true);
    expect(isRed(await pixel(bytes, 38, 38))).toBe(false);
    expect(isRed(await pixel(bytes, 242, 242))).toBe(false);
    expect(isRed(await pixel(bytes, 600, 600))).toBe(false);
  });

  it('watermarks every picture of the chosen products, keeps the originals, and puts the results on the Ozon cards', async () => {
    const template = (await saveTemplate(redMark({ name: 'apply', position: 'bottom-right' }), await solid(100, 100, '#ff0000'))).body.data;
    const chosen = (await products()).slice(0, 3);
    const originals = chosen.map((row) => [...simProduct(row).images]);
    const started = await post<WatermarkJob>('/api/waterMarker/apply', { templateId: template.id, shopId: storeId, productIds: chosen.map((row) => row.id) });
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ state: 'running', products: 3, kind: 'watermark' });
    const detail = await runToEnd(started.body.data);
    const pictures = originals.flat().length;
    expect(detail.job).toMatchObject({ state: 'done', pictures, picturesDone: pictures, picturesFailed: 0, productsSent: 3, productsFailed: 0 });
    const byId = new Map(detail.products.map((product) => [product.productId, product]));
    expect([...byId.keys()].sort()).toEqual(chosen.map((row) => row.id).sort());
    for (const [k, row] of chosen.entries()) {
      const product = byId.get(row.id)!;
      expect(product.send).toBe('sent');
      const outputs = product.pictures.map((p) => p.output!);
      // Ozon's card now carries the watermarked pictures, in the card's order, and Ozon's answer is kept.
      expect(simProduct(chosen[k]!).images).toEqual(outputs);
      expect(product.ozon.map((p) => p.url)).toEqual(outputs);
      expect(product.ozon.every((p) => p.state === 'imported')).toBe(true);
      expect(product.pictures.map((p) => p.source)).toEqual(originals[k]!.map((name) => `http://localhost:80/sim/ozon/assets/img/${name.slice('local:'.length)}.png`));
    }
    // The made picture is public (Ozon fetches it without a session) and has the mark bottom-right.
    const first = new URL(detail.products[0]!.pictures[0]!.output!);
    const fetched = await t.app.inject({ method: 'GET', url: first.pathname });
    expect(fetched.statusCode).toBe(200);
    expect(isRed(await pixel(fetched.rawPayload, 800 - 40 - 2, 800 - 40 - 2))).toBe(true);
    expect(isRed(await pixel(fetched.rawPayload, 800 - 40 - 198, 800 - 40 - 198))).toBe(true);
    expect(isRed(await pixel(fetched.rawPayload, 800 - 38, 800 - 38))).toBe(false);
    expect(isRed(await pixel(fetched.rawPayload, 300, 300))).toBe(false);
    // The product list shows the new main picture.
    const listed = (await products()).find((row) => row.id === chosen[0]!.id)!;
    expect(listed.image).toBe(byId.get(listed.id)!.pictures[0]!.output);

    // A second job over the same cards starts from the originals, not from the watermarked pictures.
    const again = await runToEnd((await post<WatermarkJob>('/api/waterMarker/apply', { templateId: template.id, shopId: storeId, productIds: [chosen[0]!.id], send: false })).body.data);
    expect(again.products[0]!.pictures.map((p) => p.source)).toEqual(byId.get(chosen[0]!.id)!.pictures.map((p) => p.source));
    expect(again.products[0]).toMatchObject({ send: 'skipped', sendMessage: WATERMARK_MESSAGES.notSent.zh });

    // Restoring puts the originals back on the cards.
    const restored = await runToEnd((await post<WatermarkJob>('/api/waterMarker/restore', { id: started.body.data.id })).body.data);
    expect(restored.job).toMatchObject({ kind: 'restore', state: 'done', productsSent: 3 });
    // The card holds its own pictures again, exactly as before the job (the simulator takes its own links back).
    for (const [k, row] of chosen.entries()) expect(simProduct(row).images).toEqual(originals[k]);

    const admin = await login(t.app, 'admin', 'admin123');
    expect((await get(`/api/waterMarker/job?id=${started.body.data.id}`, admin)).status).toBe(404);
    expect((await post('/api/waterMarker/apply', { templateId: template.id, shopId: storeId }, admin)).status).toBe(404);
  });

  it("refuses a member outside the shop: no preview of its products, no job on it, none of its jobs seen or restored", async () => {
    // A member of the seller's organisation with the image tools, scoped to none of the seller's shops.
    const db = t.database.db;
    const [role] = await db.insert(orgRoles).values({ orgId: seller.id, name: 'designer', permissions: ['editImage:view', 'editImage:edit'], dataScope: 'shops', shopIds: [] }).returning();
    const [user] = await db
      .insert(users)
      .values({ username: 'designer1', passwordHash: await hashPassword('designer123'), passwordStamp: newPasswordStamp(), isAp: true, relativeId: seller.id })
      .returning();
    await db.insert(orgMembers).values({ userId: user!.id, orgId: seller.id, roleId: role!.id });
    const designer = await login(t.app, 'designer1', 'designer123');
    const template = (await get<{ list: WatermarkTemplate[] }>('/api/waterMarker/list')).body.data.list[0]!;
    const [row] = await products();
    const [job] = (await get<{ list: WatermarkJob[] }>('/api/waterMarker/jobs')).body.data.list;
    expect(job).toBeDefined();

    const preview = await post('/api/waterMarker/preview', { templateId: template.id, productId: row!.id }, designer);
    expect(preview.status).toBe(404);
    expect(preview.body.msg).toBe(WATERMARK_MESSAGES.productNotFound.zh);
    expect((await post('/api/waterMarker/apply', { templateId: template.id, shopId: storeId, productIds: [row!.id] }, designer)).status).toBe(401);
    expect((await get<{ list: WatermarkJob[] }>('/api/waterMarker/jobs', designer)).body.data.list).toEqual([]);
    expect((await get(`/api/waterMarker/job?id=${job!.id}`, designer)).status).toBe(404);
    expect((await post('/api/waterMarker/restore', { id: job!.id }, designer)).status).toBe(404);
    // The owner still sees the job.
    expect((await get(`/api/waterMarker/job?id=${job!.id}`)).status).toBe(200);
  });

  it('resumes a job after a crash mid-run: every picture made exactly once, every card sent', async () => {
    const template = (await saveTemplate({ name: 'tile', kind: 'text', text: '义乌 Ozon', tile: true, opacity: 0.5 })).body.data;
    let seen = 0;
    crashAfter = () => ++seen === 3;
    const started = (await post<WatermarkJob>('/api/waterMarker/apply', { templateId: template.id, shopId: storeId })).body.data;
    await jobs.settled();
    // Stopped after its third picture: three done with their pictures stored, the rest untouched, no card sent.
    const stopped = (await get<WatermarkJobDetail>(`/api/waterMarker/job?id=${started.id}`)).body.data;
    expect(stopped.job).toMatchObject({ state: 'running', picturesDone: 3, picturesFailed: 0, productsSent: 0 });
    const states = stopped.products.flatMap((p) => p.pictures.map((x) => [x.state, x.output === null]));
    expect(states.filter(([state]) => state === 'done').every(([, none]) => none === false)).toBe(true);
    expect(states.filter(([state]) => state === 'pending').every(([, none]) => none === true)).toBe(true);
    const storedBefore = await t.database.query<{ n: number }>(`select count(*)::int as n from edit_images i join watermark_items w on w.image_id = i.id where w.job_id = $1`, [started.id]);
    expect(storedBefore[0]!.n).toBe(3);

    // The server comes back: it takes the job up where it stood.
    await jobs.resumeAll();
    const done = await runToEnd(started);
    expect(done.job).toMatchObject({ state: 'done', picturesDone: started.pictures, productsSent: started.products, productsFailed: 0 });
    const made = await t.database.query<{ source_url: string; n: number }>(
      `select w.source_url, count(i.id)::int as n from watermark_items w left join edit_images i on i.source_url = w.source_url and i.origin = 'watermark' and i.id = w.image_id
       where w.job_id = $1 group by w.source_url`,
      [started.id],
    );
    expect(made).toHaveLength(started.pictures);
    expect(made.every((row) => row.n === 1)).toBe(true);
    const perJob = await t.database.query<{ n: number }>(`select count(*)::int as n from edit_images where origin = 'watermark' and id in (select image_id from watermark_items where job_id = $1)`, [started.id]);
    expect(perJob[0]!.n).toBe(started.pictures);
    const orphans = await t.database.query<{ n: number }>(
      `select count(*)::int as n from edit_images i where i.origin = 'watermark' and not exists (select 1 from watermark_items w where w.image_id = i.id)`,
    );
    expect(orphans[0]!.n).toBe(0);
    // The stored pictures are not in the seller's own image list.
    expect((await get<{ list: unknown[] }>('/api/edit/images')).body.data.list).toEqual([]);
  });

  it('records a picture it cannot make with the reason and leaves that card as it was', async () => {
    const template = (await saveTemplate(redMark({ name: 'bad' }), await solid(60, 60, '#ff0000'))).body.data;
    const [row] = await products();
    const sim = simProduct(row!);
    const before = [...sim.images];
    sim.images = ['local:tiny', ...before.slice(1)];
    // The sync saw the broken picture address: one the server cannot read.
    await t.database.query(`update mp_records set data = jsonb_set(data, '{info,images}', $2::jsonb) where entity = 'products' and external_id = $1`, [
      row!.productId,
      JSON.stringify(['https://127.0.0.1/nothing.png', ...before.slice(1)]),
    ]);
    const detail = await runToEnd((await post<WatermarkJob>('/api/waterMarker/apply', { templateId: template.id, shopId: storeId, productIds: [row!.id] })).body.data);
    expect(detail.products[0]!.pictures[0]).toMatchObject({ state: 'failed', message: WATERMARK_MESSAGES.pictureFetchFailed.zh, output: null });
    expect(detail.products[0]).toMatchObject({ send: 'failed', sendMessage: WATERMARK_MESSAGES.picturesFailed.zh });
    expect(sim.images[0]).toBe('local:tiny');
  });

  describe('made pictures: the cap and the cleanup', () => {
    /** Made pictures stored as if by earlier jobs (a few bytes each, `size` as given), linked to no job. */
    const fill = (count: number, size: number) =>
      t.database.query(
        `insert into edit_images (user_id, name, content_type, width, height, size, bytes, created_at, origin, public_token)
         select $1, 'filler.jpg', 'image/jpeg', 800, 800, $3, '\\x00'::bytea, now(), 'watermark', 'filler' || g || md5(random()::text) from generate_series(1, $2) g`,
        [seller.id, count, size],
      );
    const made = async () => Number((await t.database.query<{ n: number }>(`select count(*)::int as n from edit_images where user_id = $1 and origin = 'watermark'`, [seller.id]))[0]!.n);
    afterEach(() => t.database.query(`delete from edit_images where user_id = $1 and origin = 'watermark' and name = 'filler.jpg'`, [seller.id]));

    it('refuses a job whose pictures pass the cap, naming what it needs and what is left; a picture past the size cap fails with the reason', async () => {
      const template = (await saveTemplate({ name: 'cap', kind: 'text', text: 'CAP' })).body.data;
      const [row] = await products();
      const pictures = simProduct(row!).images.length;
      expect(pictures).toBeGreaterThan(1);
      // Room for one picture fewer than the product has.
      await fill(WATERMARK_PICTURES_CAP.count - (await made()) - (pictures - 1), 1);
      const before = await made();
      const refused = await post<WatermarkJob>('/api/waterMarker/apply', { templateId: template.id, shopId: storeId, productIds: [row!.id] });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe(message('watermarkPicturesShort', 'zh', { ...capParams('watermark'), need: String(pictures), left: String(pictures - 1) }));
      expect(refused.body.msg).toContain('最多10000张、共2 GB');
      const inEnglish = await t.app.inject({ method: 'POST', url: '/api/waterMarker/apply', headers: { ...seller.headers, 'accept-language': 'en' }, payload: { templateId: template.id, shopId: storeId, productIds: [row!.id] } });
      expect(inEnglish.json<Envelope<null>>().msg).toContain(`would make ${pictures} watermarked pictures, but only ${pictures - 1} more fit`);
      expect(await made()).toBe(before);
      expect((await get<{ list: WatermarkJob[] }>('/api/waterMarker/jobs')).body.data.list.some((job) => job.templateName === 'cap')).toBe(false);

      // Room by count, but the stored pictures already fill the size cap: each picture fails with the reason, no card is sent.
      await t.database.query(`delete from edit_images where user_id = $1 and origin = 'watermark' and name = 'filler.jpg'`, [seller.id]);
      await fill(1, WATERMARK_PICTURES_CAP.bytes - 10);
      const cardBefore = [...simProduct(row!).images];
      const detail = await runToEnd((await post<WatermarkJob>('/api/waterMarker/apply', { templateId: template.id, shopId: storeId, productIds: [row!.id] })).body.data);
      const full = message('watermarkPicturesFull', 'zh', capParams('watermark'));
      expect(detail.job).toMatchObject({ state: 'done', picturesDone: 0, picturesFailed: pictures, productsSent: 0 });
      expect(detail.products[0]!.pictures.every((p) => p.state === 'failed' && p.message === full && p.output === null)).toBe(true);
      expect(detail.products[0]).toMatchObject({ send: 'failed', sendMessage: WATERMARK_MESSAGES.picturesFailed.zh });
      expect(simProduct(row!).images).toEqual(cardBefore);
      expect(full).toContain(`${WATERMARK_PICTURE_RETENTION_DAYS}天后自动清理`);
    });

    it('removes, after the retention period, the made pictures no card and no running job refers to', async () => {
      const template = (await saveTemplate({ name: 'cleanup', kind: 'text', text: 'OLD' })).body.data;
      const [sent, unsent] = (await products()).slice(-2);
      // One job puts its pictures on a card; another only makes them.
      const onCard = await runToEnd((await post<WatermarkJob>('/api/waterMarker/apply', { templateId: template.id, shopId: storeId, productIds: [sent!.id] })).body.data);
      const kept = onCard.products[0]!.pictures.map((p) => p.output!);
      expect(onCard.products[0]!.send).toBe('sent');
      const onlyMade = await runToEnd((await post<WatermarkJob>('/api/waterMarker/apply', { templateId: template.id, shopId: storeId, productIds: [unsent!.id], send: false })).body.data);
      const loose = onlyMade.products[0]!.pictures.map((p) => p.output!);
      expect(loose.length).toBeGreaterThan(1);
      const imagesOf = (jobId: number) => t.database.query<{ id: number }>(`select image_id as id from watermark_items where job_id = $1 and image_id is not null`, [jobId]);
      const age = async (jobId: number, days: number) =>
        t.database.query(`update edit_images set created_at = $2::timestamptz - ($3 || ' days')::interval where id = any($1::int[])`, [
          (await imagesOf(jobId)).map((r) => r.id),
          t.clock.now().toISOString(),
          String(days),
        ]);
      await age(onCard.job.id, WATERMARK_PICTURE_RETENTION_DAYS + 10);
      await age(onlyMade.job.id, WATERMARK_PICTURE_RETENTION_DAYS + 1);
      // While its job still counts as running, the made pictures wait to be sent: they stay.
      await t.database.query(`update watermark_jobs set state = 'running' where id = $1`, [onlyMade.job.id]);
      expect(await cleanup.tick()).toBe(0);
      await t.database.query(`update watermark_jobs set state = 'done' where id = $1`, [onlyMade.job.id]);
      // A recent one stays too, however unused.
      await t.database.query(`update edit_images set created_at = $2::timestamptz - ($3 || ' days')::interval where public_token = $1`, [
        new URL(loose[0]!).pathname.split('/').pop()!.replace(/\.(png|jpg)$/, ''),
        t.clock.now().toISOString(),
        String(WATERMARK_PICTURE_RETENTION_DAYS - 1),
      ]);
      expect(await cleanup.tick()).toBe(loose.length - 1);
      const status = async (url: string) => (await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode;
      expect(await status(loose[0]!)).toBe(200);
      for (const url of loose.slice(1)) expect(await status(url)).toBe(404);
      // The card's pictures are still served: Ozon and the product list still show them.
      for (const url of kept) expect(await status(url)).toBe(200);
      expect(simProduct(sent!).images).toEqual(kept);
    });
  });
});
