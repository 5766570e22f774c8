import { customType, timestamp } from 'drizzle-orm/pg-core';

/** A `timestamp with time zone` read and written as a Date: every time column of the schema. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Bytes (`bytea`) read as a Buffer whichever driver answers (PGlite gives a Uint8Array). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
