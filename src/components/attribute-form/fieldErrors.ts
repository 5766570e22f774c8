import type { CardDraft, CategoryAttribute, CreateItem } from '@contract/create';
import { attributeField } from '@contract/ozonCard';

/** A message shown against one field of the form (`field` as in contract/ozonCard.ts; '' concerns the whole card). */
export type FieldMessage = { field: string; message: string };

const VARIANT_FIELDS = new Set(['offerId', 'price', 'oldPrice', 'barcode']);

/**
 * Ozon's import errors of a create task as messages against the form's fields: an error of one variant's item goes
 * to that variant's field (its offer id, price, aspect attribute), an error of the shared card to the card's field,
 * once however many variants repeat it.
 */
export function importErrorsByField(items: readonly CreateItem[], card: CardDraft, attributes: readonly CategoryAttribute[] | null): FieldMessage[] {
  const aspects = new Set((attributes ?? []).filter((a) => a.isAspect).map((a) => a.id));
  const seen = new Set<string>();
  const out: FieldMessage[] = [];
  for (const item of items) {
    const variant = card.variants.findIndex((v) => v.offerId.trim() === item.offerId);
    for (const error of item.errors) {
      let field = error.field;
      if (error.attributeId !== null) field = aspects.has(error.attributeId) && variant >= 0 ? attributeField(error.attributeId, variant) : attributeField(error.attributeId);
      else if (VARIANT_FIELDS.has(field)) field = variant >= 0 ? `variants.${variant}.${field}` : '';
      const key = `${field}\n${error.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ field, message: error.message });
    }
  }
  return out;
}
