// Shared by the precedent library's tool tests (library_*, internal_decision_*, citation_*,
// missing_precedent_*): the library fixture seeded into its corpora with text extracted (the follow-ups left
// to the tools under test), both extractions run through the tools, counts of what the family stores (to show
// a refused call wrote nothing), and the permission check.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../../src/agents/grants.ts';
import type { Db } from '../../src/db/types.ts';
import { libraryAnswers, libraryBytes, libraryNames } from '../fixtures/library/library.ts';
import { agentsWithout } from './analysis.ts';
import { seedDocument } from './documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from './server.ts';

const MEDIA = {
  txt: 'text/plain',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;

export type Seeded = Record<string, string>;

/**
 * The library fixture's documents in their corpora (rulings in library, decisions in internal, the chair's in
 * style), text extracted, no metadata given: name → document id.
 */
export async function seedLibrary(
  db: Db,
  options: { names?: readonly string[]; format?: 'txt' | 'pdf' | 'docx'; given?: boolean } = {},
): Promise<Seeded> {
  const format = options.format ?? 'txt';
  const out: Seeded = {};
  for (const name of options.names ?? libraryNames) {
    const answer = libraryAnswers.documents[name];
    if (answer === undefined) throw new Error(`no fixture ${name}`);
    const row = await seedDocument(db, {
      corpus: answer.corpus,
      caseId: null,
      bytes: await libraryBytes(name, format),
      declaredMediaType: MEDIA[format],
      title: answer.title,
      filename: `${name}.${format}`,
      ...(options.given
        ? {
            number: answer.meta.number,
            decisionDate: answer.meta.decision_date,
            parties: answer.meta.parties,
          }
        : {}),
    });
    if (row.status !== 'ready') throw new Error(`fixture ${name} did not extract: ${row.error}`);
    out[name] = row.id;
  }
  return out;
}

/** Reads the metadata of every pending library and internal document, then their citations (as the researcher). */
export async function extractLibrary(s: TestServer): Promise<void> {
  const data = expectOk<{ done: boolean }>(
    await s.call('researcher', 'library_metadata_extract', { all_pending: true, wait_ms: 10_000 }),
  );
  expect(data.done).toBe(true);
  for (const corpus of ['library', 'internal']) {
    const c = expectOk<{ done: boolean }>(
      await s.call('researcher', 'citation_extract', { corpus, wait_ms: 10_000 }),
    );
    expect(c.done).toBe(true);
  }
}

const TABLES = ['decision_metadata', 'citations', 'missing_precedents', 'jobs'] as const;

/** Row counts of the family's tables (and the job queue), to show a refused call wrote nothing. */
export async function precedentCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const r = await db.execute(sql.raw(`select count(*)::int as n from ${t}`));
    out[t] = Number((r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  }
  return out;
}

/**
 * The permission test: `agent` without the grant gets tool_not_granted (naming who holds it) and nothing is
 * written. With `take`, the grant is taken from the agent on a server of its own (a tool every agent holds).
 */
export function deniedPrecedent(
  tool: string,
  agent: AgentName,
  args: (seeded: Seeded) => Record<string, unknown>,
  take = false,
): void {
  describe(`${tool} without the grant`, () => {
    let s: TestServer | undefined;
    let seeded: Seeded | undefined;
    beforeAll(async () => {
      s = await startTestServer(take ? { agents: await agentsWithout(agent, [tool]) } : {});
      seeded = await seedLibrary(s.db.db, { names: ['R01', 'I01'] });
    });
    afterAll(async () => s?.close());
    it(`${agent} gets tool_not_granted and nothing is written`, async () => {
      if (s === undefined || seeded === undefined) throw new Error('no server');
      const before = await precedentCounts(s.db.db);
      const res = await s.call(agent, tool, args(seeded));
      expect(errorCode(res)).toBe('tool_not_granted');
      expect(res.ok ? null : res.error.details).toMatchObject({ granted_to: expect.any(Array) });
      expect(await precedentCounts(s.db.db)).toEqual(before);
    });
  });
}

/** Records a missing precedent as the researcher does (context «נדרש»), optionally for a case; its id. */
export async function recordMissingPrecedent(
  s: TestServer,
  citation: string,
  case_id?: string,
): Promise<string> {
  const data = expectOk<{ missing_precedent: { missing_precedent_id: string } }>(
    await s.call('researcher', 'missing_precedent_create', {
      citation,
      context: 'נדרש',
      ...(case_id ? { case_id } : {}),
    }),
  );
  return data.missing_precedent.missing_precedent_id;
}
