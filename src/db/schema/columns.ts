// Column shapes every table writes the same way.
import { timestamp } from 'drizzle-orm/pg-core';

/** A point in time: `timestamptz`, read as a Date. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** When the row was written; the database fills it. */
export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** When the row last changed; set by the writer on each update, the database fills the first. */
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();
