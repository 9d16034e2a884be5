// The case the chair's workspace suites work on: the appeal and the response with claims, a full draft whose
// discussion cites a library ruling (so the ruling's holdings, extracted and pending, belong to the case), the
// latest check of the draft, a Word export, and two directions proposed by the ceo agent.

import { draftingCase, type Exported, fullBlocks } from '../functions/block/_drafting.ts';
import { extractHoldings, seedRuling } from '../functions/halacha/_halacha.ts';
import { expectOk, type TestServer } from '../harness/server.ts';

export interface ChairCase {
  caseId: string;
  rulingId: string;
  holdingIds: string[];
  directionIds: string[];
  export: Exported;
  docx: Uint8Array;
}

/** The words the draft cites the ruling by (its number and parties, as the library holds them). */
export const CITED = 'עע"מ 9001/19 כהן נ\' הוועדה המקומית לתכנון ובנייה רעננה';
export const DIRECTION = {
  title: 'הקלה אינה משנה ייעוד',
  rationale: 'הבקשה היא למעשה שינוי ייעוד של המגרש, ושינוי כזה טעון תכנית ולא הקלה; לכן הערר נדחה.',
};

export async function chairCase(s: TestServer): Promise<ChairCase> {
  const rulingId = await seedRuling(s.db.db);
  await extractHoldings(s, rulingId);
  const holdingIds = expectOk<{ items: { halacha_id: string }[] }>(
    await s.call('researcher', 'halacha_list', { document_id: rulingId }),
  ).items.map((h) => h.halacha_id);
  const c = await draftingCase(s);
  const blocks = fullBlocks(c).map((b) =>
    b.key === 'discussion:plan'
      ? {
          ...b,
          text: `${b.text}\nכפי שנפסק ב${CITED}, הקלה אינה כלי לשינוי ייעוד המקרקעין.`,
          citations: [{ text: CITED, number: 'עע"מ 9001/19' }],
        }
      : b,
  );
  expectOk(await s.call('writer', 'block_write', { case_id: c.caseId, blocks }));
  const directionIds: string[] = [];
  for (const d of [DIRECTION, { title: 'קבלה חלקית', rationale: 'חלופה: לאשר את החלק שאינו משנה ייעוד.' }]) {
    const made = expectOk<{ direction: { id: string } }>(
      await s.call('ceo', 'direction_propose', {
        case_id: c.caseId,
        ...d,
        outcome: d === DIRECTION ? 'rejection' : 'partial_acceptance',
      }),
    );
    directionIds.push(made.direction.id);
  }
  expectOk(await s.call('qa', 'draft_validate', { case_id: c.caseId }));
  const exported = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: c.caseId }));
  return {
    caseId: c.caseId,
    rulingId,
    holdingIds,
    directionIds,
    export: exported,
    docx: new Uint8Array(Buffer.from(exported.content_base64 ?? '', 'base64')),
  };
}
