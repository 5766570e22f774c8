import { createHmac, randomUUID } from 'node:crypto';

/**
 * Aliyun SMS (Dysmsapi 2017-05-25, SendSms) by its RPC API with signature version 1.0 (HMAC-SHA1 over the sorted,
 * percent-encoded query). Chosen over Tencent Cloud SMS because most Chinese sellers already hold an Aliyun account
 * (their 1688 and Alibaba logins), and its signature is one HMAC where Tencent's TC3 needs four derived keys: a
 * simulator speaking it exactly is small enough to keep honest.
 */
export const SMS_ALIYUN_URL = 'https://dysmsapi.aliyuncs.com/';
export const ALIYUN_SMS_VERSION = '2017-05-25';

/** RFC 3986 encoding as Aliyun's POP gateway signs it: space %20, `*` %2A, `~` kept, and `!'()` encoded too. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function canonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((key) => key !== 'Signature')
    .sort()
    .map((key) => `${percentEncode(key)}=${percentEncode(params[key]!)}`)
    .join('&');
}

export function aliyunSignature(method: 'GET' | 'POST', params: Record<string, string>, accessKeySecret: string): string {
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonicalQuery(params))}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign).digest('base64');
}

export type AliyunAccount = { url: string; accessKeyId: string; accessKeySecret: string; fetch?: typeof fetch };
export type SmsRequest = { phone: string; signName: string; template: string; params: Record<string, string> };
/** Aliyun's answer: Code "OK" on success, else an error code such as isv.MOBILE_NUMBER_ILLEGAL and its Message. */
export type AliyunAnswer = { Code: string; Message: string; RequestId?: string; BizId?: string };

export class SmsError extends Error {
  override name = 'SmsError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** Sends one SMS; throws SmsError with Aliyun's code and message when refused. */
export async function aliyunSendSms(account: AliyunAccount, sms: SmsRequest, now = new Date()): Promise<{ bizId: string }> {
  const params: Record<string, string> = {
    AccessKeyId: account.accessKeyId,
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: sms.phone,
    RegionId: 'cn-hangzhou',
    SignName: sms.signName,
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    TemplateCode: sms.template,
    TemplateParam: JSON.stringify(sms.params),
    Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: ALIYUN_SMS_VERSION,
  };
  const signature = aliyunSignature('GET', params, account.accessKeySecret);
  const url = `${account.url.replace(/\/?$/, '/')}?Signature=${percentEncode(signature)}&${canonicalQuery(params)}`;
  let response: Response;
  try {
    response = await (account.fetch ?? fetch)(url, { method: 'GET', signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new SmsError('Unreachable', error instanceof Error ? error.message : String(error));
  }
  const answer = (await response.json().catch(() => null)) as AliyunAnswer | null;
  if (!answer || typeof answer.Code !== 'string') throw new SmsError(`HTTP${response.status}`, 'the SMS service answered no JSON');
  if (answer.Code !== 'OK') throw new SmsError(answer.Code, answer.Message ?? '');
  return { bizId: answer.BizId ?? '' };
}
