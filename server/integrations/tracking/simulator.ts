import type { FastifyInstance } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { TRACK17_NOT_REGISTERED } from './track17';

/**
 * Three tracking services simulated in-process for the demo and the tests, each in its real format: Russian Post's
 * SOAP `getOperationHistory`, Cainiao's `global/detail.json` and 17TRACK's v2.2 JSON API (with its registration).
 * A number's journey is derived from the number itself: the same number always tells the same story, moved on by the
 * clock. Numbers whose last four digits are 0000 (RA123450000RU) are unknown to every service. Each service can be switched down
 * (503) or refusing (a wrong login, a wrong key) and counts its calls, for the tests and the demo.
 */

export const SIM_RUSSIAN_POST_LOGIN = 'demo';
export const SIM_RUSSIAN_POST_PASSWORD = 'demo-password';
export const SIM_TRACK17_KEY = 'demo-17track-key';

type Service = 'russianPost' | 'cainiao' | 'track17';
type Stage = { ru: string; en: string; zh: string; type: number; attr: number; cainiao: string; track17: string; place: [string, string] };

/** A parcel from a Chinese seller to a Russian buyer, stage by stage (Russian Post's operation codes beside). */
const STAGES: Stage[] = [
  { ru: 'Приём', en: 'Acceptance', zh: '已揽收', type: 1, attr: 1, cainiao: 'ACCEPT', track17: 'InfoReceived', place: ['518000', 'Shenzhen'] },
  { ru: 'Экспорт международной почты', en: 'International shipment export', zh: '已出口', type: 10, attr: 0, cainiao: 'TRANSPORT', track17: 'Departure', place: ['200000', 'Shanghai'] },
  { ru: 'Импорт международной почты', en: 'International shipment import', zh: '已进口', type: 9, attr: 0, cainiao: 'TRANSPORT', track17: 'Arrival', place: ['102000', 'Москва'] },
  { ru: 'Таможенное оформление', en: 'Customs clearance', zh: '清关中', type: 14, attr: 1, cainiao: 'CUSTOMS', track17: 'InTransit', place: ['102000', 'Москва'] },
  { ru: 'Обработка: Сортировка', en: 'Processing: Sorting', zh: '分拣中', type: 8, attr: 1, cainiao: 'TRANSPORT', track17: 'InTransit', place: ['140961', 'Подольск'] },
  { ru: 'Обработка: Прибыло в место вручения', en: 'Processing: Arrived at the delivery point', zh: '到达待取', type: 8, attr: 2, cainiao: 'WAIT_SIGN', track17: 'AvailableForPickup', place: ['630099', 'Новосибирск'] },
  { ru: 'Вручение: Вручение адресату', en: 'Delivery: Delivered to the addressee', zh: '已签收', type: 2, attr: 1, cainiao: 'SIGN', track17: 'Delivered', place: ['630099', 'Новосибирск'] },
];
const DAY = 86_400_000;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export type SimEvent = { time: number; stage: Stage };

/**
 * The events of a number's journey up to `now`; empty for an unknown number. Journeys start 1 to 14 days before
 * `epoch` (the simulator's start), one stage every 1 to 2 days, so they move on as the clock does.
 */
export function journeyOf(number: string, now: number, epoch: number): SimEvent[] {
  if (/0000\D*$/.test(number)) return [];
  const h = hash(number);
  const start = epoch - (1 + (h % 14)) * DAY - (h % 997) * 60_000;
  const step = DAY + (h % 24) * 3_600_000;
  const events: SimEvent[] = [];
  STAGES.forEach((stage, i) => {
    const time = start + i * step;
    if (time <= now) events.push({ time, stage });
  });
  return events;
}

/** Moscow time (UTC+3) as Russian Post writes it: 2026-11-20T14:41:00.000+03:00. */
function moscowIso(ms: number): string {
  return `${new Date(ms + 3 * 3_600_000).toISOString().slice(0, 23)}+03:00`;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const soap = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body>${body}</S:Body></S:Envelope>`;
const fault = (code: string, reason: string, detail: string) =>
  soap(
    `<S:Fault><S:Code><S:Value>S:${code}</S:Value></S:Code><S:Reason><S:Text xml:lang="en">${escapeXml(reason)}</S:Text></S:Reason><S:Detail>${detail}</S:Detail></S:Fault>`,
  );

export type TrackingSimulator = {
  /** While down, the service answers 503; while refusing, it turns the login or key away. */
  down: Record<Service, boolean>;
  refusing: Record<Service, boolean>;
  calls: Record<Service, number>;
  registered17: Set<string>;
  /** Where every journey is placed in time: the simulator's start. */
  epoch: number;
};

export function createTrackingSimulator(now: number): TrackingSimulator {
  return {
    epoch: now,
    down: { russianPost: false, cainiao: false, track17: false },
    refusing: { russianPost: false, cainiao: false, track17: false },
    calls: { russianPost: 0, cainiao: 0, track17: 0 },
    registered17: new Set(),
  };
}

const soapParser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true });

function russianPostAnswer(xml: string, now: number, epoch: number, refusing: boolean): { status: number; body: string } {
  let request: Record<string, unknown>;
  try {
    request = soapParser.parse(xml) as Record<string, unknown>;
  } catch {
    return { status: 500, body: fault('Sender', 'Malformed request', '') };
  }
  const call = (request.Envelope as { Body?: { getOperationHistory?: Record<string, Record<string, unknown>> } } | undefined)?.Body?.getOperationHistory;
  const barcode = String(call?.OperationHistoryRequest?.Barcode ?? '').trim().toUpperCase();
  const language = String(call?.OperationHistoryRequest?.Language ?? 'RUS');
  const login = String(call?.AuthorizationHeader?.login ?? '');
  const password = String(call?.AuthorizationHeader?.password ?? '');
  if (refusing || login !== SIM_RUSSIAN_POST_LOGIN || password !== SIM_RUSSIAN_POST_PASSWORD) {
    return { status: 500, body: fault('Sender', 'Authorization error', '<ns2:AuthorizationFault xmlns:ns2="http://russianpost.org/operationhistory/data">Ошибка авторизации</ns2:AuthorizationFault>') };
  }
  const events = journeyOf(barcode, now, epoch);
  if (!barcode || events.length === 0) {
    return { status: 500, body: fault('Sender', 'Operation history not found', '<ns2:OperationHistoryFault xmlns:ns2="http://russianpost.org/operationhistory/data">Не найдено</ns2:OperationHistoryFault>') };
  }
  const records = events
    .map(({ time, stage }) => {
      const [typeName, attrName = ''] = (language === 'ENG' ? stage.en : stage.ru).split(': ');
      return `<ns3:historyRecord><ns3:AddressParameters><ns3:OperationAddress><ns3:Index>${stage.place[0]}</ns3:Index><ns3:Description>${escapeXml(stage.place[1])}</ns3:Description></ns3:OperationAddress></ns3:AddressParameters><ns3:ItemParameters><ns3:Barcode>${escapeXml(barcode)}</ns3:Barcode></ns3:ItemParameters><ns3:OperationParameters><ns3:OperType><ns3:Id>${stage.type}</ns3:Id><ns3:Name>${escapeXml(typeName!)}</ns3:Name></ns3:OperType><ns3:OperAttr><ns3:Id>${stage.attr}</ns3:Id><ns3:Name>${escapeXml(attrName)}</ns3:Name></ns3:OperAttr><ns3:OperDate>${moscowIso(time)}</ns3:OperDate></ns3:OperationParameters></ns3:historyRecord>`;
    })
    .join('');
  return {
    status: 200,
    body: soap(`<ns7:getOperationHistoryResponse xmlns:ns7="http://russianpost.org/operationhistory"><ns3:OperationHistoryData xmlns:ns3="http://russianpost.org/operationhistory/data">${records}</ns3:OperationHistoryData></ns7:getOperationHistoryResponse>`),
  };
}

function cainiaoModule(number: string, now: number, epoch: number, lang: string) {
  const events = journeyOf(number, now, epoch);
  const latest = events[events.length - 1];
  return {
    mailNo: number,
    originCountry: 'China',
    destCountry: 'Russia',
    status: latest ? latest.stage.cainiao : 'NOT_FOUND',
    statusDesc: latest ? (lang === 'zh-CN' ? latest.stage.zh : latest.stage.en) : '',
    detailList: events
      .map(({ time, stage }) => ({
        time,
        timeStr: new Date(time).toISOString().replace('T', ' ').slice(0, 19),
        timeZone: 'GMT+8',
        status: stage.cainiao,
        desc: `[${stage.place[1]}] ${lang === 'zh-CN' ? stage.zh : stage.en}`,
        standerdDesc: `[${stage.place[1]}] ${lang === 'zh-CN' ? stage.zh : stage.en}`,
      }))
      .reverse(),
  };
}

function track17Info(number: string, now: number, epoch: number) {
  const events = journeyOf(number, now, epoch);
  const latest = events[events.length - 1];
  return {
    number,
    carrier: 3011,
    track_info: {
      latest_status: { status: latest ? latest.stage.track17 : 'NotFound', sub_status: latest ? `${latest.stage.track17}_Other` : 'NotFound_Other' },
      tracking: {
        providers: [
          {
            provider: { key: 3011, name: 'China Post' },
            events: events
              .map(({ time, stage }) => ({ time_iso: moscowIso(time), time_utc: new Date(time).toISOString(), description: stage.en, location: stage.place[1], stage: stage.track17 }))
              .reverse(),
          },
        ],
      },
    },
  };
}

export async function trackingSimulatorPlugin(app: FastifyInstance, options: { simulator: TrackingSimulator; now: () => number }) {
  const sim = options.simulator;
  app.addContentTypeParser(['application/soap+xml', 'text/xml'], { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post<{ Body: string }>('/russianpost/rtm34', async (request, reply) => {
    sim.calls.russianPost++;
    if (sim.down.russianPost) return reply.code(503).type('text/html').send('<html><body>Service Unavailable</body></html>');
    const { status, body } = russianPostAnswer(String(request.body ?? ''), options.now(), sim.epoch, sim.refusing.russianPost);
    return reply.code(status).type('application/soap+xml; charset=utf-8').send(body);
  });

  app.get<{ Querystring: { mailNos?: string; lang?: string } }>('/cainiao/global/detail.json', async (request, reply) => {
    sim.calls.cainiao++;
    if (sim.down.cainiao) return reply.code(503).send({ success: false });
    if (sim.refusing.cainiao) return reply.code(429).send({ success: false, errorCode: 'FLOW_CONTROL' });
    const numbers = String(request.query.mailNos ?? '').split(',').map((n) => n.trim().toUpperCase()).filter(Boolean);
    if (numbers.length === 0 || numbers.length > 10) return reply.send({ success: false, errorCode: 'PARAM_ERROR', module: [] });
    return reply.send({ success: true, module: numbers.map((number) => cainiaoModule(number, options.now(), sim.epoch, request.query.lang ?? 'en-US')) });
  });

  const track17 = (path: 'gettrackinfo' | 'register') =>
    app.post<{ Body: unknown }>(`/17track/track/v2.2/${path}`, async (request, reply) => {
      sim.calls.track17++;
      if (sim.down.track17) return reply.code(503).send('Service Unavailable');
      if (sim.refusing.track17 || request.headers['17token'] !== SIM_TRACK17_KEY) {
        return reply.code(401).send({ code: -18010002, data: { errors: [{ code: -18010002, message: 'Access token is invalid.' }] } });
      }
      const items = Array.isArray(request.body) ? (request.body as { number?: unknown }[]) : null;
      if (!items || items.length === 0 || items.length > 40) {
        return reply.send({ code: -18010013, data: { errors: [{ code: -18010013, message: 'Submitted data is invalid.' }] } });
      }
      const accepted: unknown[] = [];
      const rejected: unknown[] = [];
      for (const item of items) {
        const number = String(item.number ?? '').trim().toUpperCase();
        if (path === 'register') {
          sim.registered17.add(number);
          accepted.push({ number, carrier: 3011, origin: 1 });
        } else if (!sim.registered17.has(number)) {
          rejected.push({ number, error: { code: TRACK17_NOT_REGISTERED, message: `The tracking number '${number}' does not register, please register first.` } });
        } else {
          accepted.push(track17Info(number, options.now(), sim.epoch));
        }
      }
      return reply.send({ code: 0, data: { accepted, rejected } });
    });
  track17('gettrackinfo');
  track17('register');
}
