// draft_validate with the precedent library: a citation recorded as a missing precedent is could_not_check
// (known missing), not not_found; a cited ruling that a later library ruling overruled is a warning naming it
// (the citation graph, as library_get shows it); each resolved citation carries its source's approved
// holdings; every precedent pinned to the case has its quote checked (verbatim, altered, not_found).
import { expect, it } from 'vitest';
import type { draft_validate } from '../../../functions/draft/draft_validate.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { holdings } from '../../../src/db/schema/holdings.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { expectOk } from '../../harness/server.ts';
import { cleanBlocks, HOLDING, seedScenario, setOutcome, writeBlocks } from './_validate.ts';

type Data = ToolData<typeof draft_validate>;
const SLOW = 120_000;

forEachStack('draft_validate (library)', DB_STACKS, (server) => {
  it(
    'tells a recorded missing precedent from not_found, warns of negative treatment, serves holdings, checks pinned quotes',
    async () => {
      const s = server();
      const db = s.db.db;
      const sc = await seedScenario(s);
      const clean = 'עע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה, פס׳ 12';
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
              { text: clean, quote: HOLDING },
              { text: 'עע״מ 1234/05 דוד נ׳ גוליית' },
              { text: 'עע״מ 5555/21 לוי נ׳ הוועדה המקומית' },
            ],
          },
        }),
      );
      await setOutcome(s, sc.caseId);
      const validate = async () =>
        expectOk<Data>(await s.call('qa', 'draft_validate', { case_id: sc.caseId }));

      const before = await validate();
      expect(before.citations.map((c) => c.verdict)).toEqual(['resolved', 'not_found', 'not_found']);
      const source = before.citations[0]?.source?.document_id ?? '';

      // The third is recorded as missing: known to be missing, a warning, no longer not_found.
      expectOk(
        await s.call('researcher', 'missing_precedent_create', {
          citation: 'עע"מ 5555/21 לוי נ\' הוועדה המקומית',
          case_id: sc.caseId,
          context: 'נדרש לדיון',
        }),
      );
      // A holding of the source, approved by the owner; a pending one is never served.
      const holding = (text: string, start: number) => ({
        id: crypto.randomUUID(),
        cue: 'נקבע',
        documentId: source,
        page: 1,
        start,
        end: start + text.length,
        text,
        extractorVersion: 'test',
      });
      const approved = holding(HOLDING, 1000);
      await db.insert(holdings).values([approved, holding('הלכה שלא אושרה', 2000)]);
      expectOk(
        await s.call('ceo', 'halacha_review', {
          halacha_id: approved.id,
          decision: 'approve',
          owner_ack: true,
          reason: 'היו״ר החליט',
        }),
      );
      // A later ruling overrules it, read into the citation graph by citation_extract.
      expectOk(
        await s.call('researcher', 'library_metadata_extract', { document_id: source, wait_ms: 10_000 }),
      );
      const later = await seedDocument(db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes(
          `עע"מ 8100/23 מדינת ישראל נ' כהן ${crypto.randomUUID()}\n1. בית המשפט הפך את עע"מ 9001/19 כהן נ' הוועדה המקומית, וההלכה שם אינה עוד.`,
        ),
        title: 'מדינת ישראל נ׳ כהן',
        number: 'עע"מ 8100/23',
      });
      expectOk(
        await s.call('researcher', 'library_metadata_extract', { document_id: later.id, wait_ms: 10_000 }),
      );
      expectOk(await s.call('researcher', 'citation_extract', { document_id: later.id, wait_ms: 10_000 }));
      // Pinned precedents: one quoted exactly, one altered, one invented.
      const pin = (quote: string) =>
        s.call('researcher', 'precedent_attach', {
          case_id: sc.caseId,
          section: 'discussion',
          citation: 'עע"מ 9001/19 כהן',
          quote,
          document_id: source,
        });
      expectOk(await pin(HOLDING));
      expectOk(await pin(HOLDING.replace('חריגים', 'נדירים')));
      expectOk(await pin('הוועדה רשאית לעשות כרצונה בכל עניין ובכל עת שתחפוץ'));

      const d = await validate();
      expect(d.citations.map((c) => c.verdict)).toEqual(['resolved', 'not_found', 'could_not_check']);
      expect(d.citations[2]?.detail).toMatch(/^Recorded as a missing precedent/);
      expect(d.citations[0]?.holdings).toEqual([HOLDING]);
      expect(d.citations[1]?.holdings).toEqual([]);
      const negative = d.findings.filter((f) => f.code === 'citation_negative_treatment');
      expect(negative).toHaveLength(1);
      expect(negative[0]).toMatchObject({ severity: 'warning', block: 'discussion' });
      expect(negative[0]?.message).toMatch(/overruled or reversed/);
      expect(negative[0]?.message).toContain('8100/23');
      expect(negative[0]?.provenance.document_id).toBe(later.id);
      const pinned = d.quotes.filter((q) => q.citation?.includes('attached to discussion'));
      expect(pinned.map((q) => q.verdict)).toEqual(['verbatim', 'altered', 'not_found']);
      expect(pinned[1]?.diff).toBe('+נדירים −חריגים');
      expect(d.findings.map((f) => f.code).sort()).toEqual([
        'citation_could_not_check',
        'citation_negative_treatment',
        'citation_not_found',
        'quote_altered',
        'quote_not_found',
      ]);
      expect(d.findings.find((f) => f.code === 'citation_could_not_check')?.severity).toBe('warning');
    },
    SLOW,
  );
});
