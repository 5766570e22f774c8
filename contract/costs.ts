import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';
import { lazySchema } from './lazySchema';

/**
 * Cost prices: what one unit of an offer id costs the seller, entered or imported once and shared by every area that
 * needs a margin (the promotions price guard, sales analysis). One price per seller and offer id, across shops (an
 * offer id names the same goods in every shop of a seller), in roubles like Ozon's prices.
 *
 * Other areas read it through these endpoints (browser) or `createCostService(...).costsFor(userId, offerIds)`
 * (server/areas/costs/service.ts).
 */

/** Ozon's offer_id: at most 50 characters. */
export const OFFER_ID_MAX = 50;
/** Rows per import file. */
export const COST_IMPORT_MAX_LINES = 20_000;
/** Bytes per import file (a 20,000-line XLSX is well under this). */
export const COST_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Costs per set call. */
export const COST_SET_MAX = 1_000;

const offerId = () => z.string().trim().min(1).max(OFFER_ID_MAX);
/** Roubles with at most two decimals, below ten million. */
const cost = () => z.number().finite().min(0).max(9_999_999.99).refine((n) => Math.round(n * 100) === n * 100, 'invalid');

/** What cost prices are kept in. */
export const COST_CURRENCY = 'RUB';

export const costRowSchema = lazySchema(() =>
  z.object({
    offerId: z.string(),
    cost: z.number(),
    /** Always RUB for now: Ozon's prices are in the shop's currency, which is RUB for the sellers this serves. */
    currency: z.literal('RUB'),
    updatedAt: z.number(),
  }),
);
export type CostRow = z.infer<typeof costRowSchema>;

export const costListQuerySchema = lazySchema(() => pageQuerySchema.extend({ search: z.string().trim().max(OFFER_ID_MAX).optional() }));
export type CostListQuery = z.input<typeof costListQuerySchema>;
export const costListAnswerSchema = lazySchema(() => z.object({ list: z.array(costRowSchema), total: z.number().int() }));

export const costSetInputSchema = lazySchema(() =>
  z.object({
    /** `cost: null` removes the offer's cost price. */
    items: z.array(z.object({ offerId: offerId(), cost: cost().nullable() })).min(1).max(COST_SET_MAX),
  }),
);
export type CostSetInput = z.input<typeof costSetInputSchema>;
export const costSetAnswerSchema = lazySchema(() => z.object({ saved: z.number().int(), removed: z.number().int() }));

export const costImportLineErrorSchema = lazySchema(() => z.object({ line: z.number().int(), offerId: z.string(), message: z.string() }));
export type CostImportLineError = z.infer<typeof costImportLineErrorSchema>;
export const costImportAnswerSchema = lazySchema(() =>
  z.object({ saved: z.number().int(), lines: z.number().int(), errors: z.array(costImportLineErrorSchema) }),
);
export type CostImportAnswer = z.infer<typeof costImportAnswerSchema>;

export const COST_MESSAGES = {
  fileMissing: { zh: '请选择要导入的文件', en: 'Please choose a file to import', pt: 'Escolha um arquivo para importar' },
  fileType: { zh: '只支持 CSV 或 XLSX 文件', en: 'Only CSV or XLSX files can be imported', pt: 'Só é possível importar arquivos CSV ou XLSX' },
  fileTooLarge: { zh: '文件过大（最大 5 MB）', en: 'The file is too large (at most 5 MB)', pt: 'O arquivo é grande demais (no máximo 5 MB)' },
  fileUnreadable: { zh: '无法读取该文件，请检查格式', en: 'The file could not be read; please check its format', pt: 'Não foi possível ler o arquivo; verifique o formato' },
  tooManyLines: { zh: '文件行数过多（最多 20000 行）', en: 'The file has too many lines (at most 20,000)', pt: 'O arquivo tem linhas demais (no máximo 20.000)' },
  noHeader: { zh: '第一行须为表头，包含“offer_id”（或“货号”）和“cost”（或“成本价”）两列', en: 'The first line must be a header with the columns "offer_id" (or 货号) and "cost" (or 成本价)', pt: 'A primeira linha deve ser um cabeçalho com as colunas "offer_id" (ou 货号) e "cost" (ou 成本价)' },
  offerIdMissing: { zh: '货号为空', en: 'The offer id is empty', pt: 'O código do vendedor está vazio' },
  offerIdTooLong: { zh: '货号超过50个字符', en: 'The offer id is longer than 50 characters', pt: 'O código do vendedor passa de 50 caracteres' },
  costInvalid: { zh: '成本价须为0到9999999.99之间、最多两位小数的数字', en: 'The cost must be a number from 0 to 9,999,999.99 with at most two decimals', pt: 'O custo deve ser um número de 0 a 9.999.999,99 com no máximo duas casas decimais' },
  duplicateOffer: { zh: '货号在文件中重复，以最后一行为准', en: 'The offer id appears again later in the file; the last line counts', pt: 'O código do vendedor aparece de novo mais adiante no arquivo; vale a última linha' },
  /** A member scoped to some shops: the offer id is no product of theirs, or a shop outside their scope sells it too. */
  offerOutsideShops: {
    zh: '货号不是您可管理店铺的商品，或其他店铺也在用（成本价各店铺共用）',
    en: 'The offer id is no product of the shops you manage, or another shop uses it too (a cost counts for every shop)',
    pt: 'O código não é de um produto das lojas que você gerencia, ou outra loja também o usa (o custo vale para todas as lojas)',
  },
} as const satisfies Record<string, Localized>;

/** The import's file part and the column names it reads (first line; case and spaces ignored). */
export const COST_IMPORT_FILE_FIELD = 'file';
export const COST_IMPORT_COLUMNS = { offerId: ['offer_id', 'offerid', 'offer id', '货号', 'артикул'], cost: ['cost', 'cost_price', '成本价', '成本', 'себестоимость'] } as const;

export const COST_ENDPOINTS = {
  list: defineEndpoint({
    method: 'GET',
    path: '/cost/list',
    summary: "The seller's cost prices by offer id, paged, optionally searched by offer id",
    access: 'actions',
    // Cost prices are the seller's margins: a member reads them only with the grant that changes prices.
    action: 'price',
    input: costListQuerySchema,
    answer: costListAnswerSchema,
  }),
  set: defineEndpoint({
    method: 'POST',
    path: '/cost/set',
    summary: 'Sets (or with null removes) cost prices of offer ids',
    access: 'actions',
    action: 'price',
    input: costSetInputSchema,
    answer: costSetAnswerSchema,
    settings: { silent: true },
  }),
  import: defineEndpoint({
    method: 'POST',
    path: '/cost/import',
    summary: 'Imports cost prices from a CSV or XLSX file (columns offer_id and cost); answers each refused line with its reason',
    access: 'actions',
    action: 'price',
    multipart: { fields: z.object({}), file: COST_IMPORT_FILE_FIELD },
    answer: costImportAnswerSchema,
    settings: { timeout: 60_000, silent: true },
  }),
} as const;
