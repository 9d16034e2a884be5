/**
 * The migrations that convert stored values, on each engine: a database migrated up to the one before,
 * rows written in the old words, then the rest of the migrations; the rows read back in the new words.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { defaultMigrationsFolder, migrateDb } from '../../src/db/migrate.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { styleEnrichments } from '../../src/db/schema/holdings.ts';
import { decisionMetadata } from '../../src/db/schema/precedents.ts';
import type { DbHandle } from '../../src/db/types.ts';
import { forEachDb } from '../harness/databases.ts';

interface Journal {
  entries: { tag: string }[];
}

const folders: string[] = [];
afterAll(async () => {
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

/** Applies the committed migrations before `tag` (a copy of the folder whose journal stops there). */
async function migrateBefore(handle: DbHandle, tag: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'chambers-migrations-'));
  folders.push(dir);
  await cp(defaultMigrationsFolder, dir, { recursive: true });
  const path = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(path, 'utf8')) as Journal;
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at, `migration ${tag}`).toBeGreaterThan(0);
  await writeFile(path, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  await migrateDb(handle, dir);
}

/** A library document with a stored outcome in `outcome`, as rows were written before 0014. */
async function libraryDocument(handle: DbHandle, n: number, outcome: string | null): Promise<string> {
  const id = crypto.randomUUID();
  // Only the columns the table had then (a later migration adds others the schema's insert would name).
  await handle.db.execute(
    sql`insert into documents (id, corpus, sha256, media_type, byte_size, title, created_by)
        values (${id}, 'library', ${`${n}`.padStart(64, '0')}, 'text/plain', 1, ${`פסק דין ${n}`}, 'test')`,
  );
  // The old vocabulary is no longer the column's type: the cast stands for a row an older version wrote.
  const old = outcome as (typeof decisionMetadata.$inferInsert)['outcome'];
  await handle.db.execute(
    sql`insert into decision_metadata (document_id, outcome, sources, provenance, extractor_version)
        values (${id}, ${old ?? null}, '{}'::jsonb, '{}'::jsonb, 'metadata@1')`,
  );
  await handle.db
    .insert(styleEnrichments)
    .values({ documentId: id, segmenterVersion: 'style@1', outcome: old, segments: 0 });
  return id;
}

forEachDb(
  'migrations that convert stored values',
  (db) => {
    it('0014 gives the library and the style corpus the committee’s outcome words', async () => {
      await migrateBefore(db(), '0014_outcome_vocabulary');
      const old = ['rejected', 'partially_accepted', 'accepted', null];
      const ids = [];
      for (const [i, o] of old.entries()) ids.push(await libraryDocument(db(), i, o));
      await migrateDb(db());
      const expected = ['rejection', 'partial_acceptance', 'full_acceptance', null];
      for (const [i, id] of ids.entries()) {
        const [meta] = await db()
          .db.select()
          .from(decisionMetadata)
          .where(eq(decisionMetadata.documentId, id));
        const [style] = await db()
          .db.select()
          .from(styleEnrichments)
          .where(eq(styleEnrichments.documentId, id));
        expect([meta?.outcome, style?.outcome]).toEqual([expected[i], expected[i]]);
      }
    });

    it('0015 gives cases the library’s practice areas, and keeps a value it cannot map in the notes', async () => {
      await migrateBefore(db(), '0015_case_practice_areas');
      const old: [string | null, string | null][] = [
        ['betterment levy', null],
        [' Permit ', 'ישיבה ראשונה'],
        ['plan', null],
        ['היטל השבחה', null],
        ['planning', null],
        ['רישוי עסקים', 'הערה'],
        [null, null],
      ];
      const ids: string[] = [];
      for (const [i, [area, notes]] of old.entries()) {
        const id = crypto.randomUUID();
        ids.push(id);
        await db()
          .db.insert(cases)
          // A free-text area is no longer the column's type: the cast stands for a row an older version wrote.
          .values({
            id,
            caseNumber: `ערר ${i}/25`,
            title: 't',
            practiceArea: area as (typeof cases.$inferInsert)['practiceArea'],
            notes,
            createdBy: 'test',
          });
      }
      await migrateDb(db());
      const rows = await db().db.select().from(cases);
      const byId = new Map(rows.map((r) => [r.id, [r.practiceArea, r.notes]]));
      expect(ids.map((id) => byId.get(id))).toEqual([
        ['betterment_levy', null],
        ['permits', 'ישיבה ראשונה'],
        ['planning', null],
        ['betterment_levy', null],
        ['planning', null],
        [null, 'הערה\n\nתחום: רישוי עסקים'],
        [null, null],
      ]);
    });
  },
  { migrate: false, fresh: 'test' },
);
