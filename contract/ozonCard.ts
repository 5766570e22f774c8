import { CARD_LIMITS, type CardAttribute, type CardDraft, type CategoryAttribute } from './create';
import type { MessageKey, MessageParams } from './errors';
import { checkPrice } from './productRules';

/**
 * Ozon's rules for a new card (seller API /v3/product/import and the category's attributes), checked before
 * anything is sent: by the attribute form against each field as the seller types, and by /CreateProduct, which
 * refuses a card that breaks one. A problem names its field and a catalogue key (contract/errors.ts), so each side
 * shows it in the user's language.
 *
 * Field names: `category`, `name`, `images`, `depth`, `width`, `height`, `weight`, `attr.<id>` for a card
 * attribute, and `variants.<i>.offerId|price|oldPrice|attr.<id>` for a variant's own.
 */
export type CardProblem = { field: string; key: MessageKey; params?: MessageParams };

export const attributeField = (attributeId: number, variant?: number) => (variant === undefined ? `attr.${attributeId}` : `variants.${variant}.attr.${attributeId}`);
export const variantField = (variant: number, name: 'offerId' | 'price' | 'oldPrice') => `variants.${variant}.${name}`;

/** Ozon's model-name attribute: variants with the same model name are shown as one card with a choice between them. */
export const MODEL_NAME_ATTRIBUTE = 9048;

/** The attributes set per variant (they tell the variants apart) and those the card shares. */
export function splitAttributes(attributes: readonly CategoryAttribute[]) {
  return { shared: attributes.filter((a) => !a.isAspect), perVariant: attributes.filter((a) => a.isAspect) };
}

/** The values that count: dictionary picks and non-blank texts. */
export function filledValues(attribute: CardAttribute | undefined) {
  return (attribute?.values ?? []).filter((v) => v.dictionaryValueId !== undefined || v.value.trim() !== '');
}

const MONEY = /^\d{1,9}(\.\d{1,2})?$/;

function checkAttribute(def: CategoryAttribute, given: CardAttribute | undefined, field: string, problems: CardProblem[], required = true) {
  const values = filledValues(given);
  const name = def.name;
  if (values.length === 0) {
    if (def.isRequired && required) problems.push({ field, key: 'cardAttributeRequired', params: { name } });
    return;
  }
  // A collection's max_value_count of 0 sets no limit of its own.
  const max = def.isCollection ? (def.maxValueCount > 0 ? def.maxValueCount : Infinity) : 1;
  if (values.length > max) {
    problems.push({ field, key: 'cardAttributeTooMany', params: { name, max: String(max) } });
    return;
  }
  if (def.dictionaryId > 0) {
    if (values.some((v) => v.dictionaryValueId === undefined)) problems.push({ field, key: 'cardAttributeFromDictionary', params: { name } });
    return;
  }
  const texts = values.map((v) => v.value.trim());
  if (def.type === 'Integer' && texts.some((v) => !/^-?\d+$/.test(v))) problems.push({ field, key: 'cardAttributeNotInteger', params: { name } });
  else if (def.type === 'Decimal' && texts.some((v) => !/^-?\d+([.,]\d+)?$/.test(v))) problems.push({ field, key: 'cardAttributeNotNumber', params: { name } });
  else if (def.type === 'Boolean' && texts.some((v) => v !== 'true' && v !== 'false')) problems.push({ field, key: 'cardAttributeNotBoolean', params: { name } });
  else if (texts.some((v) => v.length > CARD_LIMITS.value)) problems.push({ field, key: 'cardAttributeTooLong', params: { name, max: String(CARD_LIMITS.value) } });
}

function checkMoney(text: string, field: string, problems: CardProblem[]): number | null {
  const trimmed = text.trim();
  if (!MONEY.test(trimmed)) {
    problems.push({ field, key: 'cardPriceInvalid' });
    return null;
  }
  return Number(trimmed);
}

/**
 * What Ozon would refuse in a card's attribute values: the shared ones and each variant's own (`variants[i]`), against
 * the type's attributes. `required: false` leaves out the empty required ones (a draft being saved); values of an
 * attribute the type does not have are refused either way.
 */
export function checkAttributes(
  shared: readonly CardAttribute[],
  variants: readonly (readonly CardAttribute[])[],
  attributes: readonly CategoryAttribute[],
  { required = true }: { required?: boolean } = {},
): CardProblem[] {
  const problems: CardProblem[] = [];
  const known = new Set(attributes.map((a) => a.id));
  const unknown = [...shared, ...variants.flat()].find((a) => !known.has(a.id) && filledValues(a).length > 0);
  if (unknown) problems.push({ field: attributeField(unknown.id), key: 'cardAttributeUnknown', params: { id: String(unknown.id) } });
  const split = splitAttributes(attributes);
  for (const def of split.shared) checkAttribute(def, shared.find((a) => a.id === def.id), attributeField(def.id), problems, required);
  variants.forEach((own, i) => {
    for (const def of split.perVariant) checkAttribute(def, own.find((a) => a.id === def.id), attributeField(def.id, i), problems, required);
  });
  return problems;
}

/**
 * Everything Ozon would refuse in this card, in the order of the form. `attributes` are the chosen type's
 * (null while they load: the attribute checks wait for them).
 */
export function checkCard(card: CardDraft, attributes: readonly CategoryAttribute[] | null): CardProblem[] {
  const problems: CardProblem[] = [];
  if (card.categoryId === null || card.typeId === null) problems.push({ field: 'category', key: 'cardCategoryRequired' });
  const name = card.name.trim();
  if (name === '') problems.push({ field: 'name', key: 'cardNameRequired' });
  else if (name.length > CARD_LIMITS.name) problems.push({ field: 'name', key: 'cardNameTooLong', params: { max: String(CARD_LIMITS.name) } });

  if (attributes) problems.push(...checkAttributes(card.attributes, card.variants.map((v) => v.attributes), attributes));

  const images = card.images.filter((url) => url.trim() !== '');
  if (images.length === 0) problems.push({ field: 'images', key: 'cardImagesRequired' });
  else if (images.length > CARD_LIMITS.images) problems.push({ field: 'images', key: 'cardImagesTooMany', params: { max: String(CARD_LIMITS.images) } });
  else if (images.some((url) => !/^https?:\/\/[^\s/]+\/\S*$/.test(url.trim()))) problems.push({ field: 'images', key: 'cardImageUrl' });

  for (const side of ['depth', 'width', 'height', 'weight'] as const) {
    const value = card[side];
    const max = side === 'weight' ? CARD_LIMITS.weightG : CARD_LIMITS.sideMm;
    if (value === null || !(value > 0)) problems.push({ field: side, key: 'cardDimensionRequired' });
    else if (value > max) problems.push({ field: side, key: 'cardDimensionTooLarge' });
  }

  const offerIds = new Map<string, number>();
  card.variants.forEach((variant, i) => {
    const offerId = variant.offerId.trim();
    if (offerId === '') problems.push({ field: variantField(i, 'offerId'), key: 'cardOfferIdRequired' });
    else if (offerId.length > CARD_LIMITS.offerId) problems.push({ field: variantField(i, 'offerId'), key: 'cardOfferIdTooLong', params: { max: String(CARD_LIMITS.offerId) } });
    else if (offerIds.has(offerId)) problems.push({ field: variantField(i, 'offerId'), key: 'cardOfferIdDuplicate' });
    else offerIds.set(offerId, i);

    const price = checkMoney(variant.price, variantField(i, 'price'), problems);
    const oldPrice = variant.oldPrice.trim() === '' ? 0 : checkMoney(variant.oldPrice, variantField(i, 'oldPrice'), problems);
    if (price !== null && oldPrice !== null) {
      const refusal = checkPrice({ price, oldPrice });
      if (refusal) problems.push({ field: variantField(i, refusal.key === 'priceNotPositive' ? 'price' : 'oldPrice'), key: refusal.key, params: refusal.params });
    }
  });
  return problems;
}

/** An empty card with one variant, priced in `currency`. */
export function emptyCard(currency: CardDraft['currency'] = 'CNY'): CardDraft {
  return {
    categoryId: null,
    typeId: null,
    name: '',
    attributes: [],
    images: [],
    depth: null,
    width: null,
    height: null,
    weight: null,
    vat: '0',
    currency,
    variants: [{ offerId: '', price: '', oldPrice: '', barcode: '', attributes: [] }],
  };
}
