import { timestamp } from 'drizzle-orm/pg-core';

/** A `timestamp with time zone` read and written as a Date: every time column of the schema. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
