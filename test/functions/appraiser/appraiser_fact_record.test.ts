// appraiser_fact_record: an agent correcting a figure the reader misread (the original kept, marked
// corrected), adding one it missed (located by its quote, the value read as written), rejecting one that is
// not the appraiser's; each kept beside the reader's rows through a re-run, read by appraiser_fact_get and
// audited; the retry layers; every refusal; a deleted case; 20 identical calls at once; no grant.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { appraiser_fact_get } from '../../../functions/appraiser/appraiser_fact_get.ts';
import type { appraiser_fact_record } from '../../../functions/appraiser/appraiser_fact_record.ts';
import { factExtractor } from '../../../src/analysis/extractors.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { appraisalFacts } from '../../../src/db/schema/analysis.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  tableCounts,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { rerun } from '../../harness/rerun.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk, type TestServer } from '../../harness/server.ts';

type Recorded = ToolData<typeof appraiser_fact_record>;
type Facts = ToolData<typeof appraiser_fact_get>;

// A deciding appraisal written for these tests: the difference between the states is the betterment, which
// the reader takes for the prior value; a coefficient in words it cannot read; a neighbour's flat it reads as
// an area of the subject.
const DIFFERENCE = 'ההפרש בין שווי המצב החדש לשווי המצב הקודם מסתכם ב-310,000 ש"ח';
const IN_WORDS = 'מקדם הסחירות שהחלתי הוא תשעה עשיריות, קרי 0.9';
const NEIGHBOUR = 'שטח הדירה הסמוכה 95 מ"ר';
const APPRAISAL = [
  'שומה מכרעת משלימה',
  'השמאי המכריע: נועם הראל',
  'הנכס: גוש 7120 חלקה 33, תכנית רח/900',
  `${DIFFERENCE}.`,
  `${IN_WORDS.replace(', קרי 0.9', '')}, קרי 0.9 לפי הנוהג.`,
  `${NEIGHBOUR}.`,
].join('\n');

/** A case with the appraisal read by the fact reader; its facts by kind. */
async function seeded(s: TestServer) {
  const db = s.db.db;
  const caseId = await seedCase(db);
  const doc = await seedDocument(db, {
    corpus: 'case',
    caseId,
    role: 'deciding_appraisal',
    bytes: textBytes(`${APPRAISAL}\n${crypto.randomUUID()}`),
    title: 'שומה מכרעת משלימה',
  });
  expectOk(await s.call('analyst', 'appraiser_fact_extract', { case_id: caseId, wait_ms: 10_000 }));
  const rows = await db.select().from(appraisalFacts).where(eq(appraisalFacts.documentId, doc.id));
  const byKind = (kind: string) => {
    const f = rows.find((r) => r.kind === kind);
    if (f === undefined) throw new Error(`no ${kind} read`);
    return f;
  };
  return { caseId, documentId: doc.id, misread: byKind('value_prior'), neighbour: byKind('area') };
}

const addArgs = (caseId: string, documentId: string, over: Record<string, unknown> = {}) => ({
  case_id: caseId,
  action: 'add',
  kind: 'coefficient',
  name: 'מקדם סחירות',
  value: '0.9',
  document_id: documentId,
  page: 1,
  quote: IN_WORDS.replace(', קרי 0.9', ''),
  ...over,
});

forEachStack('appraiser_fact_record', DB_STACKS, (server) => {
  const record = (args: Record<string, unknown>) => server().call('analyst', 'appraiser_fact_record', args);
  const get = async (caseId: string) =>
    expectOk<Facts>(await server().call('analyst', 'appraiser_fact_get', { case_id: caseId }));

  it('corrects a misread figure, adds a missed one, rejects a wrong one: kept through a re-run, audited', async () => {
    const s = server();
    const { caseId, documentId, misread, neighbour } = await seeded(s);
    expect(misread).toMatchObject({
      value: 31_000_000,
      appraiserName: 'נועם הראל',
      appraiserRole: 'deciding',
    });
    const audit = await auditMark(s.db.db);

    const corrected = expectOk<Recorded>(
      await record({
        case_id: caseId,
        action: 'correct',
        fact_id: misread.id,
        kind: 'betterment',
        rationale: 'ההפרש בין המצבים הוא ההשבחה',
      }),
    );
    expect(corrected).toMatchObject({
      created: true,
      fact: {
        kind: 'betterment',
        value: 31_000_000,
        display: '310,000 ₪',
        role: 'deciding',
        appraiser: 'נועם הראל',
        origin: 'recorded',
        status: 'active',
        corrects: misread.id,
        decision: { by: 'analyst', reason: 'ההפרש בין המצבים הוא ההשבחה' },
        source: { document_id: documentId, extractor_version: 'appraiser_fact_record', text: misread.text },
      },
    });

    const added = expectOk<Recorded>(await record(addArgs(caseId, documentId, { rationale: 'מקדם במילים' })));
    expect(added).toMatchObject({
      created: true,
      fact: { kind: 'coefficient', name: 'מקדם סחירות', value: 90, unit: 'percent', origin: 'recorded' },
    });
    expect(added.fact.source.text).toBe(IN_WORDS.replace(', קרי 0.9', ''));

    const rejected = expectOk<Recorded>(
      await record({ case_id: caseId, action: 'reject', fact_id: neighbour.id, rationale: 'דירה סמוכה' }),
    );
    expect(rejected.fact).toMatchObject({ id: neighbour.id, status: 'rejected', origin: 'extracted' });

    const shown = async () =>
      (await get(caseId)).groups.flatMap((g) => g.facts.map((f) => [g.kind, g.name, f.value, f.origin]));
    const expected = [
      ['betterment', null, 31_000_000, 'recorded'],
      ['coefficient', 'מקדם סחירות', 90, 'recorded'],
    ];
    expect(await shown()).toEqual(expect.arrayContaining(expected));
    expect((await shown()).map((f) => f[0])).not.toContain('value_prior');
    expect((await shown()).map((f) => f[0])).not.toContain('area');

    // A re-run of the reader finds the same figures again: the decisions and the agent's rows stay.
    const before = await s.db.db
      .select()
      .from(appraisalFacts)
      .where(eq(appraisalFacts.documentId, documentId));
    await rerun(s.db.db, factExtractor, documentId);
    const after = await s.db.db
      .select()
      .from(appraisalFacts)
      .where(eq(appraisalFacts.documentId, documentId));
    expect(after.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      before.sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(await shown()).toEqual(expect.arrayContaining(expected));

    expect((await audit()).map((r) => [r.tool, r.outcome])).toEqual([
      ['appraiser_fact_record', 'ok'],
      ['appraiser_fact_record', 'ok'],
      ['appraiser_fact_record', 'ok'],
    ]);
  });

  it('replays a retry; without the key-value record the natural key holds; other details are refused', async () => {
    const s = server();
    const db = s.db.db;
    const { caseId, documentId, misread, neighbour } = await seeded(s);
    const args = addArgs(caseId, documentId);
    const first = expectOk<Recorded>(await record(args));
    const again = await record(args);
    expect(again).toMatchObject({ replayed: true });
    expect(expectOk<Recorded>(again)).toEqual(first);
    await db.delete(kvEntries);
    expect(expectOk<Recorded>(await record(args))).toMatchObject({
      created: false,
      fact: { id: first.fact.id },
    });
    await db.delete(kvEntries);
    const other = await record({ ...args, value: '0.85' });
    expect(errorCode(other)).toBe('idempotency_key_reuse');
    expect(other.ok ? null : other.error.details).toMatchObject({
      fact_id: first.fact.id,
      different: ['value'],
    });

    const correct = {
      case_id: caseId,
      action: 'correct',
      fact_id: misread.id,
      kind: 'betterment',
      rationale: 'ר',
    };
    const c1 = expectOk<Recorded>(await record(correct));
    await db.delete(kvEntries);
    expect(expectOk<Recorded>(await record(correct))).toMatchObject({
      created: false,
      fact: { id: c1.fact.id },
    });
    // A second, different correction of the same fact: correct the correction instead.
    const twice = await record({ ...correct, kind: 'levy' });
    expect(errorCode(twice)).toBe('invalid_state');
    expect(twice.ok ? null : twice.error.details).toMatchObject({ correction_id: c1.fact.id });
    expect(
      expectOk<Recorded>(await record({ ...correct, fact_id: c1.fact.id, value: '320,000 ₪' })).fact,
    ).toMatchObject({ kind: 'betterment', value: 32_000_000, corrects: c1.fact.id });
    // The corrected original cannot be rejected; the rejected one cannot be corrected.
    expect(
      errorCode(await record({ case_id: caseId, action: 'reject', fact_id: misread.id, rationale: 'ר' })),
    ).toBe('invalid_state');
    const reject = { case_id: caseId, action: 'reject', fact_id: neighbour.id, rationale: 'דירה סמוכה' };
    expect(expectOk<Recorded>(await record(reject)).created).toBe(true);
    await db.delete(kvEntries);
    expect(expectOk<Recorded>(await record(reject)).created).toBe(false);
    await db.delete(kvEntries);
    expect(errorCode(await record({ ...reject, rationale: 'אחר' }))).toBe('idempotency_key_reuse');
    expect(
      errorCode(
        await record({
          case_id: caseId,
          action: 'correct',
          fact_id: neighbour.id,
          value: '90',
          rationale: 'ר',
        }),
      ),
    ).toBe('invalid_state');
    const recorded = await db
      .select()
      .from(appraisalFacts)
      .where(and(eq(appraisalFacts.caseId, caseId), eq(appraisalFacts.origin, 'recorded')));
    expect(recorded).toHaveLength(3);
  });

  it('refuses what cannot be recorded, naming the argument', async () => {
    const s = server();
    const db = s.db.db;
    const { caseId, documentId, misread } = await seeded(s);
    const other = await seeded(s);
    const issues = async (args: Record<string, unknown>) => {
      const env = await record(args);
      expect(errorCode(env)).toBe('invalid_args');
      const found = env.ok ? [] : ((env.error.details?.issues ?? []) as { path: string }[]);
      return found.map((i) => i.path).sort();
    };
    expect(await issues({ case_id: caseId, action: 'add', kind: 'levy' })).toEqual([
      'document_id',
      'page',
      'quote',
      'value',
    ]);
    expect(await issues({ ...addArgs(caseId, documentId), fact_id: misread.id })).toEqual(['fact_id']);
    expect(await issues({ case_id: caseId, action: 'correct', fact_id: misread.id, rationale: 'ר' })).toEqual(
      ['value'],
    );
    expect(await issues({ case_id: caseId, action: 'reject', fact_id: misread.id })).toEqual(['rationale']);
    expect(await issues(addArgs(caseId, documentId, { value: 'הרבה' }))).toEqual(['value']);
    expect(await issues(addArgs(caseId, documentId, { kind: 'determining_date', value: '0.9' }))).toEqual([
      'value',
    ]);
    expect(await issues(addArgs(caseId, documentId, { quote: 'מילים שאינן בעמוד' }))).toEqual(['quote']);
    expect(await issues(addArgs(caseId, documentId, { page: 3 }))).toEqual(['page']);
    expect(await issues(addArgs(caseId, documentId, { kind: 'price' }))).toEqual(['kind']);
    expect(errorCode(await record(addArgs(caseId, other.documentId)))).toBe('not_found');
    expect(errorCode(await record(addArgs(caseId, crypto.randomUUID())))).toBe('not_found');
    expect(errorCode(await record(addArgs(crypto.randomUUID(), documentId)))).toBe('not_found');
    expect(
      errorCode(
        await record({ case_id: caseId, action: 'reject', fact_id: other.misread.id, rationale: 'ר' }),
      ),
    ).toBe('not_found');
    const { document } = await createDocument(db, {
      corpus: 'case',
      caseId,
      bytes: textBytes(`ממתין ${crypto.randomUUID()}`),
      title: 'ממתין',
      createdBy: 'test',
    });
    expect(errorCode(await record(addArgs(caseId, document.id)))).toBe('invalid_state');
  });

  it('a deleted case is not_found and nothing is written', async () => {
    const s = server();
    const { caseId, documentId, misread } = await seeded(s);
    await deleteCase(s.db.db, caseId);
    const before = await tableCounts(s.db.db);
    expect(errorCode(await record(addArgs(caseId, documentId)))).toBe('not_found');
    expect(
      errorCode(await record({ case_id: caseId, action: 'reject', fact_id: misread.id, rationale: 'ר' })),
    ).toBe('not_found');
    expect(await tableCounts(s.db.db)).toEqual(before);
  });
});

forEachStack('appraiser_fact_record under concurrency', ALL_STACKS, (server) => {
  it('20 identical adds, corrections and rejections at once: one row each', async () => {
    const s = server();
    const db = s.db.db;
    const { caseId, documentId, misread, neighbour } = await seeded(s);
    const adds = await twentyAtOnce(s, 'appraiser_fact_record', addArgs(caseId, documentId));
    expect(new Set(adds.map((a) => expectOk<Recorded>(a).fact.id)).size).toBe(1);
    const corrections = await twentyAtOnce(s, 'appraiser_fact_record', {
      case_id: caseId,
      action: 'correct',
      fact_id: misread.id,
      kind: 'betterment',
      rationale: 'ההשבחה',
    });
    expect(new Set(corrections.map((a) => expectOk<Recorded>(a).fact.id)).size).toBe(1);
    const rejections = await twentyAtOnce(s, 'appraiser_fact_record', {
      case_id: caseId,
      action: 'reject',
      fact_id: neighbour.id,
      rationale: 'דירה סמוכה',
    });
    for (const r of rejections) expect(expectOk<Recorded>(r).fact.status).toBe('rejected');
    const recorded = await db
      .select()
      .from(appraisalFacts)
      .where(and(eq(appraisalFacts.caseId, caseId), eq(appraisalFacts.origin, 'recorded')));
    expect(recorded).toHaveLength(2);
  });
});

deniedTo('appraiser_fact_record', 'researcher', (c) => ({
  case_id: c.caseId,
  action: 'reject',
  fact_id: crypto.randomUUID(),
  rationale: 'ר',
}));
