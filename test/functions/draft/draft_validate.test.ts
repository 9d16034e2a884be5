// draft_validate (the precedent library's part: draft_validate.library.test.ts): a clean draft is valid (its
// citation resolved, its quote verbatim); each rule's finding
// with its block and provenance; citations not_found / wrong_name / wrong_pinpoint; quotes altered (with the
// difference) and not_found; a case document as the target; the result stored, the same result one row;
// unknown, foreign and unready documents; deleted case; 20 identical calls at once; no grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { draft_validate } from '../../../functions/draft/draft_validate.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { documents } from '../../../src/db/schema/documents.ts';
import { validationRuns } from '../../../src/db/schema/review.ts';
import { ALL_STACKS, deleteCase, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { cleanBlocks, HOLDING, seedScenario, setOutcome, writeBlocks } from './_validate.ts';

type Data = ToolData<typeof draft_validate>;

forEachStack('draft_validate', ALL_STACKS, (server) => {
  const validate = (args: Record<string, unknown>) => server().call('qa', 'draft_validate', args);
  const codes = (d: Data) => d.findings.map((f) => f.code).sort();

  it('finds a clean draft valid: the citation resolved, the quote verbatim, the result stored once', async () => {
    const s = server();
    const sc = await seedScenario(s);
    await writeBlocks(s, sc.caseId, cleanBlocks(sc));
    await setOutcome(s, sc.caseId);
    const env = await validate({ case_id: sc.caseId });
    const d = expectOk<Data>(env);
    expect(d.findings).toEqual([]);
    expect(d).toMatchObject({ valid: true, errors: 0, warnings: 0, target: 'draft', created: true });
    expect(d.citations).toEqual([
      expect.objectContaining({ block: 'discussion', verdict: 'resolved', key: 'עעמ 9001/19', holdings: [] }),
    ]);
    expect(d.quotes).toEqual([
      expect.objectContaining({ block: 'discussion', verdict: 'verbatim', similarity: 1 }),
    ]);
    expect(env.message).toMatch(/^Valid/);
    const again = expectOk<Data>(await validate({ case_id: sc.caseId }));
    expect(again).toMatchObject({ run_id: d.run_id, created: false });
    const runs = await s.db.db.select().from(validationRuns).where(eq(validationRuns.caseId, sc.caseId));
    expect(runs).toHaveLength(1);
    expect(runs[0]?.checkedAt.toISOString()).toBe(again.checked_at);
  });

  it('reports each rule’s finding with its block and provenance', async () => {
    const s = server();
    const sc = await seedScenario(s);
    await writeBlocks(
      s,
      sc.caseId,
      cleanBlocks(sc, {
        header: {
          kind: 'header',
          text: 'ועדת הערר\nערר 9999/99\nהעוררים: משה לוי\nנגד\nהמשיבה: הוועדה המקומית לתכנון ובנייה הרצליה',
        },
        background: { kind: 'background', text: 'שווי ההשבחה הוא 1,350,000 ש"ח לפי עע"מ 9001/19.' },
        discussion: {
          kind: 'discussion',
          title: 'דיון',
          text: 'הטענה אינה מבוססת, ולא הוכח כל פגם בשומה.',
          claim_ids: [sc.claimIds[0]],
        },
        outcome: { kind: 'outcome', text: 'סוף דבר: הערר מתקבל.' },
        signature: null,
      }),
    );
    await setOutcome(s, sc.caseId, 'דחייה');
    const d = expectOk<Data>(await validate({ case_id: sc.caseId }));
    expect(d.valid).toBe(false);
    expect(codes(d)).toEqual(
      [
        'claim_unanswered',
        'fact_mismatch',
        'header_appellant',
        'header_case_number',
        'outcome_mismatch',
        'required_block_missing',
      ].sort(),
    );
    const by = (code: string) => d.findings.find((f) => f.code === code);
    expect(by('claim_unanswered')).toMatchObject({
      severity: 'error',
      block: null,
      block_kind: 'discussion',
      fix: expect.stringContaining(sc.claimIds[1] as string),
      provenance: { claim_id: sc.claimIds[1], document_id: sc.appealId, page: 1 },
    });
    expect(by('fact_mismatch')).toMatchObject({
      severity: 'error',
      block: 'background',
      provenance: { block_version: 1, document_id: sc.appealId },
    });
    expect(by('outcome_mismatch')).toMatchObject({
      block: 'outcome',
      message: expect.stringMatching(/קבלה מלאה.*דחייה/),
    });
    // Typography is a style note, asked for: listed, never an error or a warning.
    const noted = expectOk<Data>(await validate({ case_id: sc.caseId, style_notes: true }));
    expect(noted.findings.filter((f) => f.code === 'latin_quote_mark')).toEqual([
      expect.objectContaining({
        severity: 'note',
        block: 'background',
        provenance: expect.objectContaining({ excerpt: expect.stringMatching(/"/) }),
      }),
      expect.objectContaining({ severity: 'note', block: 'background' }),
    ]);
    expect(noted).toMatchObject({ errors: d.errors, warnings: d.warnings, notes: 2 });
    expect(by('required_block_missing')?.message).toMatch(/signature/);
  });

  it('gives each citation and quote its verdict: not_found, wrong_name, wrong_pinpoint, altered with the difference, not_found', async () => {
    const s = server();
    const sc = await seedScenario(s);
    const cite = (text: string, quote?: string) => ({ text, ...(quote ? { quote } : {}) });
    await writeBlocks(
      s,
      sc.caseId,
      cleanBlocks(sc, {
        discussion: {
          kind: 'discussion',
          title: 'דיון',
          text: 'ראו הפסיקה שלהלן, אשר חלה על ענייננו במלואה.',
          claim_ids: sc.claimIds,
          citations: [
            cite('עע״מ 1234/05 דוד נ׳ גוליית'),
            cite('עע״מ 9001/19 שמעון נ׳ מדינת ישראל'),
            cite('עע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה, פס׳ 40'),
            cite(
              'עע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה, פס׳ 12',
              HOLDING.replace('חריגים', 'נדירים'),
            ),
          ],
        },
      }),
    );
    await setOutcome(s, sc.caseId);
    const d = expectOk<Data>(await validate({ case_id: sc.caseId }));
    expect(d.citations.map((c) => c.verdict)).toEqual([
      'not_found',
      'wrong_name',
      'wrong_pinpoint',
      'resolved',
    ]);
    expect(d.citations[1]?.detail).toMatch(/כהן/);
    expect(d.citations[2]?.detail).toMatch(/paragraph 40/);
    expect(d.quotes).toEqual([
      expect.objectContaining({
        verdict: 'altered',
        diff: '+נדירים −חריגים',
        source_document_id: expect.any(String),
        source_page: 1,
      }),
    ]);
    expect(d.quotes[0]?.similarity).toBeGreaterThanOrEqual(0.85);
    expect(codes(d)).toEqual([
      'citation_not_found',
      'citation_wrong_name',
      'citation_wrong_pinpoint',
      'quote_altered',
    ]);
  });

  it('checks a case document’s citations and quotes as the target', async () => {
    const s = server();
    const sc = await seedScenario(s);
    const d = expectOk<Data>(await validate({ case_id: sc.caseId, target: sc.appealId }));
    expect(d.target).toBe(sc.appealId);
    expect(d.citations.map((c) => [c.key, c.verdict, c.page])).toEqual([
      ['עעמ 9001/19', 'resolved', 1],
      ['עעמ 7777/18', 'not_found', 1],
      ['עעמ 9001/19', 'resolved', 1],
    ]);
    expect(d.quotes.map((q) => q.verdict)).toEqual(['verbatim', 'not_found']);
    expect(d.findings.find((f) => f.code === 'quote_not_found')?.provenance).toMatchObject({
      document_id: expect.any(String),
      excerpt: expect.stringMatching(/כלל ועיקר/),
    });
  });

  it('refuses documents of another case or not ready, and unknown or deleted cases', async () => {
    const s = server();
    const a = await seedScenario(s);
    const b = await seedScenario(s);
    expect(errorCode(await validate({ case_id: a.caseId, target: b.appealId }))).toBe('not_found');
    expect(errorCode(await validate({ case_id: a.caseId, target: crypto.randomUUID() }))).toBe('not_found');
    await s.db.db.update(documents).set({ status: 'pending' }).where(eq(documents.id, a.appealId));
    expect(errorCode(await validate({ case_id: a.caseId, target: a.appealId }))).toBe('invalid_state');
    expect(errorCode(await validate({ case_id: crypto.randomUUID() }))).toBe('not_found');
    await deleteCase(s.db.db, b.caseId);
    expect(errorCode(await validate({ case_id: b.caseId }))).toBe('not_found');
    expect(await s.db.db.select().from(validationRuns).where(eq(validationRuns.caseId, b.caseId))).toEqual(
      [],
    );
  });

  it('20 identical calls at once store one result', async () => {
    const s = server();
    const sc = await seedScenario(s);
    await writeBlocks(s, sc.caseId, cleanBlocks(sc));
    const answers = await twentyAtOnce(s, 'draft_validate', { case_id: sc.caseId }, ['qa']);
    expect(new Set(answers.map((a) => expectOk<Data>(a).run_id)).size).toBe(1);
    expect(
      await s.db.db.select().from(validationRuns).where(eq(validationRuns.caseId, sc.caseId)),
    ).toHaveLength(1);
  }, 120_000);
});

deniedTo('draft_validate', 'writer', (c) => ({ case_id: c.caseId }));
