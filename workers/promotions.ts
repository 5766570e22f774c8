import { COST_ENDPOINTS, COST_IMPORT_FILE_FIELD, type CostImportAnswer, type CostListQuery, type CostRow, type CostSetInput } from '../contract/costs';
import {
  ACTION_PRODUCT_LIST,
  marginPercent,
  PROMOTION_ENDPOINTS,
  type ActionAddInput,
  type ActionInfoAnswer,
  type ActionListAnswer,
  type ActionProductListRow,
  type ActionProductRow,
  type ActionRef,
  type ActionRemoveInput,
  type DiscountApproveInput,
  type DiscountDeclineInput,
  type DiscountListAnswer,
  type DiscountView,
  type GuardLogRow,
  type GuardRunAnswer,
  type GuardSetInput,
  type PriceGuard,
  type ProductOutcomes,
  type TaskOutcomes,
} from '../contract/promotions';
import type { HttpClient } from './http/client';
import { ListEngine } from './lists/engine';
import type { ListQuery, ListQueryResult, ListWindow } from './lists/types';

export type ActionProductsView = 'products' | 'candidates';
export type ActionProductQuery = ListQuery<{ addModes?: string[]; guard?: string[]; price?: { min?: number; max?: number } }>;

/**
 * Promotions (contract/promotions.ts) and cost prices (contract/costs.ts). An action's products and candidates
 * (thousands per action) are held here in the list engine, one per view, and the page reads them a window at a time.
 */
export type PromotionsApi = {
  actions(): Promise<ActionListAnswer>;
  actionInfo(ref: ActionRef): Promise<ActionInfoAnswer>;
  /** Reads an action's products or candidates from the server into the view's engine; answers how many. */
  openProducts(view: ActionProductsView, ref: ActionRef): Promise<{ rows: number; total: number; truncated: boolean }>;
  queryProducts(view: ActionProductsView, query: ActionProductQuery): Promise<ListQueryResult>;
  /** Rows the view holds (after an add or a removal moved some between the views). */
  heldProducts(view: ActionProductsView): Promise<number>;
  windowProducts(view: ActionProductsView, handle: number, start: number, count: number): Promise<ListWindow<ActionProductListRow>>;
  /** Adds products; those Ozon took move from the held candidates to the held products at once. */
  add(input: ActionAddInput): Promise<ProductOutcomes>;
  /** Removes products; those Ozon let go move back to the held candidates at once. */
  remove(input: ActionRemoveInput): Promise<ProductOutcomes>;
  guards(): Promise<{ guards: PriceGuard[] }>;
  setGuard(input: GuardSetInput): Promise<PriceGuard>;
  setGuardAction(input: { storeId: number; actionId: number; enabled: boolean }): Promise<PriceGuard>;
  runGuard(input: { storeId?: number }): Promise<GuardRunAnswer>;
  guardLog(query: { page: number; rows: number; storeId?: number }): Promise<{ list: GuardLogRow[]; total: number }>;
  discounts(view: DiscountView): Promise<DiscountListAnswer>;
  approve(input: DiscountApproveInput): Promise<TaskOutcomes>;
  decline(input: DiscountDeclineInput): Promise<TaskOutcomes>;
  costs(query: CostListQuery): Promise<{ list: CostRow[]; total: number }>;
  setCosts(input: CostSetInput): Promise<{ saved: number; removed: number }>;
  importCosts(file: File): Promise<CostImportAnswer>;
};

/** A row of the server's answer as the engine holds it. */
export function toListRow(row: ActionProductRow, view: ActionProductsView): ActionProductListRow {
  const price = view === 'products' ? row.actionPrice : row.maxActionPrice;
  return {
    ...row,
    id: String(row.productId),
    guard: row.floor === null ? 'none' : price < row.floor ? 'below' : 'ok',
    deleted: false,
  };
}

/** A held row as it is once it joined the action at `actionPrice`, or left it (`actionPrice` null). */
function moved(row: ActionProductListRow, actionPrice: number | null): ActionProductListRow {
  const to: ActionProductsView = actionPrice === null ? 'candidates' : 'products';
  const price = actionPrice ?? 0;
  const { id: _id, guard: _guard, deleted: _deleted, ...fields } = row;
  return toListRow(
    { ...fields, actionPrice: price, addMode: actionPrice === null ? 'NOT_SET' : 'MANUAL', marginPercent: marginPercent(actionPrice ?? row.maxActionPrice, row.cost) },
    to,
  );
}

export function createPromotionsApi(client: HttpClient): PromotionsApi {
  const E = PROMOTION_ENDPOINTS;
  const engines = new Map<ActionProductsView, ListEngine<ActionProductListRow, ActionProductQuery>>();
  /** The action each view's engine holds (`storeId:actionId`). */
  const holds = new Map<ActionProductsView, string>();
  const keyOf = (ref: ActionRef) => `${ref.storeId}:${ref.actionId}`;
  /**
   * Writes an add's or a removal's outcome into the held rows, so the lists show it without reading the action's
   * thousands of products from Ozon again: the rows Ozon took leave one view and enter the other.
   */
  const move = (ref: ActionRef, from: ActionProductsView, to: ActionProductsView, outcomes: ProductOutcomes, priceOf: (productId: number) => number | null) => {
    const key = keyOf(ref);
    const source = holds.get(from) === key ? engineOf(from) : null;
    const target = holds.get(to) === key ? engineOf(to) : null;
    const ids = outcomes.outcomes.filter((o) => o.ok).map((o) => String(o.productId));
    if (!source || ids.length === 0) return;
    const rows = ids.flatMap((id) => source.get(id) ?? []);
    source.remove(ids);
    target?.upsert(rows.map((row) => moved(row, priceOf(row.productId))));
  };
  const engineOf = (view: ActionProductsView) => {
    let engine = engines.get(view);
    if (!engine) {
      engine = new ListEngine<ActionProductListRow, ActionProductQuery>(ACTION_PRODUCT_LIST);
      engines.set(view, engine);
    }
    return engine;
  };
  return {
    actions: () => client.call(E.actionList, {}),
    actionInfo: (ref) => client.call(E.actionInfo, ref),
    async openProducts(view, ref) {
      const answer = await client.call(view === 'products' ? E.actionProducts : E.actionCandidates, ref);
      const engine = engineOf(view);
      engine.load(answer.rows.map((row) => toListRow(row, view)));
      holds.set(view, keyOf(ref));
      return { rows: engine.size, total: answer.total, truncated: answer.truncated };
    },
    queryProducts: (view, query) => engineOf(view).query(query, view),
    heldProducts: async (view) => engineOf(view).size,
    windowProducts: async (view, handle, start, count) => engineOf(view).window(handle, start, count),
    async add(input) {
      const outcomes = await client.call(E.actionAdd, input);
      const prices = new Map(input.products.map((p) => [p.productId, p.actionPrice]));
      move(input, 'candidates', 'products', outcomes, (id) => prices.get(id) ?? 0);
      return outcomes;
    },
    async remove(input) {
      const outcomes = await client.call(E.actionRemove, input);
      move(input, 'products', 'candidates', outcomes, () => null);
      return outcomes;
    },
    guards: () => client.call(E.guardList),
    setGuard: (input) => client.call(E.guardSet, input),
    setGuardAction: (input) => client.call(E.guardAction, input),
    runGuard: (input) => client.call(E.guardRun, input),
    guardLog: (query) => client.call(E.guardLog, query),
    discounts: (view) => client.call(E.discountList, { view }),
    approve: (input) => client.call(E.discountApprove, input),
    decline: (input) => client.call(E.discountDecline, input),
    costs: (query) => client.call(COST_ENDPOINTS.list, query),
    setCosts: (input) => client.call(COST_ENDPOINTS.set, input),
    importCosts: (file) => {
      const form = new FormData();
      form.append(COST_IMPORT_FILE_FIELD, file, file.name);
      return client.call(COST_ENDPOINTS.import, form);
    },
  };
}
