import { z } from 'zod';
import { lazySchema } from '../../../contract/lazySchema';

/**
 * The Ozon Seller API answers we rely on (shapes from the 2025-09 swagger, with the 2026 versions the reference marks).
 * Loose objects: Ozon adds fields often, and an extra field must never break a sync; a missing or mistyped field we
 * rely on makes the answer malformed, which the client reports as a clear error instead of crashing later.
 * The simulator answers with the same shapes, and the tests hold the two to each other.
 */

/** Ozon sends int64 sometimes as a number, sometimes as a string (grpc-gateway). */
const int = z.coerce.number().int();
const num = z.coerce.number();
/** Ozon's money fields are decimal strings in some answers and numbers in others. */
const moneyText = z.union([z.string(), z.number()]).transform(String);
/** int64 ids that may outgrow a double (chat message ids): kept as text. */
const bigId = z.union([z.string(), z.number()]).transform(String);
const maybeStringList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (typeof v === 'string' ? (v ? [v] : []) : v));

/** (2026) Some lists renamed `total` to `total_items`: an answer with either is read as `total`. */
const totalFromTotalItems = (value: unknown) =>
  value && typeof value === 'object' && !('total' in value) && 'total_items' in value ? { ...value, total: value.total_items } : value;
const withTotal = <T extends z.ZodType>(schema: T) => z.preprocess(totalFromTotalItems, schema);

export const ozonErrorBodySchema = lazySchema(() => z.looseObject({
  code: z.number().optional(),
  message: z.string().optional(),
  details: z.array(z.unknown()).optional(),
}));
export type OzonErrorBody = z.infer<typeof ozonErrorBodySchema>;

// POST /v1/roles
export const rolesResponseSchema = lazySchema(() => z.looseObject({
  roles: z.array(z.looseObject({ name: z.string(), methods: z.array(z.string()).default([]) })),
  /** (2026) When the key stops working; absent on older answers. */
  expires_at: z.string().nullish(),
}));
export type OzonRolesResponse = z.infer<typeof rolesResponseSchema>;

// POST /v2/warehouse/list
export const warehouseSchema = lazySchema(() => z.looseObject({
  warehouse_id: int,
  name: z.string(),
  status: z.string(),
  is_rfbs: z.boolean().optional(),
  is_kgt: z.boolean().optional(),
  is_express: z.boolean().optional(),
}));
export type OzonWarehouse = z.infer<typeof warehouseSchema>;
export const warehouseListResponseSchema = lazySchema(() => z.looseObject({
  warehouses: z.array(warehouseSchema),
  cursor: z.string().default(''),
  has_next: z.boolean().default(false),
}));

// FBS postings (v4 list shapes; v3 get)
export { FBS_STATUSES, type FbsStatus } from '../../../contract/fbsStatuses';

const moneySchema = lazySchema(() => z.looseObject({ amount: num, currency: z.string() }));
export const postingProductSchema = lazySchema(() =>
  z
    .looseObject({
      sku: int,
      offer_id: z.string(),
      name: z.string(),
      quantity: int,
      // v4 answers {amount, currency}; v3 answered a decimal string plus currency_code.
      price: z.union([moneySchema, z.string(), z.number()]),
      currency_code: z.string().optional(),
    })
    .transform((p) => ({
      ...p,
      price: typeof p.price === 'object' ? p.price : { amount: Number(p.price), currency: p.currency_code ?? 'CNY' },
    })));
export type OzonPostingProduct = z.infer<typeof postingProductSchema>;

export const postingSchema = lazySchema(() => z.looseObject({
  posting_number: z.string(),
  order_id: int,
  order_number: z.string(),
  /** Not narrowed to FBS_STATUSES: Ozon adds statuses, and an unknown one must not fail a sync. */
  status: z.string(),
  substatus: z.string().optional(),
  in_process_at: z.string(),
  shipment_date: z.string().nullish(),
  delivering_date: z.string().nullish(),
  tracking_number: z.string().nullish(),
  tpl_integration_type: z.string().optional(),
  delivery_method: z
    .looseObject({ id: int, name: z.string(), warehouse_id: int, warehouse: z.string().optional() })
    .optional(),
  products: z.array(postingProductSchema),
  available_actions: z.array(z.string()).nullish(),
  cancellation: z
    .looseObject({ cancel_reason_id: int.optional(), cancel_reason: z.string().optional() })
    .nullish(),
}));
export type OzonPosting = z.infer<typeof postingSchema>;

export const postingListResponseSchema = lazySchema(() => z.looseObject({
  postings: z.array(postingSchema),
  cursor: z.string().default(''),
  has_next: z.boolean().default(false),
  /** Only the unfulfilled list counts. */
  count: int.optional(),
}));
export type OzonPostingList = z.infer<typeof postingListResponseSchema>;

export const postingGetResponseSchema = lazySchema(() => z.looseObject({ result: postingSchema }));

/**
 * What /v3/posting/fbs/get adds with `with.analytics_data` and `with.financial_data`, and the buyer Ozon names for
 * postings the seller delivers (rFBS): read apart from the posting so a missing or reshaped part leaves the rest.
 * Commission comes flat (commission_amount, commission_percent) in the v3 answer; older answers nested it.
 */
const partySchema = z.looseObject({ name: z.string().nullish(), phone: z.string().nullish() });
export const postingExtrasSchema = lazySchema(() => z.looseObject({
  customer: partySchema
    .extend({
      address: z
        .looseObject({
          address_tail: z.string().nullish(),
          city: z.string().nullish(),
          region: z.string().nullish(),
          zip_code: z.string().nullish(),
          country: z.string().nullish(),
          comment: z.string().nullish(),
        })
        .nullish(),
    })
    .nullish()
    .catch(null),
  addressee: partySchema.nullish().catch(null),
  analytics_data: z
    .looseObject({ region: z.string().nullish(), city: z.string().nullish(), delivery_type: z.string().nullish() })
    .nullish()
    .catch(null),
  financial_data: z
    .looseObject({
      products: z.array(
        z.looseObject({
          product_id: int,
          price: num.nullish(),
          payout: num.nullish(),
          commission_amount: num.nullish(),
          commission_percent: num.nullish(),
          commission: z.looseObject({ amount: num.nullish(), percent: num.nullish() }).nullish(),
          currency_code: z.string().nullish(),
          quantity: int.nullish(),
        }),
      ),
    })
    .nullish()
    .catch(null),
}));
export type OzonPostingExtras = z.infer<typeof postingExtrasSchema>;

export const shipResponseSchema = lazySchema(() => z.looseObject({
  /** The posting numbers after assembly: one per package. */
  result: z.array(z.string()),
  additional_data: z.array(z.unknown()).nullish(),
}));

export const cancelReasonResponseSchema = lazySchema(() => z.looseObject({
  result: z.array(
    z.looseObject({
      posting_number: z.string(),
      reasons: z.array(z.looseObject({ id: int, title: z.string(), type_id: z.string().optional() })),
    }),
  ),
}));
export const boolResultSchema = lazySchema(() => z.looseObject({ result: z.boolean() }));

export const trackingSetResponseSchema = lazySchema(() => z.looseObject({
  result: z.array(
    z.looseObject({ posting_number: z.string(), result: z.boolean(), error: z.string().nullish() }),
  ),
}));

export const labelCreateResponseSchema = lazySchema(() => z.looseObject({
  result: z.looseObject({ tasks: z.array(z.looseObject({ task_id: int, task_type: z.string() })) }),
}));
export const labelGetResponseSchema = lazySchema(() => z.looseObject({
  result: z.looseObject({
    status: z.string(),
    file_url: z.string().nullish(),
    error: z.string().nullish(),
  }),
}));

// Products
export const productListResponseSchema = lazySchema(() => z.looseObject({
  result: withTotal(z.looseObject({
    items: z.array(
      z.looseObject({
        product_id: int,
        offer_id: z.string(),
        archived: z.boolean().default(false),
        has_fbo_stocks: z.boolean().optional(),
        has_fbs_stocks: z.boolean().optional(),
        is_discounted: z.boolean().optional(),
      }),
    ),
    total: int,
    last_id: z.string().default(''),
  })),
}));
export type OzonProductListItem = z.infer<typeof productListResponseSchema>['result']['items'][number];

export const itemErrorSchema = lazySchema(() => z.looseObject({
  code: z.string().default(''),
  message: z.string().default(''),
}));
export type OzonItemError = z.infer<typeof itemErrorSchema>;

export const productInfoSchema = lazySchema(() => z.looseObject({
  id: int,
  offer_id: z.string(),
  sku: int.default(0),
  name: z.string(),
  barcodes: z.array(z.string()).default([]),
  images: z.array(z.string()).default([]),
  primary_image: maybeStringList.default([]),
  price: moneyText,
  old_price: moneyText.default(''),
  min_price: moneyText.default(''),
  marketing_price: moneyText.default(''),
  currency_code: z.string(),
  vat: moneyText.optional(),
  description_category_id: int,
  type_id: int,
  is_archived: z.boolean(),
  is_autoarchived: z.boolean().default(false),
  statuses: z
    .looseObject({
      status: z.string().default(''),
      status_name: z.string().optional(),
      moderate_status: z.string().optional(),
      validation_status: z.string().optional(),
      status_failed: z.string().optional(),
      is_created: z.boolean().optional(),
    })
    .optional(),
  errors: z.array(z.unknown()).default([]),
  stocks: z
    .looseObject({
      has_stock: z.boolean().optional(),
      stocks: z.array(z.looseObject({ present: int, reserved: int, sku: int.optional(), source: z.string() })).default([]),
    })
    .optional(),
  created_at: z.string(),
  updated_at: z.string(),
}));
export type OzonProductInfo = z.infer<typeof productInfoSchema>;
export const productInfoListResponseSchema = lazySchema(() => z.looseObject({ items: z.array(productInfoSchema) }));

export const attributeValueSchema = lazySchema(() => z.looseObject({
  dictionary_value_id: int.optional(),
  value: z.string(),
}));
export const productAttributeSchema = lazySchema(() => z.looseObject({
  id: int,
  complex_id: int.default(0),
  values: z.array(attributeValueSchema),
}));
export type OzonProductAttribute = z.infer<typeof productAttributeSchema>;
export const productAttributesResponseSchema = lazySchema(() => withTotal(z.looseObject({
  result: z.array(
    z.looseObject({
      id: int,
      offer_id: z.string(),
      sku: int.optional(),
      name: z.string(),
      description_category_id: int,
      type_id: int,
      attributes: z.array(productAttributeSchema),
      images: z.array(z.string()).default([]),
      primary_image: z.string().nullish(),
      barcode: z.string().nullish(),
      depth: num.optional(),
      width: num.optional(),
      height: num.optional(),
      dimension_unit: z.string().optional(),
      weight: num.optional(),
      weight_unit: z.string().optional(),
    }),
  ),
  last_id: z.string().default(''),
  total: int.default(0),
})));
export type OzonProductAttributes = z.infer<typeof productAttributesResponseSchema>['result'][number];

export const taskResponseSchema = lazySchema(() => z.looseObject({ result: z.looseObject({ task_id: int }) }));
export const importInfoResponseSchema = lazySchema(() => z.looseObject({
  result: withTotal(z.looseObject({
    items: z.array(
      z.looseObject({
        offer_id: z.string(),
        product_id: int.default(0),
        status: z.string(),
        errors: z.array(itemErrorSchema.extend({ field: z.string().optional(), attribute_id: int.optional(), attribute_name: z.string().optional() })).default([]),
      }),
    ),
    total: int,
  })),
}));
export type OzonImportInfo = z.infer<typeof importInfoResponseSchema>['result'];
export const importBySkuResponseSchema = lazySchema(() => z.looseObject({
  result: z.looseObject({ task_id: int, unmatched_sku_list: z.array(int).default([]) }),
}));
export const productsDeleteResponseSchema = lazySchema(() => z.looseObject({
  status: z.array(z.looseObject({ offer_id: z.string(), is_deleted: z.boolean(), error: z.string().nullish() })),
}));

export const productPricesResponseSchema = lazySchema(() => withTotal(z.looseObject({
  items: z.array(
    z.looseObject({
      product_id: int,
      offer_id: z.string(),
      price: z.looseObject({
        price: num,
        old_price: num.default(0),
        min_price: num.default(0),
        marketing_price: num.optional(),
        currency_code: z.string(),
      }),
    }),
  ),
  cursor: z.string().default(''),
  total: int,
})));
export type OzonProductPrice = z.infer<typeof productPricesResponseSchema>['items'][number];

/** Batch updates answer HTTP 200 with a verdict per item: `updated:false` plus `errors[]`. */
export const itemResultsResponseSchema = lazySchema(() => z.looseObject({
  result: z.array(
    z.looseObject({
      offer_id: z.string().default(''),
      product_id: int.default(0),
      warehouse_id: int.optional(),
      updated: z.boolean(),
      errors: z.array(itemErrorSchema).default([]),
    }),
  ),
}));
export type OzonItemResult = z.infer<typeof itemResultsResponseSchema>['result'][number];

export const productStocksResponseSchema = lazySchema(() => withTotal(z.looseObject({
  items: z.array(
    z.looseObject({
      offer_id: z.string(),
      product_id: int,
      stocks: z.array(
        z.looseObject({
          type: z.string(),
          present: int,
          reserved: int,
          sku: int.optional(),
          warehouse_ids: z.array(z.union([z.string(), z.number()])).default([]),
        }),
      ),
    }),
  ),
  cursor: z.string().default(''),
  total: int,
})));
export type OzonProductStock = z.infer<typeof productStocksResponseSchema>['items'][number];

export const picturesImportResponseSchema = lazySchema(() => z.looseObject({
  result: z.looseObject({
    pictures: z.array(z.looseObject({ product_id: int, url: z.string(), state: z.string(), is_primary: z.boolean().optional() })),
  }),
}));

const quotaSchema = lazySchema(() => z.looseObject({ limit: int, usage: int, reset_at: z.string().optional() }));
export const productLimitResponseSchema = lazySchema(() => z.looseObject({
  daily_create: quotaSchema,
  daily_update: quotaSchema,
  total: quotaSchema,
}));
export type OzonProductLimit = z.infer<typeof productLimitResponseSchema>;

// Description categories
export type OzonCategoryNode = {
  description_category_id?: number;
  category_name?: string;
  type_id?: number;
  type_name?: string;
  disabled: boolean;
  children: OzonCategoryNode[];
};
export const categoryNodeSchema: z.ZodType<OzonCategoryNode> = lazySchema(() => z.lazy(() =>
  z.looseObject({
    description_category_id: int.optional(),
    category_name: z.string().optional(),
    type_id: int.optional(),
    type_name: z.string().optional(),
    disabled: z.boolean().default(false),
    children: z.array(categoryNodeSchema).default([]),
  }),
) as z.ZodType<OzonCategoryNode>);
export const categoryTreeResponseSchema = lazySchema(() => z.looseObject({ result: z.array(categoryNodeSchema) }));
export const categoryAttributeSchema = lazySchema(() => z.looseObject({
  id: int,
  name: z.string(),
  description: z.string().default(''),
  type: z.string(),
  is_required: z.boolean(),
  is_collection: z.boolean().default(false),
  is_aspect: z.boolean().default(false),
  dictionary_id: int.default(0),
  group_id: int.optional(),
  group_name: z.string().optional(),
  max_value_count: int.optional(),
}));
export type OzonCategoryAttribute = z.infer<typeof categoryAttributeSchema>;
export const categoryAttributeResponseSchema = lazySchema(() => z.looseObject({ result: z.array(categoryAttributeSchema) }));
export const attributeValueEntrySchema = lazySchema(() => z.looseObject({
  id: int,
  value: z.string(),
  info: z.string().default(''),
  picture: z.string().default(''),
}));
export type OzonAttributeValue = z.infer<typeof attributeValueEntrySchema>;
export const attributeValuesResponseSchema = lazySchema(() => z.looseObject({ result: z.array(attributeValueEntrySchema), has_next: z.boolean().default(false) }));
export const attributeValuesSearchResponseSchema = lazySchema(() => z.looseObject({ result: z.array(attributeValueEntrySchema) }));

// Promotions
export const actionSchema = lazySchema(() => z.looseObject({
  id: int,
  title: z.string(),
  action_type: z.string(),
  description: z.string().default(''),
  date_start: z.string(),
  date_end: z.string(),
  /** When the action froze ('' while it has not): see server/areas/promotions/service.ts frozenSince. */
  freeze_date: z.string().default(''),
  potential_products_count: int.default(0),
  participating_products_count: int.default(0),
  is_participating: z.boolean().default(false),
  discount_type: z.string().optional(),
  discount_value: num.optional(),
}));
export type OzonAction = z.infer<typeof actionSchema>;
export const actionsResponseSchema = lazySchema(() => z.looseObject({ result: z.array(actionSchema) }));
export const actionProductSchema = lazySchema(() => z.looseObject({
  id: int,
  price: num,
  action_price: num,
  max_action_price: num.default(0),
  add_mode: z.string().default(''),
  stock: int.default(0),
  min_stock: int.default(0),
}));
export type OzonActionProduct = z.infer<typeof actionProductSchema>;
export const actionProductsResponseSchema = lazySchema(() => z.looseObject({
  result: withTotal(z.looseObject({
    products: z.array(actionProductSchema),
    total: int,
    last_id: z.union([z.string(), z.number()]).transform(String).default(''),
  })),
}));
export const actionActivateResponseSchema = lazySchema(() => z.looseObject({
  result: z.looseObject({
    product_ids: z.array(int),
    rejected: z.array(z.looseObject({ product_id: int, reason: z.string() })).default([]),
  }),
}));

export const discountTaskSchema = lazySchema(() => z.looseObject({
  id: int,
  created_at: z.string(),
  end_at: z.string().default(''),
  edited_till: z.string().default(''),
  status: z.string(),
  customer_name: z.string().default(''),
  sku: int,
  offer_id: z.string().default(''),
  user_comment: z.string().default(''),
  seller_comment: z.string().default(''),
  requested_price: num,
  approved_price: num.default(0),
  original_price: num.default(0),
  base_price: num.default(0),
  discount: num.default(0),
  discount_percent: num.default(0),
  min_auto_price: num.default(0),
  moderated_at: z.string().default(''),
  requested_quantity_min: int.default(1),
  requested_quantity_max: int.default(1),
  approved_quantity_min: int.default(0),
  approved_quantity_max: int.default(0),
}));
export type OzonDiscountTask = z.infer<typeof discountTaskSchema>;
export const discountTaskListResponseSchema = lazySchema(() => z.looseObject({ result: z.array(discountTaskSchema).default([]) }));
export const discountTaskResultResponseSchema = lazySchema(() => z.looseObject({
  result: z.looseObject({
    fail_details: z.array(z.looseObject({ task_id: int, error_for_user: z.string().default('') })).default([]),
    success_count: int.default(0),
    fail_count: int.default(0),
  }),
}));

// Returns
export const returnSchema = lazySchema(() => z.looseObject({
  id: int,
  type: z.string(),
  schema: z.string(),
  order_id: int,
  order_number: z.string(),
  posting_number: z.string(),
  return_reason_name: z.string().default(''),
  product: z.looseObject({
    sku: int,
    offer_id: z.string(),
    name: z.string(),
    quantity: int,
    price: z.looseObject({ currency_code: z.string(), price: num }).optional(),
  }),
  visual: z
    .looseObject({
      status: z.looseObject({ id: int, display_name: z.string(), sys_name: z.string() }),
      change_moment: z.string(),
    })
    .optional(),
}));
export type OzonReturn = z.infer<typeof returnSchema>;
export const returnsListResponseSchema = lazySchema(() => z.looseObject({
  returns: z.array(returnSchema),
  has_next: z.boolean(),
}));

// rFBS return requests (/v2/returns/rfbs/*). The official file describes `returns` of the list as one object; Ozon
// answers a list, which is what clients read.
const rfbsProductSchema = z.looseObject({
  name: z.string().default(''),
  offer_id: z.string().default(''),
  currency_code: z.string().default(''),
  price: moneyText.default('0'),
  sku: int,
});
export const rfbsReturnSchema = lazySchema(() => z.looseObject({
  return_id: int,
  return_number: z.string().default(''),
  posting_number: z.string(),
  order_number: z.string().default(''),
  client_name: z.string().default(''),
  created_at: z.string(),
  product: rfbsProductSchema,
  state: z.looseObject({
    group_state: z.string().default(''),
    money_return_state_name: z.string().default(''),
    state: z.string(),
    state_name: z.string().default(''),
  }),
}));
export type OzonRfbsReturn = z.infer<typeof rfbsReturnSchema>;
export const rfbsReturnsListResponseSchema = lazySchema(() => z.looseObject({
  returns: z.array(rfbsReturnSchema).default([]),
}));
export const rfbsReturnGetResponseSchema = lazySchema(() => z.looseObject({
  returns: z.looseObject({
    available_actions: z.array(z.looseObject({ id: int, name: z.string() })).default([]),
    client_name: z.string().default(''),
    client_photo: z.array(z.string()).default([]),
    comment: z.string().default(''),
    created_at: z.string(),
    order_number: z.string().default(''),
    posting_number: z.string(),
    product: rfbsProductSchema,
    rejection_comment: z.string().default(''),
    rejection_reason: z.array(z.looseObject({ id: int, name: z.string(), hint: z.string().default(''), is_comment_required: z.boolean().default(false) })).default([]),
    return_method_description: z.string().default(''),
    return_number: z.string().default(''),
    return_reason: z.looseObject({ id: int, name: z.string(), is_defect: z.boolean().default(false) }).optional(),
    ru_post_tracking_number: z.string().default(''),
    state: z.looseObject({ state: z.string(), state_name: z.string().default('') }),
    warehouse_id: int.optional(),
  }),
}));
export type OzonRfbsReturnDetail = z.infer<typeof rfbsReturnGetResponseSchema>['returns'];
export const emptyResponseSchema = lazySchema(() => z.looseObject({}));

// Chats
export const chatListResponseSchema = lazySchema(() => z.looseObject({
  chats: z.array(
    z.looseObject({
      chat: z.looseObject({
        chat_id: z.string(),
        chat_type: z.string(),
        chat_status: z.string(),
        created_at: z.string(),
      }),
      first_unread_message_id: bigId.default('0'),
      last_message_id: bigId.default('0'),
      unread_count: int.default(0),
    }),
  ),
  total_unread_count: int.default(0),
  cursor: z.string().default(''),
  has_next: z.boolean().default(false),
}));
export type OzonChat = z.infer<typeof chatListResponseSchema>['chats'][number];
export const chatMessageSchema = lazySchema(() => z.looseObject({
  message_id: bigId,
  created_at: z.string(),
  user: z.looseObject({ id: z.string(), type: z.string() }),
  data: z.array(z.string()),
  is_image: z.boolean().default(false),
  is_read: z.boolean().default(false),
  context: z.looseObject({ order_number: z.string().optional(), sku: z.string().optional() }).nullish(),
}));
export type OzonChatMessage = z.infer<typeof chatMessageSchema>;
export const chatHistoryResponseSchema = lazySchema(() => z.looseObject({
  messages: z.array(chatMessageSchema),
  has_next: z.boolean().default(false),
}));
export const chatSendResponseSchema = lazySchema(() => z.looseObject({ result: z.string() }));
export const chatReadResponseSchema = lazySchema(() => z.looseObject({ unread_count: int }));
export const chatStartResponseSchema = lazySchema(() => z.looseObject({ result: z.looseObject({ chat_id: z.string() }) }));

// Analytics and finance
export const analyticsResponseSchema = lazySchema(() => z.looseObject({
  result: z.looseObject({
    data: z.array(
      z.looseObject({
        dimensions: z.array(z.looseObject({ id: z.string(), name: z.string().default('') })),
        metrics: z.array(num),
      }),
    ),
    totals: z.array(num).default([]),
  }),
  timestamp: z.string().optional(),
}));
export type OzonAnalytics = z.infer<typeof analyticsResponseSchema>['result'];
export const financeTransactionSchema = lazySchema(() => z.looseObject({
  operation_id: int,
  operation_type: z.string(),
  operation_type_name: z.string().default(''),
  operation_date: z.string(),
  amount: num,
  accruals_for_sale: num.default(0),
  sale_commission: num.default(0),
  delivery_charge: num.default(0),
  return_delivery_charge: num.default(0),
  type: z.string(),
  posting: z.looseObject({ posting_number: z.string().default(''), warehouse_id: int.optional() }).optional(),
}));
export type OzonFinanceTransaction = z.infer<typeof financeTransactionSchema>;
export const financeTransactionListResponseSchema = lazySchema(() => z.looseObject({
  result: z.looseObject({
    operations: z.array(financeTransactionSchema),
    page_count: int,
    row_count: int,
  }),
}));

// Search queries of the seller's own SKUs. Position, views and conversion are empty without Ozon Premium.
const analyticsPeriodSchema = () => z.looseObject({ date_from: z.string().default(''), date_to: z.string().default('') });
const premiumNum = num.nullish().transform((value) => value ?? null);
/** What both calls say of a SKU or a query: searchers, and (Premium) viewers, position and conversion, and sales. */
const queryFigures = () => ({
  currency: z.string().default('RUB'),
  gmv: num.default(0),
  unique_search_users: int.default(0),
  unique_view_users: premiumNum,
  position: premiumNum,
  view_conversion: premiumNum,
});
export const productQueriesResponseSchema = lazySchema(() => z.looseObject({
  analytics_period: analyticsPeriodSchema().optional(),
  items: z.array(z.looseObject({ sku: bigId, offer_id: z.string().default(''), name: z.string().default(''), category: z.string().default(''), ...queryFigures() })).default([]),
  page_count: int.default(0),
  total: int.default(0),
}));
export type OzonProductQueriesItem = z.infer<typeof productQueriesResponseSchema>['items'][number];
export const productQueriesDetailsResponseSchema = lazySchema(() => z.looseObject({
  analytics_period: analyticsPeriodSchema().optional(),
  queries: z.array(z.looseObject({ sku: bigId, query: z.string(), query_index: int.default(0), order_count: int.default(0), ...queryFigures() })).default([]),
  page_count: int.default(0),
  total: int.default(0),
}));
export type OzonProductQuery = z.infer<typeof productQueriesDetailsResponseSchema>['queries'][number];
