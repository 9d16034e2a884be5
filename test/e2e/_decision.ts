// The e2e decision's case, built through the tools as the agents build it: the ceo opens the case and uploads
// its appeal, the local committee's response and the deciding appraisal; the researcher adds the ruling to the
// library with its number and parties; the ceo drains the queue (text extracted and indexed, the extractors
// that read it queued); the analyst runs the claim and appraisal extractors and confirms each party's claim.
import { expect } from 'vitest';
import { rulingText, type Scenario } from '../functions/draft/_validate.ts';
import { expectOk, type TestServer } from '../harness/server.ts';

const APPELLANT = 'יוסף כהן';
const RESPONDENT = 'הוועדה המקומית לתכנון ובנייה הרצליה';
const APPRAISER = 'מיכאל ברנע';

// The documents are written for the rule extractors (src/analysis): the appeal's claim and relief under
// «נימוקי הערר» (its background is no claim), the response's claim by its cue «טוענת», and the betterment
// by «שווי ההשבחה» in a deciding appraisal — the figure the draft's background gives.
const appealText = (caseNumber: string) =>
  [
    'ועדת הערר לתכנון ובנייה מחוז תל אביב',
    caseNumber,
    `העוררים: ${APPELLANT}`,
    `המשיבה: ${RESPONDENT}`,
    '',
    'כתב ערר על שומה מכרעת בעניין היטל השבחה',
    '',
    'רקע',
    '1. העוררים הם הבעלים של המקרקעין ברחוב הנרקיסים 7 בהרצליה.',
    `2. ביום 3.2.2026 נמסרה לעוררים השומה המכרעת של השמאי המכריע ${APPRAISER}.`,
    '',
    'נימוקי הערר',
    '3. העוררים טוענים כי שומת השמאי המכריע שגויה, שכן לא הביא בחשבון את מגבלות הבנייה החלות על הנכס.',
    '4. לפיכך מתבקשת ועדת הערר לבטל את השומה המכרעת.',
    '',
    'עו"ד תמר לוינסון, באת כוח העוררים',
  ].join('\n');

const responseText = (caseNumber: string) =>
  [
    'ועדת הערר לתכנון ובנייה מחוז תל אביב',
    `${caseNumber} כהן נ' הוועדה המקומית לתכנון ובנייה הרצליה`,
    '',
    'תשובת הוועדה המקומית לערר',
    '',
    '1. הערר הוגש ביום 3.2.2026, והוועדה המקומית קיבלה את העתקו ביום 5.2.2026.',
    '2. הוועדה המקומית טוענת כי השומה סבירה ואין להתערב בה, שכן השמאי המכריע בחן את כל טענות הצדדים.',
    '3. לפיכך תבקש הוועדה המקומית לדחות את הערר.',
    '',
    'עו"ד גלעד רז, בא כוח הוועדה המקומית',
  ].join('\n');

const decidingAppraisalText = [
  'שומה מכרעת',
  'בעניין: היטל השבחה — רחוב הנרקיסים 7, הרצליה',
  `הצדדים: ${APPELLANT} נגד ${RESPONDENT}`,
  `השמאי המכריע: ${APPRAISER}, שמאי מקרקעין`,
  '',
  '1. מוניתי כשמאי מכריע לפי סעיף 14(ב) לתוספת השלישית לחוק התכנון והבנייה, כדי להכריע במחלוקת בין הצדדים.',
  '2. לאחר ההתאמות, שווי ההשבחה הוא 1,250,000 ש"ח.',
  '',
  `${APPRAISER}, שמאי מקרקעין`,
].join('\n');

interface Stored {
  document: { id: string };
  created: boolean;
}

/** Uploads one case document with its role (ceo, at intake); returns its id. */
async function upload(s: TestServer, caseId: string, role: string, title: string, text: string) {
  const stored = expectOk<Stored>(
    await s.call('ceo', 'document_upload', { corpus: 'case', case_id: caseId, role, title, text }),
  );
  expect(stored.created, title).toBe(true);
  return stored.document.id;
}

/** Runs the queue (ceo) until nothing is due: each extracted text queues the extractors that read it. */
async function drain(s: TestServer): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const report = expectOk<{ errors: unknown[]; remaining: number }>(
      await s.call('ceo', 'extraction_run', { max_jobs: 50 }),
    );
    expect(report.errors).toEqual([]);
    if (report.remaining === 0) return;
  }
  throw new Error('the queue still had due jobs after 5 runs');
}

interface ClaimItem {
  id: string;
  party: string;
  kind: string;
  status: string;
}

let n = 0;
/** Builds the case through the tools; returns what the shared draft blocks are written from. */
export async function buildCase(s: TestServer): Promise<Scenario> {
  n++;
  const caseNumber = `ערר ${5000 + n}/25`;
  const opened = expectOk<{ case: { id: string }; created: boolean }>(
    await s.call('ceo', 'case_create', {
      case_number: caseNumber,
      title: 'כהן נ׳ הוועדה המקומית הרצליה',
      appellant: APPELLANT,
      respondent: RESPONDENT,
      committee: RESPONDENT,
    }),
  );
  expect(opened.created).toBe(true);
  const caseId = opened.case.id;
  const appealId = await upload(s, caseId, 'appeal', 'כתב ערר', appealText(caseNumber));
  await upload(s, caseId, 'response', 'תשובת הוועדה המקומית', responseText(caseNumber));
  await upload(s, caseId, 'deciding_appraisal', 'שומה מכרעת', decidingAppraisalText);
  const ruling = expectOk<Stored>(
    await s.call('researcher', 'library_add', {
      text: rulingText(`כהן ${n}`),
      title: 'כהן נ׳ הוועדה המקומית',
      number: 'עע"מ 9001/19',
      parties: "יוסף כהן ואח' נ' הוועדה המקומית לתכנון ובנייה הרצליה",
    }),
  );
  await drain(s);

  for (const tool of ['claim_extract', 'appraiser_fact_extract']) {
    const run = expectOk<{ done: boolean; skipped: unknown[] }>(
      await s.call('analyst', tool, { case_id: caseId, wait_ms: 10_000 }),
    );
    expect([tool, run.done, run.skipped]).toEqual([tool, true, []]);
  }
  // The draft's background gives this figure: validation checks it against the fact found here.
  const facts = expectOk<{
    groups: { facts: { value: number | string; role: string; appraiser: string | null }[] }[];
  }>(await s.call('analyst', 'appraiser_fact_get', { case_id: caseId, kind: 'betterment' }));
  expect(facts.groups.flatMap((g) => g.facts.map((f) => [f.value, f.role, f.appraiser]))).toEqual([
    [125_000_000, 'deciding', APPRAISER],
  ]);

  // Each party's claim and request for relief are found; the two claims are confirmed (every confirmed claim
  // must be answered by a discussion block), the relief requests stay candidates.
  const found = expectOk<{ items: ClaimItem[] }>(
    await s.call('analyst', 'claim_list', { case_id: caseId, limit: 200 }),
  ).items;
  expect(found.map((c) => `${c.party}:${c.kind}:${c.status}`).sort()).toEqual([
    'appellant:claim:candidate',
    'appellant:relief:candidate',
    'respondent:claim:candidate',
    'respondent:relief:candidate',
  ]);
  const claimIds: string[] = [];
  for (const party of ['appellant', 'respondent']) {
    const claim = found.find((c) => c.party === party && c.kind === 'claim');
    if (claim === undefined) throw new Error(`no ${party} claim`);
    expectOk(
      await s.call('analyst', 'claim_record', { case_id: caseId, action: 'confirm', claim_id: claim.id }),
    );
    claimIds.push(claim.id);
  }
  return { caseId, caseNumber, appealId, claimIds, rulingId: ruling.document.id };
}
