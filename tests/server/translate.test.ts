import type { FastifyInstance } from 'fastify';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';
import { TRANSLATE_ENDPOINTS, type TranslateAnswer } from '../../contract/translate';
import { routePaths } from '../../contract/endpoint';
import { SIMULATOR_GUESS_MARK } from '../../server/integrations/translate/simulator';

type Envelope<T> = { code: number; msg: string; data: T };
const P = routePaths(TRANSLATE_ENDPOINTS);

async function post<T>(app: FastifyInstance, session: Session, url: string, payload: unknown, lang = 'zh-CN') {
  const response = await app.inject({ method: 'POST', url, payload: payload as object, headers: { ...session.headers, 'accept-language': lang } });
  return { status: response.statusCode, body: response.json<Envelope<T>>() };
}

describe.each(DATABASE_TARGETS)('translation ($kind)', (target) => {
  let test: TestApp;
  let seller: Session;
  beforeEach(async () => {
    test = await startTestApp(target);
    seller = await login(test.app, 'seller', 'seller123');
  });
  afterEach(async () => test.close());
  const simulator = () => {
    const sim = test.app.integrations.translate.simulator;
    if (!sim) throw new Error('no translation simulator');
    return sim;
  };

  it("translates a buyer's Russian into Chinese, and a repeat costs no provider call", async () => {
    const texts = ['Здравствуйте! Когда отправите заказ?', 'Беспроводные наушники Baseus X12, черный', 'X12'];
    const first = await post<TranslateAnswer>(test.app, seller, P.chat, { texts, to: 'zh' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ translations: ['您好！请问什么时候发货？', '无线耳机 Baseus X12, 黑色', 'X12'], from: 'ru', to: 'zh', provider: 'simulator', cached: 0 });
    expect(simulator().calls).toBe(1);
    // Only the two Russian texts were sent: a model code has nothing to translate.
    expect(simulator().chars).toBe(texts[0]!.length + texts[1]!.length);

    // The product page asks for one of them again: answered from the store, with the provider not called.
    const again = await post<TranslateAnswer>(test.app, seller, P.products, { texts: [texts[1]], to: 'zh' });
    expect(again.body.data).toMatchObject({ translations: ['无线耳机 Baseus X12, 黑色'], cached: 1 });
    expect(simulator().calls).toBe(1);

    // And the seller's Chinese reply goes the other way.
    const reply = await post<TranslateAnswer>(test.app, seller, P.chat, { texts: ['您好，已经发货了'], to: 'ru' });
    expect(reply.body.data).toMatchObject({ translations: ['Здравствуйте, заказ уже отправлен'], from: 'zh', to: 'ru' });
  });

  it('marks what the simulator guessed, so a seller never takes it for a translation', async () => {
    const { body } = await post<TranslateAnswer>(test.app, seller, P.chat, { texts: ['Куда пропала моя посылка?'], to: 'zh' });
    expect(body.data.translations[0]?.startsWith(SIMULATOR_GUESS_MARK.zh)).toBe(true);
  });

  it('refuses bad input, naming the field, and calls no provider', async () => {
    const cases: [unknown, string, string][] = [
      [{ texts: [], to: 'zh' }, 'texts', '至少'],
      [{ texts: ['Спасибо', '  '], to: 'zh' }, 'texts.1', '不能为空'],
      [{ texts: ['Спасибо'], to: 'en' }, 'to', 'zh'],
      [{ texts: ['я'.repeat(5001)], to: 'zh' }, 'texts.0', '5000'],
      [{ texts: Array.from({ length: 101 }, () => 'Спасибо'), to: 'zh' }, 'texts', '100'],
      [{ texts: Array.from({ length: 5 }, () => 'я'.repeat(4500)), to: 'zh' }, 'texts', '20000'],
      [{ to: 'zh' }, 'texts', '至少'],
    ];
    for (const [payload, field, words] of cases) {
      const { status, body } = await post(test.app, seller, P.chat, payload);
      expect(status, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(body.data).toEqual({ field });
      expect(body.msg).toContain(words);
    }
    expect(simulator().calls).toBe(0);
  });

  it('says the service is down in the reader\'s language, keeps what it had, and works again when it is back', async () => {
    await post(test.app, seller, P.chat, { texts: ['Спасибо, всё отлично!'], to: 'zh' });
    simulator().down = true;
    const down = await post(test.app, seller, P.chat, { texts: ['Спасибо, всё отлично!', 'Товар пришёл с повреждением'], to: 'zh' });
    expect(down.status).toBe(502);
    expect(down.body.msg).toContain('翻译服务暂时无法使用');
    expect(down.body.msg).toContain('503');
    const english = await post(test.app, seller, P.chat, { texts: ['Товар пришёл с повреждением'], to: 'zh' }, 'en');
    expect(english.body.msg).toContain('translation service is unavailable');
    // Stored translations still answer without the provider.
    const stored = await post<TranslateAnswer>(test.app, seller, P.chat, { texts: ['Спасибо, всё отлично!'], to: 'zh' });
    expect(stored.status).toBe(200);
    expect(stored.body.data.translations).toEqual(['谢谢，一切都很好！']);
    simulator().down = false;
    const back = await post<TranslateAnswer>(test.app, seller, P.chat, { texts: ['Спасибо, всё отлично!', 'Товар пришёл с повреждением'], to: 'zh' });
    expect(back.body.data).toMatchObject({ translations: ['谢谢，一切都很好！', '收到的商品有损坏'], cached: 1 });
  });

  it("translates only from the pages the caller's roles open", async () => {
    const analyst = await login(test.app, 'analyst', 'analyst123');
    const newbie = await login(test.app, 'newbie', 'newbie123');
    const body = { texts: ['беспроводные наушники купить'], to: 'zh' };
    const keywords = await post<TranslateAnswer>(test.app, analyst, P.keywords, body);
    expect(keywords.status).toBe(200);
    expect(keywords.body.data.translations).toEqual(['无线耳机 购买']);
    expect((await post(test.app, analyst, P.chat, body)).status).toBe(401);
    expect((await post(test.app, analyst, P.products, body)).status).toBe(401);
    expect((await post(test.app, newbie, P.chat, body)).status).toBe(401);
    expect((await post(test.app, seller, P.keywords, body)).status).toBe(200);
  });
});

describe('translation without a configured provider', () => {
  it('says no translation service is configured', async () => {
    const test = await startTestApp(DATABASE_TARGETS[0]!, { env: { YANDEX_TRANSLATE_URL: 'http://translate.invalid' } });
    try {
      const seller = await login(test.app, 'seller', 'seller123');
      const { status, body } = await post(test.app, seller, P.chat, { texts: ['Спасибо'], to: 'zh' });
      expect(status).toBe(502);
      expect(body.msg).toContain('YANDEX_TRANSLATE_API_KEY');
    } finally {
      await test.close();
    }
  });
});
