// missing_precedent_create through the official MCP client: one open record per normalised number whatever
// its written form (asking again returns it), tied to a live case; the refusals (no number, one already in
// the library, a deleted case), 20 identical calls at once, and a caller without the grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { missing_precedent_create } from '../../../functions/missing_precedent/missing_precedent_create.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { missingPrecedents } from '../../../src/db/schema/precedents.ts';
import { ALL_STACKS, DB_STACKS, deleteCase, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { deniedPrecedent, precedentCounts, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof missing_precedent_create>;

forEachStack('missing_precedent_create', DB_STACKS, (server) => {
  const create = (args: Record<string, unknown>) =>
    server().call('researcher', 'missing_precedent_create', args);

  it(
    'records a missing ruling once per number, in any written form',
    async () => {
      const caseId = await seedCase(server().db.db);
      const first = expectOk<Data>(
        await create({
          citation: 'עע״מ 8123/20 לוי נ׳ הוועדה',
          case_id: caseId,
          context: 'נדרש לשאלת מקדם הדחייה',
        }),
      );
      expect(first.created).toBe(true);
      expect(first.missing_precedent).toMatchObject({
        key: 'עע"מ 8123/20',
        case_id: caseId,
        status: 'open',
        created_by: 'researcher',
      });
      const again = expectOk<Data>(await create({ citation: 'עע"מ 8123/2020', context: 'שוב' }));
      expect(again).toMatchObject({
        created: false,
        missing_precedent: { missing_precedent_id: first.missing_precedent.missing_precedent_id },
      });
    },
    SLOW,
  );

  it(
    'refuses no number (invalid_args), a ruling already in the library (invalid_state), a deleted case (not_found)',
    async () => {
      const db = server().db.db;
      await seedLibrary(db, { names: ['R01'] });
      expectOk(
        await server().call('researcher', 'library_metadata_extract', { all_pending: true, wait_ms: 10_000 }),
      );
      const caseId = await seedCase(db);
      await deleteCase(db, caseId);
      const before = await precedentCounts(db);
      expect(errorCode(await create({ citation: 'פסק דין כלשהו', context: 'הקשר' }))).toBe('invalid_args');
      expect(errorCode(await create({ citation: 'ע"א 1/20, ע"א 2/20', context: 'הקשר' }))).toBe(
        'invalid_args',
      );
      const present = await create({ citation: 'עע"מ 9001/19', context: 'הקשר' });
      expect(errorCode(present)).toBe('invalid_state');
      expect(present.ok ? '' : present.error.hint).toContain('library_get');
      expect(errorCode(await create({ citation: 'ע"א 7/21', case_id: caseId, context: 'הקשר' }))).toBe(
        'not_found',
      );
      expect(await precedentCounts(db)).toEqual(before);
    },
    SLOW,
  );
});

forEachStack('missing_precedent_create at once', ALL_STACKS, (server) => {
  it(
    '20 identical calls record one missing precedent',
    async () => {
      const answers = await twentyAtOnce(
        server(),
        'missing_precedent_create',
        { citation: 'בג"ץ 3131/22', context: 'נדרש' },
        ['researcher'],
      );
      for (const a of answers) expect(a.ok).toBe(true);
      const ids = new Set(
        answers.map((a) => (a.ok ? (a.data as Data).missing_precedent.missing_precedent_id : '')),
      );
      expect(ids.size).toBe(1);
      const rows = await server()
        .db.db.select()
        .from(missingPrecedents)
        .where(eq(missingPrecedents.key, 'בג"ץ 3131/22'));
      expect(rows).toHaveLength(1);
    },
    SLOW,
  );
});

deniedPrecedent('missing_precedent_create', 'writer', () => ({ citation: 'ע"א 5/20', context: 'הקשר' }));
