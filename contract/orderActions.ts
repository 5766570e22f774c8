/**
 * The `field` of the 400 the label call answers while Ozon has not made a shipped posting's label yet (45–60 s after
 * ship): the order-actions machine tells this refusal (wait and fetch again) from the others (ship first, entered
 * orders have no label) by it, whatever language the message is in.
 */
export const LABELS_NOT_READY_FIELD = 'labelsNotReady';
