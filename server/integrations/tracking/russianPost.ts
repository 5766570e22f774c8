import { XMLParser } from 'fast-xml-parser';
import type { TrackEvent, TrackStatus } from '../../../contract/tracking';
import { below, carrierFetch, CarrierUnavailable, type CarrierAnswer, type CarrierClient } from './types';

/**
 * Russian Post's single-access tracking service (https://tracking.pochta.ru/specification): SOAP 1.2,
 * `getOperationHistory` at `/rtm34`, one number per call, with a login and password from the post. Its answer lists
 * every operation (OperType with OperAttr) with the post office's index and name; a number it does not know answers
 * a fault `OperationHistoryFault`, a wrong login `AuthorizationFault`.
 */

export const RUSSIAN_POST_DEFAULT_URL = 'https://tracking.russianpost.ru';
const NS_SOAP = 'http://www.w3.org/2003/05/soap-envelope';
const NS_OPER = 'http://russianpost.org/operationhistory';
const NS_DATA = 'http://russianpost.org/operationhistory/data';

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function operationHistoryRequest(barcode: string, login: string, password: string, language: 'RUS' | 'ENG'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<soap:Envelope xmlns:soap="${NS_SOAP}" xmlns:oper="${NS_OPER}" xmlns:data="${NS_DATA}">
<soap:Header/>
<soap:Body>
<oper:getOperationHistory>
<data:OperationHistoryRequest><data:Barcode>${escapeXml(barcode)}</data:Barcode><data:MessageType>0</data:MessageType><data:Language>${language}</data:Language></data:OperationHistoryRequest>
<data:AuthorizationHeader soap:mustUnderstand="1"><data:login>${escapeXml(login)}</data:login><data:password>${escapeXml(password)}</data:password></data:AuthorizationHeader>
</oper:getOperationHistory>
</soap:Body>
</soap:Envelope>`;
}

/**
 * The post's operation types (OperType Id) as our statuses; an OperAttr refines a few (a delivery attempt that
 * failed, an arrival at the office for pickup). Unlisted ids are movement.
 */
export function statusOfOperation(type: number, attr: number): TrackStatus {
  switch (type) {
    case 1: // Приём
      return 'infoReceived';
    case 2: // Вручение
      return 'delivered';
    case 3: // Возврат
      return 'returned';
    case 5: // Невручение
    case 12: // Неудачная попытка вручения
      return 'exception';
    case 8: // Обработка: attribute 2 "Прибыло в место вручения"
      return attr === 2 ? 'pickup' : 'inTransit';
    case 16: // Уничтожение
    case 17: // Оформление в собственность
      return 'exception';
    default:
      return 'inTransit';
  }
}

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: true, parseTagValue: false, isArray: (name) => name === 'historyRecord' });

type Parsed = { [key: string]: Parsed | Parsed[] | string | undefined };
const at = (node: unknown, ...path: string[]): unknown => path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Parsed)[key] : undefined), node);
const text = (node: unknown, ...path: string[]) => {
  const value = at(node, ...path);
  return typeof value === 'string' ? value.trim() : '';
};

/** Reads a getOperationHistory answer or fault. Events come out newest first. */
export function parseOperationHistory(xml: string): CarrierAnswer {
  let document: Parsed;
  try {
    document = parser.parse(xml) as Parsed;
  } catch (error) {
    throw new CarrierUnavailable(`Russian Post's answer is not XML: ${(error as Error).message}`, 'format');
  }
  const body = at(document, 'Envelope', 'Body');
  if (!body || typeof body !== 'object') throw new CarrierUnavailable("Russian Post's answer has no SOAP body", 'format');
  const fault = at(body, 'Fault');
  if (fault) {
    const detail = at(fault, 'Detail') ?? {};
    if (at(detail, 'AuthorizationFault') !== undefined) throw new CarrierUnavailable(`Russian Post refused the login: ${text(detail, 'AuthorizationFault')}`, 'refused');
    if (at(detail, 'OperationHistoryFault') !== undefined) return { found: false };
    throw new CarrierUnavailable(`Russian Post answered a fault: ${text(fault, 'Reason', 'Text')}`, 'refused');
  }
  const data = at(body, 'getOperationHistoryResponse', 'OperationHistoryData');
  if (data === undefined) throw new CarrierUnavailable("Russian Post's answer has no OperationHistoryData", 'format');
  const records = (at(data, 'historyRecord') as Parsed[] | undefined) ?? [];
  const events: TrackEvent[] = records.map((record) => {
    const type = Number(text(record, 'OperationParameters', 'OperType', 'Id'));
    const attr = Number(text(record, 'OperationParameters', 'OperAttr', 'Id'));
    const time = text(record, 'OperationParameters', 'OperDate');
    if (!Number.isFinite(Date.parse(time))) throw new CarrierUnavailable(`Russian Post's answer has an unreadable OperDate: ${time.slice(0, 40)}`, 'format');
    const index = text(record, 'AddressParameters', 'OperationAddress', 'Index');
    const place = text(record, 'AddressParameters', 'OperationAddress', 'Description');
    const typeName = text(record, 'OperationParameters', 'OperType', 'Name');
    const attrName = text(record, 'OperationParameters', 'OperAttr', 'Name');
    return {
      time,
      place: [index, place].filter(Boolean).join(' '),
      status: statusOfOperation(type, attr),
      text: attrName && attrName !== typeName ? `${typeName}: ${attrName}` : typeName,
    };
  });
  if (events.length === 0) return { found: false };
  events.sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
  return { found: true, status: events[0]!.status, events };
}

export type RussianPostOptions = { baseUrl: string; login: string; password: string; fetch?: typeof fetch; timeoutMs?: number };

/** One SOAP call per number (single access allows no batch), at most four at a time. */
export function createRussianPostClient(options: RussianPostOptions): CarrierClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  async function one(barcode: string, lang: 'zh' | 'en'): Promise<CarrierAnswer> {
    const response = await carrierFetch(
      doFetch,
      'Russian Post',
      below(options.baseUrl, 'rtm34'),
      {
        method: 'POST',
        headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
        body: operationHistoryRequest(barcode, options.login, options.password, lang === 'zh' ? 'RUS' : 'ENG'),
      },
      timeoutMs,
      // A SOAP fault comes with HTTP 500: the body decides.
      [500],
    );
    return parseOperationHistory(await response.text());
  }
  return {
    async track(numbers, lang) {
      const answers = new Map<string, CarrierAnswer>();
      const queue = [...numbers];
      await Promise.all(
        Array.from({ length: Math.min(4, queue.length) }, async () => {
          for (let number = queue.shift(); number !== undefined; number = queue.shift()) answers.set(number, await one(number, lang));
        }),
      );
      return answers;
    },
  };
}
