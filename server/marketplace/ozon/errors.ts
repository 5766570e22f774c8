import type { Lang, Localized } from '../../../contract/errors';
import type { OzonItemError } from './schemas';

/**
 * What went wrong talking to Ozon, as a kind the caller can decide on, with the texts a seller is shown.
 * `code` is the envelope code our API answers with (architecture: 504 marketplace timeout, 429 too many requests,
 * 400 for a key the seller must fix, 404, and 502 for Ozon's own failures).
 */
export type OzonErrorKind =
  | 'timeout'
  | 'network'
  | 'invalidKey'
  | 'keyDeactivated'
  | 'missingRole'
  | 'ipRestricted'
  | 'offerNotSigned'
  | 'rateLimited'
  | 'circleOpen'
  | 'notFound'
  | 'badRequest'
  | 'server'
  | 'malformed';

const TEXTS: Record<OzonErrorKind, Localized> = {
  timeout: { zh: 'ozon接口请求超时', en: 'The Ozon API timed out', pt: 'A API da Ozon não respondeu a tempo' },
  network: { zh: '无法连接ozon接口，请稍后重试', en: 'Could not reach the Ozon API, please try again later', pt: 'Não foi possível acessar a API da Ozon, tente de novo mais tarde' },
  invalidKey: {
    zh: 'Api-Key无效，请检查Client-Id和Api-Key后重试',
    en: 'Invalid Api-Key: check the Client-Id and Api-Key and try again',
    pt: 'Api-Key inválida: confira o Client-Id e a Api-Key e tente de novo',
  },
  keyDeactivated: {
    zh: 'Api-Key已停用，请在Ozon后台生成新的Api-Key',
    en: 'The Api-Key is deactivated: generate a new one in the Ozon seller account',
    pt: 'A Api-Key foi desativada: gere uma nova na conta de vendedor da Ozon',
  },
  missingRole: {
    zh: 'Api-Key缺少此功能所需的权限，请在Ozon后台为该Key添加相应角色',
    en: 'The Api-Key lacks the role this feature needs: add the role to the key in the Ozon seller account',
    pt: 'A Api-Key não tem o perfil que este recurso exige: adicione o perfil à chave na conta de vendedor da Ozon',
  },
  ipRestricted: {
    zh: 'Api-Key仅允许指定IP访问，请在Ozon后台放行本服务器的IP',
    en: 'The Api-Key is restricted to specific IP addresses: allow this server\'s IP in the Ozon seller account',
    pt: 'A Api-Key está restrita a IPs específicos: libere o IP deste servidor na conta de vendedor da Ozon',
  },
  offerNotSigned: {
    zh: '店铺尚未签署Ozon卖家协议',
    en: 'The shop has not signed the Ozon seller offer',
    pt: 'A loja não assinou a oferta de vendedor da Ozon',
  },
  rateLimited: { zh: 'ozon接口请求频率超限，请稍后重试', en: 'Ozon API rate limit reached, please try again later', pt: 'Limite de solicitações da API da Ozon atingido, tente de novo mais tarde' },
  circleOpen: {
    zh: 'ozon接口暂时被限流（Circle is open），几分钟后自动恢复',
    en: 'Ozon temporarily blocked this method (Circle is open); it recovers in a few minutes',
    pt: 'A Ozon bloqueou temporariamente este método (Circle is open); ele volta em alguns minutos',
  },
  notFound: { zh: 'Ozon上找不到该数据', en: 'Not found on Ozon', pt: 'Não encontrado na Ozon' },
  badRequest: { zh: 'Ozon拒绝了请求', en: 'Ozon rejected the request', pt: 'A Ozon rejeitou a solicitação' },
  server: { zh: 'ozon接口内部错误，请稍后重试', en: 'The Ozon API failed, please try again later', pt: 'A API da Ozon falhou, tente de novo mais tarde' },
  malformed: { zh: 'ozon接口返回的数据格式异常', en: 'The Ozon API answered in an unexpected format', pt: 'A API da Ozon respondeu num formato inesperado' },
};

const CODES: Record<OzonErrorKind, number> = {
  timeout: 504,
  network: 502,
  invalidKey: 400,
  keyDeactivated: 400,
  missingRole: 401,
  ipRestricted: 400,
  offerNotSigned: 400,
  rateLimited: 429,
  circleOpen: 429,
  notFound: 404,
  badRequest: 400,
  server: 502,
  malformed: 502,
};

/** Kinds that a later identical request may cure; the rest need a person. */
export const RETRYABLE_KINDS: ReadonlySet<OzonErrorKind> = new Set(['timeout', 'network', 'rateLimited', 'circleOpen', 'server']);

/**
 * Kinds after which a request may have been carried out although its answer never arrived or was unreadable: a write
 * that is not safe to repeat (`once` in versions.ts) is not sent again after one of these.
 */
export const UNSURE_KINDS: ReadonlySet<OzonErrorKind> = new Set(['timeout', 'network', 'server', 'malformed']);

/** Kinds that mean the shop's key no longer works: sync of that shop stops until the seller re-authorizes. */
export const KEY_FAILURE_KINDS: ReadonlySet<OzonErrorKind> = new Set([
  'invalidKey',
  'keyDeactivated',
  'ipRestricted',
  'offerNotSigned',
]);

export class OzonError extends Error {
  override readonly name = 'OzonError';
  readonly kind: OzonErrorKind;
  /** The envelope code our API answers with. */
  readonly code: number;
  readonly texts: Localized;
  /** HTTP status from Ozon, 0 when there was no answer. */
  readonly status: number;
  /** The endpoint path that failed. */
  readonly path: string;
  /** Ozon's own message, for logs and for 'badRequest' where it is the only specific text. */
  readonly ozonMessage: string;
  /**
   * A write that is not safe to repeat may have been carried out (its answer was lost): it was not sent again, and
   * the caller reads the state back to know.
   */
  readonly outcomeUnknown: boolean;

  constructor(kind: OzonErrorKind, init: { status?: number; path: string; ozonMessage?: string; outcomeUnknown?: boolean }) {
    const texts = kind === 'badRequest' && init.ozonMessage
      ? { zh: `${TEXTS.badRequest.zh}：${init.ozonMessage}`, en: `${TEXTS.badRequest.en}: ${init.ozonMessage}`, pt: `${TEXTS.badRequest.pt}: ${init.ozonMessage}` }
      : TEXTS[kind];
    super(texts.en);
    this.kind = kind;
    this.code = CODES[kind];
    this.texts = texts;
    this.status = init.status ?? 0;
    this.path = init.path;
    this.ozonMessage = init.ozonMessage ?? '';
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }

  text(lang: Lang = 'zh'): string {
    return this.texts[lang];
  }
}

export function isOzonError(value: unknown): value is OzonError {
  return value instanceof OzonError;
}

/**
 * Ozon's error answer to a kind. Messages are matched first (they are the documented contract, swagger "Errors");
 * the HTTP status decides only when the message is not one we know.
 */
export function classifyOzonError(status: number, message: string): OzonErrorKind {
  const m = message.toLowerCase();
  if (m.includes('invalid api-key') || m.includes('invalid client-id')) return 'invalidKey';
  if (m.includes('deactivated')) return 'keyDeactivated';
  if (m.includes('missing a required role')) return 'missingRole';
  if (m.includes('restricted to specific ip')) return 'ipRestricted';
  if (m.includes('offer not signed')) return 'offerNotSigned';
  if (m.includes('circle is open')) return 'circleOpen';
  if (m.includes('rate limit') || status === 429) return 'rateLimited';
  if (status === 401) return 'invalidKey';
  if (status === 504 || status === 408) return 'timeout';
  if (status === 404) return 'notFound';
  if (status >= 500) return 'server';
  return 'badRequest';
}

/** Texts for the per-item error codes a seller meets most; anything else is shown as Ozon wrote it. */
const ITEM_ERROR_TEXTS: Record<string, Localized> = {
  TOO_MANY_REQUESTS: { zh: '同一商品30秒内只能更新一次库存', en: 'A product\'s stock can change once per 30 s', pt: 'O estoque de um produto pode mudar uma vez a cada 30 s' },
  PRICE_IS_NOT_SENT: { zh: '商品尚未设置价格，暂不能更新库存', en: 'The product has no price yet, so stock cannot be set', pt: 'O produto ainda não tem preço, então não é possível definir o estoque' },
  product_is_not_created: { zh: '商品尚未通过审核，暂不能更新库存', en: 'The product has not passed moderation yet', pt: 'O produto ainda não passou na moderação' },
  WAREHOUSE_NOT_FOUND: { zh: '仓库不存在或未启用', en: 'The warehouse does not exist or is not active', pt: 'O armazém não existe ou não está ativo' },
  STOCK_TOO_BIG: { zh: '库存数量过大', en: 'The stock is too large', pt: 'O estoque é grande demais' },
  offer_id_not_found: { zh: '找不到该货号的商品', en: 'No product has this offer id', pt: 'Nenhum produto tem este código do vendedor' },
  discount_too_big: { zh: '原价与售价的差价不符合Ozon规则', en: 'The gap between old price and price breaks Ozon\'s rules', pt: 'A diferença entre o preço riscado e o preço viola as regras da Ozon' },
  price_negative: { zh: '价格不能为负数', en: 'The price cannot be negative', pt: 'O preço não pode ser negativo' },
  too_many_price_updates: { zh: '同一商品每小时最多改价10次', en: 'A product\'s price can change at most 10 times an hour', pt: 'O preço de um produto pode mudar no máximo 10 vezes por hora' },
  item_limit_exceeded: { zh: '已超出每日商品创建或更新额度', en: 'The daily product create/update quota is used up', pt: 'A cota diária de criação/atualização de produtos acabou' },
  // Product import (/v3/product/import, /v1/product/import-by-sku); an attribute's name is put before these.
  SKU_COPY_FORBIDDEN: { zh: '该商品的卖家禁止跟卖（按SKU创建商品）', en: 'The card\'s owner forbids creating products from this SKU', pt: 'O dono do anúncio não permite criar produtos a partir deste SKU' },
  error_attribute_values_empty: { zh: '必填属性未填写', en: 'This required attribute is empty', pt: 'Este atributo obrigatório está vazio' },
  error_attribute_value_out_of_range: { zh: '属性值不在Ozon字典中，请从列表中选择', en: 'The value is not in Ozon\'s dictionary: pick one from the list', pt: 'O valor não está no dicionário da Ozon: escolha um da lista' },
  error_attribute_value_not_number: { zh: '属性值必须是数字', en: 'The value must be a number', pt: 'O valor deve ser um número' },
  error_attribute_values_too_many: { zh: '属性值数量超过上限', en: 'Too many values for this attribute', pt: 'Valores demais para este atributo' },
  offer_id_invalid: { zh: '货号必填，最多50个字符', en: 'The offer id is required, at most 50 characters', pt: 'O código do vendedor é obrigatório, no máximo 50 caracteres' },
  name_invalid: { zh: '商品名称必填，最多500个字符', en: 'The name is required, at most 500 characters', pt: 'O nome é obrigatório, no máximo 500 caracteres' },
  price_invalid: { zh: '价格必须大于0', en: 'The price must be above 0', pt: 'O preço deve ser maior que 0' },
  too_many_images: { zh: '图片最多15张', en: 'At most 15 images', pt: 'No máximo 15 imagens' },
  description_category_invalid: { zh: '类目必须选到最末级的商品类型', en: 'The category must be a leaf product type', pt: 'A categoria deve ser um tipo de produto final' },
  total_limit_exceeded: { zh: '店铺商品总数已达上限', en: 'The shop\'s assortment limit is reached', pt: 'A loja atingiu o limite de sortimento' },
  failed_moderation: { zh: '商品未通过Ozon审核', en: 'The card failed Ozon\'s moderation', pt: 'O anúncio foi reprovado na moderação da Ozon' },
};

/** One item's failure from a batch answer, with a seller-facing text. */
export type OzonItemFailure = { code: string; texts: Localized };

export function describeItemError(error: OzonItemError): OzonItemFailure {
  const known = ITEM_ERROR_TEXTS[error.code];
  if (known) return { code: error.code, texts: known };
  const raw = error.message || error.code;
  return { code: error.code, texts: { zh: raw, en: raw, pt: raw } };
}
