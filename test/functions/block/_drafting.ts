// Shared by the drafting tools' tests: a case with the appeal and the response, their claims extracted (some
// confirmed), and a full set of blocks to write.
import { expect } from 'vitest';
import { seedCaseFile } from '../../harness/analysis.ts';
import { expectOk, type TestServer } from '../../harness/server.ts';

export interface DraftingCase {
  caseId: string;
  docs: Record<string, string>;
  appellantClaims: string[];
  respondentClaims: string[];
}

interface ClaimItem {
  id: string;
  party: string;
  status: string;
}

/** A case with the appeal and the response, claims extracted, the first two of each party confirmed. */
export async function draftingCase(s: TestServer): Promise<DraftingCase> {
  const { caseId, docs } = await seedCaseFile(s.db.db, { names: ['appeal', 'response'] });
  const done = expectOk<{ done: boolean }>(
    await s.call('analyst', 'claim_extract', { case_id: caseId, wait_ms: 10_000 }),
  );
  expect(done.done).toBe(true);
  const items = expectOk<{ items: ClaimItem[] }>(
    await s.call('analyst', 'claim_list', { case_id: caseId, limit: 200 }),
  ).items;
  const of = (party: string) => items.filter((c) => c.party === party).map((c) => c.id);
  const appellantClaims = of('appellant').slice(0, 2);
  const respondentClaims = of('respondent').slice(0, 2);
  for (const id of [...appellantClaims, ...respondentClaims]) {
    expectOk(await s.call('analyst', 'claim_record', { case_id: caseId, action: 'confirm', claim_id: id }));
  }
  return { caseId, docs, appellantClaims, respondentClaims };
}

/** A whole decision: every required block, two discussions, costs. */
export function fullBlocks(c: DraftingCase) {
  return [
    {
      kind: 'header',
      text: 'ועדת הערר לתכנון ולבנייה מחוז תל אביב\nערר 1234/25\nפרידמן נ׳ הוועדה המקומית הרצליה',
    },
    {
      kind: 'background',
      text: 'העוררים הם בעלי הזכויות בחלקה 12 בגוש 6543.\nהוועדה המקומית דחתה את הבקשה להיתר.',
    },
    {
      kind: 'appellant_claims',
      text: 'לטענת העוררים, החלטת הוועדה המקומית שגויה.',
      claim_ids: c.appellantClaims,
    },
    { kind: 'respondent_claims', text: 'לטענת המשיבה, ההחלטה סבירה.', claim_ids: c.respondentClaims },
    {
      kind: 'discussion',
      key: 'discussion:plan',
      title: 'התכנית החלה',
      text: 'התכנית החלה על המקרקעין היא תכנית הר/2000.\nאין בה הוראה המתירה את הבקשה.',
      claim_ids: [c.appellantClaims[0]],
      citations: [
        { text: 'עע"מ 1234/05 פלוני נ׳ אלמוני, פס׳ 12', number: 'עע"מ 1234/05', pinpoint: 'פס׳ 12' },
      ],
    },
    {
      kind: 'discussion',
      key: 'discussion:reasonableness',
      title: 'סבירות ההחלטה',
      text: 'ההחלטה סבירה ומנומקת.',
    },
    { kind: 'outcome', text: 'הערר נדחה.' },
    { kind: 'costs', text: 'אין צו להוצאות.' },
    { kind: 'signature', text: 'ניתנה היום, פה אחד.' },
  ].map((b) =>
    b.claim_ids === undefined ? b : { ...b, claim_ids: b.claim_ids.filter((x) => x !== undefined) },
  );
}

/** draft_export's data as the tests read it. */
export interface Exported {
  export_id: string;
  sha256: string;
  byte_size: number;
  content_base64: string | null;
  blocks: { key: string; kind: string; version: number; tag: string; bookmark: string; text_hash: string }[];
  missing: string[];
}
