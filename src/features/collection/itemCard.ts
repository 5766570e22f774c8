import type { CollectionItem, CollectionUpdate, OzonAttributeValue } from '@contract/collection';
import type { CardAttribute, CardDraft, CategoryAttribute } from '@contract/create';
import { checkAttributes, emptyCard, filledValues, type CardProblem } from '@contract/ozonCard';

/**
 * A collected item's Ozon category and attribute values as the card form (AttributeForm) edits them: the values the
 * card shares, and each variant's own (the type's per-variant attributes), kept by variant key so that choosing
 * other variants loses nothing. An item without variants is one card: its own values are the item's.
 */
export type ItemAttributes = {
  categoryId: number | null;
  typeId: number | null;
  shared: CardAttribute[];
  /** By variant key; '' for an item without variants. */
  own: Record<string, CardAttribute[]>;
};

/** Ozon's common attributes the source page fills at collection (model name, annotation, weight): kept when the type changes. */
const SOURCE_FILLED = new Set([9048, 4191, 4383]);
const NO_VARIANTS = '';

const toCard = (values: readonly OzonAttributeValue[]): CardAttribute[] => values.map((a) => ({ id: a.id, values: a.values }));
const toOzon = (values: readonly CardAttribute[], known: ReadonlySet<number> | null): OzonAttributeValue[] =>
  values.flatMap((a) => {
    const filled = filledValues(a);
    return filled.length && (!known || known.has(a.id)) ? [{ id: a.id, complexId: 0, values: filled.map((v) => ({ ...v, value: v.value.trim() })) }] : [];
  });

export function itemAttributesOf(item: CollectionItem): ItemAttributes {
  const own = item.variants.length ? Object.fromEntries(item.variants.map((v) => [v.key, toCard(v.ozonAttributes)])) : { [NO_VARIANTS]: toCard(item.ozonAttributes) };
  return { categoryId: item.categoryId, typeId: item.typeId, shared: toCard(item.ozonAttributes), own };
}

/** The rows of the form's variant table: the chosen variants' keys (the item itself when it has none). */
export const rowKeysOf = (item: CollectionItem, chosen: readonly string[]) => (item.variants.length ? [...chosen] : [NO_VARIANTS]);

/** The card the form shows; only the category and the attributes matter here (the editor keeps the rest itself). */
export function cardOf(state: ItemAttributes, rows: readonly string[]): CardDraft {
  return {
    ...emptyCard(),
    categoryId: state.categoryId,
    typeId: state.typeId,
    attributes: state.shared,
    variants: rows.map((key) => ({ offerId: key, price: '', oldPrice: '', barcode: '', attributes: state.own[key] ?? [] })),
  };
}

/** The form's change taken back; another type starts again from what the source page gave. */
export function withCardChange(state: ItemAttributes, next: CardDraft, rows: readonly string[], item: CollectionItem): ItemAttributes {
  if (next.categoryId !== state.categoryId || next.typeId !== state.typeId) {
    return { categoryId: next.categoryId, typeId: next.typeId, shared: toCard(item.ozonAttributes).filter((a) => SOURCE_FILLED.has(a.id)), own: {} };
  }
  const own = { ...state.own };
  rows.forEach((key, i) => (own[key] = next.variants[i]?.attributes ?? []));
  return { ...state, shared: next.attributes, own };
}

/** What Ozon would refuse in the rows' values (the required ones included): the upload's own check. */
export function attributeProblems(state: ItemAttributes, rows: readonly string[], attributes: readonly CategoryAttribute[]): CardProblem[] {
  return checkAttributes(state.shared, rows.map((key) => state.own[key] ?? []), attributes);
}

/**
 * The update's category and attribute part. Values of attributes the type does not have are left out once the
 * type's attributes are known (`attributes`); an item without variants keeps its own values with the shared ones.
 */
export function attributesUpdate(
  state: ItemAttributes,
  item: CollectionItem,
  attributes: readonly CategoryAttribute[] | null,
): Pick<CollectionUpdate, 'categoryId' | 'typeId' | 'ozonAttributes'> & { variantAttributes: Record<string, OzonAttributeValue[]> } {
  const known = attributes ? new Set(attributes.map((a) => a.id)) : null;
  const mapped = state.categoryId !== null && state.typeId !== null;
  let shared = state.shared;
  if (!item.variants.length && attributes) {
    // The form keeps the per-variant ones in the one row: those values are the item's.
    const aspects = new Set(attributes.filter((a) => a.isAspect).map((a) => a.id));
    shared = [...shared.filter((a) => !aspects.has(a.id)), ...(state.own[NO_VARIANTS] ?? []).filter((a) => aspects.has(a.id))];
  }
  const variantAttributes = Object.fromEntries(item.variants.map((v) => [v.key, toOzon(state.own[v.key] ?? [], known)]));
  return { categoryId: mapped ? state.categoryId : null, typeId: mapped ? state.typeId : null, ozonAttributes: toOzon(shared, known), variantAttributes };
}
