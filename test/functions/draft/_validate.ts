// Shared by the draft_validate and workflow tests: a case with its parties, a confirmed claim of each party in
// its appeal, the deciding appraiser's betterment, a ruling in the library and a decision in the internal
// corpus (numbered paragraphs, a quotable sentence), and a clean draft written through block_write.
import { eq } from 'drizzle-orm';
import { appraisalFacts, claims } from '../../../src/db/schema/analysis.ts';
import { cases } from '../../../src/db/schema/cases.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { expectOk, type TestServer } from '../../harness/server.ts';

export const HOLDING = 'אין להתערב בשיקול דעתה של הוועדה המקומית אלא במקרים חריגים שבהם נפל פגם מהותי';

/** A ruling's text with numbered paragraphs 1..15; paragraph 12 holds HOLDING. */
export const rulingText = (topic: string) =>
  Array.from({ length: 15 }, (_, i) =>
    i === 11
      ? `12. ${HOLDING}.`
      : `${i + 1}. פסקה ${i + 1} של פסק הדין בעניין ${topic} ובחינת התכנית החלה על המקרקעין.`,
  ).join('\n');

export interface Scenario {
  caseId: string;
  caseNumber: string;
  appealId: string;
  claimIds: string[];
  rulingId: string;
}

let n = 0;
/** Seeds the case, its appeal, claims, fact and the two authorities (the library ones once per server). */
export async function seedScenario(s: TestServer): Promise<Scenario> {
  const db = s.db.db;
  n++;
  const caseId = await seedCase(db, 'כהן נ׳ הוועדה המקומית הרצליה');
  const caseNumber = `ערר ${4000 + n}/25`;
  await db
    .update(cases)
    .set({
      caseNumber,
      appellant: 'יוסף כהן',
      respondent: 'הוועדה המקומית לתכנון ובנייה הרצליה',
      committee: 'הוועדה המקומית לתכנון ובנייה הרצליה',
    })
    .where(eq(cases.id, caseId));
  const appealText =
    'כתב ערר\n1. העוררים טוענים כי שומת השמאי המכריע שגויה.\n2. כפי שנקבע בעע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה, פס׳ 12: ' +
    `"${HOLDING}".\n3. ראו גם עע״מ 7777/18 פלוני נ׳ אלמוני.\n4. וכן "אין להתערב כלל ועיקר בשום החלטה של כל ועדה שהיא" (עע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה).`;
  const appeal = await seedDocument(db, {
    corpus: 'case',
    caseId,
    bytes: textBytes(appealText),
    declaredMediaType: 'text/plain',
    title: 'כתב ערר',
    role: 'appeal',
  });
  const claimIds: string[] = [];
  for (const [party, text] of [
    ['appellant', 'שומת השמאי המכריע שגויה'],
    ['respondent', 'השומה סבירה ואין להתערב בה'],
  ] as const) {
    const id = crypto.randomUUID();
    claimIds.push(id);
    await db.insert(claims).values({
      id,
      caseId,
      party,
      kind: 'claim',
      status: 'confirmed',
      origin: 'recorded',
      normText: `${text} ${id}`,
      wording: text,
      createdBy: 'analyst',
      documentId: appeal.id,
      page: 1,
      start: 0,
      end: 5,
      text,
      extractorVersion: 'claim_record',
    });
  }
  await db.insert(appraisalFacts).values({
    id: crypto.randomUUID(),
    caseId,
    kind: 'betterment',
    value: 125_000_000,
    unit: 'agorot',
    appraiserRole: 'deciding',
    fingerprint: crypto.randomUUID(),
    documentId: appeal.id,
    page: 1,
    start: 0,
    end: 5,
    text: '1,250,000 ש"ח',
    extractorVersion: 'test',
  });
  const ruling = await seedDocument(db, {
    corpus: 'library',
    caseId: null,
    bytes: textBytes(rulingText(`כהן ${n}`)),
    declaredMediaType: 'text/plain',
    title: 'כהן נ׳ הוועדה המקומית',
    number: 'עע"מ 9001/19',
    parties: "יוסף כהן ואח' נ' הוועדה המקומית לתכנון ובנייה הרצליה",
  });
  return { caseId, caseNumber, appealId: appeal.id, claimIds, rulingId: ruling.id };
}

/** The clean draft's blocks; `change` replaces a kind's block (null drops it). */
export function cleanBlocks(sc: Scenario, change: Record<string, Record<string, unknown> | null> = {}) {
  const blocks: Record<string, Record<string, unknown>> = {
    header: {
      kind: 'header',
      text: `ועדת הערר לתכנון ובנייה מחוז תל אביב\n${sc.caseNumber}\nהעוררים: יוסף כהן\nנגד\nהמשיבה: הוועדה המקומית לתכנון ובנייה הרצליה`,
    },
    background: { kind: 'background', text: 'השמאי המכריע קבע כי שווי ההשבחה הוא 1,250,000 ש״ח.' },
    appellant_claims: { kind: 'appellant_claims', text: 'העוררים טוענים כי השומה שגויה.' },
    respondent_claims: { kind: 'respondent_claims', text: 'המשיבה טוענת כי השומה סבירה.' },
    discussion: {
      kind: 'discussion',
      title: 'התערבות בשומה',
      text: `כפי שנקבע בעע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה, פס׳ 12: "${HOLDING}". לא מצאנו פגם כזה.`,
      claim_ids: sc.claimIds,
      citations: [
        {
          text: 'עע״מ 9001/19 כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה, פס׳ 12',
          number: 'עע״מ 9001/19',
          parties: 'כהן נ׳ הוועדה המקומית לתכנון ובנייה הרצליה',
          pinpoint: 'פס׳ 12',
          quote: HOLDING,
        },
      ],
    },
    outcome: { kind: 'outcome', text: 'סוף דבר: הערר נדחה.' },
    signature: { kind: 'signature', text: 'ניתנה היום, בהעדר הצדדים.' },
  };
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete blocks[k];
    else blocks[k] = v;
  }
  return Object.values(blocks);
}

export async function writeBlocks(s: TestServer, caseId: string, blocks: unknown[]) {
  expectOk(await s.call('writer', 'block_write', { case_id: caseId, blocks }));
}

export async function setOutcome(s: TestServer, caseId: string, outcome = 'rejection') {
  expectOk(
    await s.call('ceo', 'outcome_set', { case_id: caseId, outcome, owner_ack: true, reason: 'הוחלט' }),
  );
}
