// draft_validate as a gate the chair can trust: a correct draft written in the standard phrasings (a partial
// acceptance said two ways, a rejection as «דין הערר להידחות», the deciding appraiser's figure, a party's own
// figure restated in its claims block or attributed in the text, «עו"ד», «יו"ר», «מ"ר» typed with the keyboard
// quote) has no errors and no warnings; each planted fault is flagged with its block (or the kind of block
// that should answer it) and how to fix it; a draft of placeholders and a 5 ₪ betterment is invalid and fails
// a mission's draft_valid criterion; a ruling not in the library stays citation_not_found with both ways out;
// a second citation of the same number with other parties is checked on its own.

import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { draft_validate } from '../../../functions/draft/draft_validate.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { appraisalFacts } from '../../../src/db/schema/analysis.ts';
import { documents } from '../../../src/db/schema/documents.ts';
import { runCheck } from '../../../src/review/criteria.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { expectOk } from '../../harness/server.ts';
import { cleanBlocks, seedScenario, setOutcome, writeBlocks } from './_validate.ts';

type Data = ToolData<typeof draft_validate>;
const SLOW = 120_000;

forEachStack('draft_validate (gate)', DB_STACKS, (server) => {
  const validate = async (args: Record<string, unknown>) =>
    expectOk<Data>(await server().call('qa', 'draft_validate', args));
  const codes = (d: Data) => d.findings.map((f) => f.code).sort();

  it(
    'finds a correct draft in the standard phrasings valid: outcomes, the deciding figure, parties’ figures, typography',
    async () => {
      const s = server();
      const sc = await seedScenario(s);
      // The appellants' appraiser's own figure, beside the deciding appraiser's 1,250,000.
      await s.db.db.insert(appraisalFacts).values({
        id: crypto.randomUUID(),
        caseId: sc.caseId,
        kind: 'betterment',
        value: 70_000_000,
        unit: 'agorot',
        appraiserRole: 'appellants',
        fingerprint: crypto.randomUUID(),
        documentId: sc.appealId,
        page: 1,
        start: 0,
        end: 5,
        text: '700,000 ש"ח',
        extractorVersion: 'test',
      });
      const partial = {
        background: {
          kind: 'background',
          text: 'השמאי המכריע קבע כי שווי ההשבחה הוא 1,250,000 ש״ח. עו"ד כהן ייצג את העוררים בדיון בפני יו"ר הוועדה, והשטח הוא 500 מ"ר.',
        },
        appellant_claims: {
          kind: 'appellant_claims',
          text: 'העוררים טוענים כי שווי ההשבחה הוא 400,000 ש"ח בלבד, וכי השומה שגויה.',
        },
        discussion: {
          kind: 'discussion',
          title: 'התערבות בשומה',
          text: 'השמאי מטעם העוררים העריך כי שווי ההשבחה הוא 300,000 ש"ח, אך לא מצאנו פגם בשומה המכרעת.',
          claim_ids: sc.claimIds,
        },
      };
      for (const [outcome, text] of [
        ['partial_acceptance', 'סוף דבר: אנו מקבלים את הערר בחלקו.'],
        ['partial_acceptance', 'לאור האמור, העררים מתקבלים בחלקם.'],
        ['rejection', 'סוף דבר, דין הערר להידחות.'],
      ] as const) {
        await writeBlocks(s, sc.caseId, cleanBlocks(sc, { ...partial, outcome: { kind: 'outcome', text } }));
        await setOutcome(s, sc.caseId, outcome);
        const d = await validate({ case_id: sc.caseId });
        expect({ text, findings: d.findings }).toEqual({ text, findings: [] });
        expect(d).toMatchObject({ valid: true, errors: 0, warnings: 0, notes: 0 });
      }
      // Asked for, typography is listed as notes: never an error or a warning, the draft still valid.
      const noted = await validate({ case_id: sc.caseId, style_notes: true });
      expect(noted).toMatchObject({ valid: true, errors: 0, warnings: 0, notes: 5 });
      expect(noted.findings.map((f) => [f.code, f.severity, f.block, f.provenance.excerpt])).toEqual([
        ['latin_quote_mark', 'note', 'background', 'עו"ד'],
        ['latin_quote_mark', 'note', 'background', 'יו"ר'],
        ['latin_quote_mark', 'note', 'background', 'מ"ר'],
        ['latin_quote_mark', 'note', 'appellant_claims', 'ש"ח'],
        ['latin_quote_mark', 'note', 'discussion', 'ש"ח'],
      ]);
    },
    SLOW,
  );

  it(
    'flags each planted fault with its block or the block kind that should answer it, and how to fix it',
    async () => {
      const s = server();
      const sc = await seedScenario(s);
      await writeBlocks(
        s,
        sc.caseId,
        cleanBlocks(sc, {
          header: {
            kind: 'header',
            text: `ועדת הערר לתכנון ובנייה\n${sc.caseNumber}\nהעוררים: יוסף כהן\nנגד\nהמשיבה: עיריית חולון`,
          },
          background: { kind: 'background', text: 'השמאי המכריע קבע כי שווי ההשבחה הוא 990,000 ש"ח.' },
          respondent_claims: { kind: 'respondent_claims', text: 'לורם איפסום lorem ipsum dolor sit amet.' },
          discussion: {
            kind: 'discussion',
            title: 'דיון',
            text: 'לא מצאנו ממש בטענות, ושווי ההשבחה הוא 3 ש"ח בלבד לפי כל הנתונים.',
            claim_ids: [sc.claimIds[0]],
          },
          outcome: { kind: 'outcome', text: 'סוף דבר: הערר נדחה, ואנו מקבלים את הערר בחלקו.' },
        }),
      );
      const d = await validate({ case_id: sc.caseId });
      expect(d.valid).toBe(false);
      expect(codes(d)).toEqual(
        [
          'claim_unanswered',
          'fact_mismatch',
          'figure_implausible',
          'header_committee',
          'header_respondent',
          'outcome_ambiguous',
          'outcome_not_set',
          'required_block_placeholder',
        ].sort(),
      );
      const by = (code: string) => d.findings.find((f) => f.code === code);
      expect(by('fact_mismatch')).toMatchObject({
        block: 'background',
        block_kind: 'background',
        message: expect.stringContaining('1,250,000'),
      });
      expect(by('figure_implausible')).toMatchObject({ block: 'discussion', severity: 'error' });
      expect(by('required_block_placeholder')).toMatchObject({
        block: 'respondent_claims',
        message: expect.stringMatching(/placeholder/),
      });
      expect(by('claim_unanswered')).toMatchObject({
        block: null,
        block_kind: 'discussion',
        provenance: { claim_id: sc.claimIds[1] },
        fix: expect.stringMatching(new RegExp(`discussion block by its id.*${sc.claimIds[1]}`)),
      });
      expect(by('outcome_not_set')).toMatchObject({ block: 'outcome', severity: 'warning' });
      // Every finding names its block or the kind of block that should hold the fix, and says how.
      for (const f of d.findings) {
        expect(f.block ?? f.block_kind).not.toBeNull();
        expect(f.fix.length).toBeGreaterThan(20);
      }

      // An outcome block that states none, an outcome that is not the case's, a direction that leads elsewhere.
      await writeBlocks(
        s,
        sc.caseId,
        cleanBlocks(sc, { outcome: { kind: 'outcome', text: 'סוף דבר: ראו לעיל את כל האמור.' } }),
      );
      expect(codes(await validate({ case_id: sc.caseId }))).toContain('outcome_not_stated');
      await writeBlocks(
        s,
        sc.caseId,
        cleanBlocks(sc, { outcome: { kind: 'outcome', text: 'סוף דבר: הערר מתקבל.' } }),
      );
      await setOutcome(s, sc.caseId, 'rejection');
      expect(codes(await validate({ case_id: sc.caseId }))).toEqual(['outcome_mismatch']);
    },
    SLOW,
  );

  it(
    'finds a required block of only invisible direction marks empty, and says how to fix it',
    async () => {
      const s = server();
      const sc = await seedScenario(s);
      // A right-to-left mark alone passes block_write (it is a character) but shows nothing on the page.
      await writeBlocks(
        s,
        sc.caseId,
        cleanBlocks(sc, { outcome: { kind: 'outcome', text: '\u200f\u200f' } }),
      );
      await setOutcome(s, sc.caseId);
      const d = await validate({ case_id: sc.caseId });
      expect(d.valid).toBe(false);
      const empty = d.findings.filter((f) => f.code === 'required_block_empty');
      expect(empty).toHaveLength(1);
      expect(empty[0]).toMatchObject({ block: 'outcome', severity: 'error' });
      expect(empty[0]?.fix).toMatch(/block_write/);
    },
    SLOW,
  );

  it(
    'finds a draft of placeholders and a 5 ₪ betterment invalid, and a mission’s draft_valid criterion fails on it',
    async () => {
      const s = server();
      const sc = await seedScenario(s);
      await writeBlocks(s, sc.caseId, [
        { kind: 'header', text: '—' },
        { kind: 'background', text: '.' },
        { kind: 'appellant_claims', text: '—' },
        { kind: 'respondent_claims', text: '.' },
        { kind: 'discussion', title: 'דיון', text: 'שווי ההשבחה הוא 5 ₪.', claim_ids: sc.claimIds },
        { kind: 'outcome', text: '—' },
        { kind: 'signature', text: '.' },
      ]);
      await setOutcome(s, sc.caseId);
      const d = await validate({ case_id: sc.caseId });
      expect(d.valid).toBe(false);
      const placeholders = d.findings.filter((f) => f.code === 'required_block_placeholder');
      expect(placeholders.map((f) => f.block).sort()).toEqual(
        [
          'appellant_claims',
          'background',
          'discussion',
          'header',
          'outcome',
          'respondent_claims',
          'signature',
        ].sort(),
      );
      expect(codes(d)).toEqual(expect.arrayContaining(['figure_implausible', 'outcome_not_stated']));
      const check = await runCheck(s.db.db, { kind: 'draft_valid', case_id: sc.caseId });
      expect(check).toMatchObject({ pass: false, detail: expect.stringMatching(/error/) });
    },
    SLOW,
  );

  it(
    'warns of a direction leading elsewhere and of a quote whose source cannot be read yet',
    async () => {
      const s = server();
      const sc = await seedScenario(s);
      const pending = await seedDocument(s.db.db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes('פסק דין שטרם עובד.'),
        declaredMediaType: 'text/plain',
        title: 'לוי נ׳ הוועדה המקומית',
        number: 'עע"מ 8181/20',
        parties: "לוי נ' הוועדה המקומית",
      });
      await s.db.db.update(documents).set({ status: 'pending' }).where(eq(documents.id, pending.id));
      await writeBlocks(
        s,
        sc.caseId,
        cleanBlocks(sc, {
          discussion: {
            kind: 'discussion',
            title: 'דיון',
            text: 'לא מצאנו פגם בשומה המכרעת, ואין מקום להתערב בה כלל.',
            claim_ids: sc.claimIds,
            citations: [
              { text: 'עע"מ 8181/20 לוי נ׳ הוועדה המקומית', quote: 'אין להתערב בשומה אלא בנסיבות חריגות' },
            ],
          },
        }),
      );
      await setOutcome(s, sc.caseId, 'rejection');
      const proposed = expectOk<{ direction: { id: string } }>(
        await s.call('ceo', 'direction_propose', {
          case_id: sc.caseId,
          title: 'קבלת הערר',
          rationale: 'השומה אינה סבירה ויש לקבל את הערר',
          outcome: 'full_acceptance',
        }),
      ).direction;
      expectOk(
        await s.call('ceo', 'direction_approve', {
          direction_id: proposed.id,
          owner_ack: true,
          reason: 'היו״ר אישר',
        }),
      );
      const d = await validate({ case_id: sc.caseId });
      expect(codes(d)).toEqual(['direction_mismatch', 'quote_could_not_check']);
      expect(d).toMatchObject({ valid: true, errors: 0, warnings: 2 });
      expect(d.findings.find((f) => f.code === 'direction_mismatch')).toMatchObject({
        block: 'outcome',
        block_kind: 'outcome',
        message: expect.stringMatching(/קבלה מלאה.*דחייה/),
      });
      expect(d.findings.find((f) => f.code === 'quote_could_not_check')).toMatchObject({
        block: 'discussion',
        fix: expect.stringMatching(/library_add|ready/),
      });
    },
    SLOW,
  );

  it(
    'keeps a ruling not in the library citation_not_found with both ways out, and checks a second citation of the same number',
    async () => {
      const s = server();
      const sc = await seedScenario(s);
      const right = 'עע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה';
      await writeBlocks(
        s,
        sc.caseId,
        cleanBlocks(sc, {
          discussion: {
            kind: 'discussion',
            title: 'דיון',
            text: `כפי שנקבע ב${right}, פס׳ 12, אין להתערב. ראו גם עע״מ 9001/19 שמעון נ׳ מדינת ישראל, וכן עע״מ 4321/22 ראובן נ׳ שמעון, שם נקבע כך.`,
            claim_ids: sc.claimIds,
            citations: [{ text: `${right}, פס׳ 12` }],
          },
        }),
      );
      await setOutcome(s, sc.caseId);
      const d = await validate({ case_id: sc.caseId });
      expect(d.citations.map((c) => [c.key, c.verdict])).toEqual([
        ['עעמ 9001/19', 'resolved'],
        ['עעמ 9001/19', 'wrong_name'],
        ['עעמ 4321/22', 'not_found'],
      ]);
      const lost = d.findings.find((f) => f.code === 'citation_not_found');
      expect(lost).toMatchObject({
        severity: 'error',
        block: 'discussion',
        block_kind: 'discussion',
        fix: expect.stringMatching(/library_add.*missing_precedent_create.*could_not_check/),
      });
      // Recorded as missing: known missing, a warning, no longer an error.
      expectOk(
        await s.call('researcher', 'missing_precedent_create', {
          citation: 'עע"מ 4321/22 ראובן נ\' שמעון',
          case_id: sc.caseId,
          context: 'נדרש לדיון',
        }),
      );
      const after = await validate({ case_id: sc.caseId });
      expect(after.citations.map((c) => c.verdict)).toEqual(['resolved', 'wrong_name', 'could_not_check']);
      expect(after.findings.find((f) => f.code === 'citation_could_not_check')).toMatchObject({
        severity: 'warning',
        block: 'discussion',
      });
    },
    SLOW,
  );
});
