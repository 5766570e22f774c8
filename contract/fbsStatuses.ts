/**
 * The statuses of an FBS posting (Ozon Seller API, v3/v4 posting shapes). Their own module, without schemas: the
 * order pages need the list for their status filter, and importing it from the schema modules evaluated every
 * order and Ozon schema (zod) on the main thread as the page's chunk loaded (~20 ms at a cold start).
 */
export const FBS_STATUSES = [
  'awaiting_registration',
  'acceptance_in_progress',
  'awaiting_approve',
  'awaiting_packaging',
  'awaiting_deliver',
  'arbitration',
  'client_arbitration',
  'delivering',
  'driver_pickup',
  'delivered',
  'cancelled',
  'not_accepted',
  'sent_by_seller',
] as const;
export type FbsStatus = (typeof FBS_STATUSES)[number];
