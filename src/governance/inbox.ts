// The project inbox (hai_park puts ideas in, hai_inbox_list and the console read them back): one item as the
// tools return it, and the bounded read the console shows.
import * as z from 'zod';
import { desc, eq } from '../db/orm.ts';
import { haiInbox } from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';

export type InboxRow = typeof haiInbox.$inferSelect;

export const inboxItemOutput = z.object({
  id: z.uuid().describe('The inbox item id'),
  project_id: z.string().describe('The project whose inbox holds it'),
  text: z.string().describe('The idea or request as parked'),
  source: z.string().nullable().describe('Where it came from, if given'),
  parked_by: z.string().describe('The agent that parked it first'),
  parked_at: z.iso.datetime().describe('When it was parked'),
});

export const inboxItemView = (row: InboxRow): z.input<typeof inboxItemOutput> => ({
  id: row.id,
  project_id: row.projectId,
  text: row.text,
  source: row.source,
  parked_by: row.parkedBy,
  parked_at: row.parkedAt.toISOString(),
});

/** A project's latest inbox items (every project's when `projectId` is null), newest first, at most `limit`. */
export const latestInbox = (db: Db, projectId: string | null, limit: number) => {
  const q = db.select().from(haiInbox);
  return (projectId === null ? q : q.where(eq(haiInbox.projectId, projectId)))
    .orderBy(desc(haiInbox.parkedAt), desc(haiInbox.id))
    .limit(limit);
};
