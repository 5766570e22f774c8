import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { aliyunSignature, ALIYUN_SMS_VERSION, type AliyunAnswer } from './aliyun';

/**
 * Aliyun SMS simulated for the demo and the tests: GET / with SendSms's RPC parameters, checked as Aliyun checks
 * them (the AccessKey, the HMAC-SHA1 signature, a fresh timestamp and nonce, the version, the phone number and the
 * template's parameters as JSON), answered in Aliyun's JSON (Code "OK", RequestId, BizId, or an error code). What
 * it accepted is kept in `received`, as a phone would have it.
 */
export const SIM_SMS_ACCESS_KEY_ID = 'LTAI5tSimulatorKey0001';
export const SIM_SMS_ACCESS_KEY_SECRET = 'simulator-secret-0001';

export type ReceivedSms = { phone: string; signName: string; template: string; params: Record<string, string>; text: string; at: number; bizId: string };
export type SmsSimulator = { received: ReceivedSms[]; accounts: Map<string, string> };

export function createSmsSimulator(): SmsSimulator {
  return { received: [], accounts: new Map([[SIM_SMS_ACCESS_KEY_ID, SIM_SMS_ACCESS_KEY_SECRET]]) };
}

const SKEW_MS = 15 * 60 * 1000;

export async function smsSimulatorPlugin(app: FastifyInstance, options: { simulator: SmsSimulator; now: () => number; onSms?: (sms: ReceivedSms) => void }) {
  const sim = options.simulator;
  const nonces = new Set<string>();
  app.get('/', async (request, reply) => {
    const params = Object.fromEntries(Object.entries(request.query as Record<string, unknown>).map(([key, value]) => [key, String(Array.isArray(value) ? value[0] : value)]));
    const requestId = randomUUID().toUpperCase();
    const fail = (status: number, code: string, message: string) => reply.code(status).send({ Code: code, Message: message, RequestId: requestId } satisfies AliyunAnswer);
    for (const key of ['AccessKeyId', 'Action', 'Signature', 'SignatureMethod', 'SignatureNonce', 'SignatureVersion', 'Timestamp', 'Version']) {
      if (!params[key]) return fail(400, 'MissingParameter', `The input parameter "${key}" that is mandatory for processing this request is not supplied.`);
    }
    if (params.Action !== 'SendSms') return fail(400, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.');
    if (params.Version !== ALIYUN_SMS_VERSION) return fail(400, 'InvalidVersion', 'Specified parameter Version is not valid.');
    const secret = sim.accounts.get(params.AccessKeyId!);
    if (!secret) return fail(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    if (params.SignatureMethod !== 'HMAC-SHA1' || params.SignatureVersion !== '1.0') return fail(400, 'InvalidSignatureMethod', 'Specified signature method is not valid.');
    if (aliyunSignature('GET', params, secret) !== params.Signature) {
      return fail(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
    }
    const at = Date.parse(params.Timestamp!);
    if (!Number.isFinite(at) || Math.abs(at - options.now()) > SKEW_MS) return fail(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
    if (nonces.has(params.SignatureNonce!)) return fail(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    nonces.add(params.SignatureNonce!);
    const phone = params.PhoneNumbers ?? '';
    if (!/^(\+?86)?1\d{10}$|^\+?\d{6,15}$/.test(phone)) return reply.send({ Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号', RequestId: requestId } satisfies AliyunAnswer);
    if (!params.SignName) return reply.send({ Code: 'isv.SMS_SIGNATURE_ILLEGAL', Message: '签名不合法', RequestId: requestId } satisfies AliyunAnswer);
    if (!/^SMS_\d+$/.test(params.TemplateCode ?? '')) return reply.send({ Code: 'isv.SMS_TEMPLATE_ILLEGAL', Message: '模板不合法', RequestId: requestId } satisfies AliyunAnswer);
    let values: Record<string, string>;
    try {
      values = JSON.parse(params.TemplateParam ?? '{}') as Record<string, string>;
      if (!values || typeof values !== 'object' || Array.isArray(values)) throw new Error('not an object');
    } catch {
      return reply.send({ Code: 'isv.INVALID_JSON_PARAM', Message: 'JSON参数不合法，只接受字符串值', RequestId: requestId } satisfies AliyunAnswer);
    }
    const bizId = `${Date.now()}^${Math.floor(Math.random() * 1e10)}`;
    const sms: ReceivedSms = {
      phone,
      signName: params.SignName,
      template: params.TemplateCode!,
      params: values,
      text: `【${params.SignName}】${values.code ? `验证码 ${values.code}，10分钟内有效。` : JSON.stringify(values)}`,
      at: options.now(),
      bizId,
    };
    sim.received.push(sms);
    if (sim.received.length > 200) sim.received.shift();
    options.onSms?.(sms);
    return reply.send({ Code: 'OK', Message: 'OK', RequestId: requestId, BizId: bizId } satisfies AliyunAnswer);
  });
}
