// draft_validate's citations as the one grammar reader finds them and the one resolver resolves them: a
// number glued to a conjunction or preposition («ובעע״מ», «בערר», «ובבר״מ») is a citation; a ruling added to
// the library without a `number` (its number read by the metadata extractor) resolves, not citation_not_found,
// and the citation graph (citation_list) and the drafting context (block_context_get) reach the same document
// for the same citation.
import { expect, it } from 'vitest';
import type { draft_validate } from '../../../functions/draft/draft_validate.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { expectOk } from '../../harness/server.ts';
import { cleanBlocks, seedScenario, writeBlocks } from './_validate.ts';

type Data = ToolData<typeof draft_validate>;

const SLOW = 120_000;
const RULE = 'ועדת ערר אינה שמה את שיקול דעתה במקום שיקול הדעת התכנוני של הוועדה המקומית';

/** A committee ruling whose heading states its number and parties; numbered paragraphs 1..3. */
const unnumberedRuling = (n: number) =>
  'ועדת הערר לתכנון ובנייה מחוז מרכז\n' +
  `ערר ${n}/18\n` +
  'דנה אברהם נ׳ הוועדה המקומית לתכנון ובנייה רעננה\n\n' +
  'החלטה\n\n' +
  '1. העוררת ביקשה היתר לתוספת קומה ונדחתה.\n' +
  `2. הלכה היא כי ${RULE}. לא מצאנו פגם בהחלטה.\n` +
  `3. הערר נדחה. מזהה ${crypto.randomUUID()}\n`;

forEachStack('draft_validate (citation forms, one resolution)', DB_STACKS, (server) => {
  const validate = (caseId: string) =>
    server()
      .call('qa', 'draft_validate', { case_id: caseId })
      .then((e) => expectOk<Data>(e));

  it('finds the citations a conjunction or preposition is glued to', async () => {
    const s = server();
    const sc = await seedScenario(s);
    await writeBlocks(
      s,
      sc.caseId,
      cleanBlocks(sc, {
        discussion: {
          kind: 'discussion',
          title: 'דיון',
          text:
            'ובעע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה, פס׳ 12 נאמר שאין להתערב. ' +
            'כך הוחלט גם בערר 8012/18, ולהבדיל ובבר״מ 3003/21.',
          claim_ids: sc.claimIds,
        },
      }),
    );
    const d = await validate(sc.caseId);
    expect(d.citations.map((c) => [c.key, c.verdict])).toEqual([
      ['עעמ 9001/19', 'resolved'],
      ['ערר 8012/18', 'not_found'],
      ['ברמ 3003/21', 'not_found'],
    ]);
    expect(d.citations[0]?.source?.document_id).toBeDefined();
    // The citation starts at the proceeding, the glued letters left out.
    expect(d.citations.map((c) => c.text.slice(0, 4))).toEqual(['עע״מ', 'ערר ', 'בר״מ']);
  });

  it(
    'resolves a ruling added without a number, as the citation graph and the drafting context do',
    async () => {
      const s = server();
      const sc = await seedScenario(s);
      const n = 8100 + Math.floor(Math.random() * 800);
      const ruling = await seedDocument(s.db.db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes(unnumberedRuling(n)),
        declaredMediaType: 'text/plain',
        title: 'אברהם נ׳ הוועדה המקומית רעננה',
      });
      expect(ruling.number).toBeNull();
      const cite = `ערר ${n}/18 אברהם נ׳ הוועדה המקומית לתכנון ובנייה רעננה, פס׳ 2`;
      const discussion = {
        kind: 'discussion',
        key: 'discussion:discretion',
        title: 'שיקול הדעת',
        text: `כפי שנקבע ב${cite}: "${RULE}".`,
        claim_ids: sc.claimIds,
        citations: [{ text: cite }],
      };
      await writeBlocks(s, sc.caseId, cleanBlocks(sc, { discussion }));
      // Before its number is read, nothing knows the ruling by it.
      const before = await validate(sc.caseId);
      expect(before.citations.map((c) => c.verdict)).toEqual(['not_found']);

      expect(
        expectOk<{ done: boolean }>(
          await s.call('researcher', 'library_metadata_extract', { document_id: ruling.id, wait_ms: 10_000 }),
        ).done,
      ).toBe(true);
      const d = await validate(sc.caseId);
      expect(d.citations).toEqual([
        expect.objectContaining({ key: `ערר ${n}/18`, verdict: 'resolved', detail: null }),
      ]);
      expect(d.citations[0]?.source).toMatchObject({ document_id: ruling.id, number: `ערר ${n}/18` });
      expect(d.findings.filter((f) => f.code.startsWith('citation_'))).toEqual([]);
      expect(d.quotes.map((q) => [q.verdict, q.source_document_id])).toEqual([['verbatim', ruling.id]]);

      // The citation graph: a case document citing it, read by citation_extract.
      const brief = await seedDocument(s.db.db, {
        corpus: 'case',
        caseId: sc.caseId,
        bytes: textBytes(`תגובה לערר\n1. המשיבה תסמוך על ${cite}.`),
        declaredMediaType: 'text/plain',
        title: 'תגובה',
        role: 'response',
      });
      expectOk(await s.call('researcher', 'citation_extract', { document_id: brief.id, wait_ms: 10_000 }));
      const graph = expectOk<{ items: { key: string; resolved_to: { document_id: string } | null }[] }>(
        await s.call('writer', 'citation_list', { document_id: brief.id }),
      );
      expect(graph.items.map((c) => [c.key, c.resolved_to?.document_id])).toEqual([
        [`ערר ${n}/18`, ruling.id],
      ]);

      // The drafting context: the block's citation brings the ruling's approved holding.
      expectOk(await s.call('researcher', 'halacha_extract', { document_id: ruling.id, wait_ms: 10_000 }));
      const pending = expectOk<{ items: { halacha_id: string }[] }>(
        await s.call('qa', 'halacha_list', { document_id: ruling.id }),
      ).items;
      expect(pending.length).toBeGreaterThanOrEqual(1);
      expectOk(
        await s.call('ceo', 'halacha_review', {
          halacha_id: pending[0]?.halacha_id ?? '',
          decision: 'approve',
          owner_ack: true,
          reason: 'היו״ר אישר',
        }),
      );
      const context = expectOk<{ items: { section: string; source: { document_id: string } | null }[] }>(
        await s.call('writer', 'block_context_get', {
          case_id: sc.caseId,
          block: discussion.key,
          limit: 200,
        }),
      );
      expect(
        context.items.filter((i) => i.section === 'approved_holding').map((i) => i.source?.document_id),
      ).toEqual([ruling.id]);
    },
    SLOW,
  );
});
