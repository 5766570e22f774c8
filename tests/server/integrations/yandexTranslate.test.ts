import Fastify from 'fastify';
import { createYandexTranslateClient, TranslateUnavailable } from '../../../server/integrations/translate/yandex';
import { createTranslateSimulator, SIM_YANDEX_TRANSLATE_KEY, translateSimulatorPlugin } from '../../../server/integrations/translate/simulator';
import { injectFetch } from '../../../server/marketplace/simulator/injectFetch';

async function setup(apiKey = SIM_YANDEX_TRANSLATE_KEY) {
  const simulator = createTranslateSimulator();
  const app = Fastify();
  await app.register(translateSimulatorPlugin, { simulator, prefix: '/sim/yt' });
  const client = createYandexTranslateClient({ baseUrl: 'http://translate.test/sim/yt', apiKey, folderId: 'b1gexamplefolder0001', fetch: injectFetch(app) });
  return { app, simulator, client };
}

describe('Yandex Translate v2: client against its simulator', () => {
  it("sends the service's request and reads its answer in order", async () => {
    const { app, client } = await setup();
    expect(await client.translate(['Спасибо, всё отлично!', 'Платье летнее, розовый'], 'ru', 'zh')).toEqual(['谢谢，一切都很好！', '夏季连衣裙, 粉色']);
    // The wire format itself, as Yandex documents it: camel-case codes, a texts list, translations with detection.
    const raw = await app.inject({
      method: 'POST',
      url: '/sim/yt/translate/v2/translate',
      headers: { authorization: `Api-Key ${SIM_YANDEX_TRANSLATE_KEY}` },
      payload: { targetLanguageCode: 'ru', texts: ['谢谢'] },
    });
    expect(raw.json()).toEqual({ translations: [{ text: 'Спасибо', detectedLanguageCode: 'zh' }] });
  });

  it('turns a wrong key, a refused request and a down service into TranslateUnavailable with the reason', async () => {
    const wrong = await setup('AQVN-wrong');
    await expect(wrong.client.translate(['Спасибо'], 'ru', 'zh')).rejects.toMatchObject({ reason: 'refused', message: expect.stringContaining('Unknown api key') });
    const { client, simulator } = await setup();
    await expect(client.translate(['я'.repeat(10_001)], 'ru', 'zh')).rejects.toMatchObject({ reason: 'refused', message: expect.stringContaining('10000') });
    simulator.down = true;
    const error = await client.translate(['Спасибо'], 'ru', 'zh').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranslateUnavailable);
    expect(error).toMatchObject({ reason: 'unreachable', message: expect.stringContaining('HTTP 503') });
  });

  it('reads an answer with the wrong number of translations as a format failure', async () => {
    const client = createYandexTranslateClient({
      baseUrl: 'http://translate.test',
      apiKey: 'k',
      fetch: (async () => new Response(JSON.stringify({ translations: [{ text: 'a' }] }), { status: 200 })) as typeof fetch,
    });
    await expect(client.translate(['один', 'два'], 'ru', 'zh')).rejects.toMatchObject({ reason: 'format' });
  });
});
