// The claim rules on the tuning claim fixture (test/fixtures/claims/tuning): every filing and layout —
// bullets under an unusual heading, numbered paragraphs under «עיקרי הטיעון», an unheaded response in
// unnumbered paragraphs, a summation and «עיקרי טיעון» whose title names the party, a protocol's statements,
// a decision's summaries (headed, several claims in one paragraph) and its paraphrase in the committee's
// voice, an interim decision and a request — each document's role, and its claims exactly (no more, no less).
import { describe, expect, it } from 'vitest';
import { extractClaims } from '../../src/analysis/claims.ts';
import { detectRole } from '../../src/analysis/roles.ts';
import { claimAnswers, claimPages, scoreClaims } from '../fixtures/claims/claims_fixture.ts';

const answers = await claimAnswers('tuning');

describe('claims on the tuning case file', () => {
  for (const [name, want] of Object.entries(answers.documents)) {
    it(`${name}: role ${want.role}, ${want.claims.length} claims and nothing else`, async () => {
      const pages = await claimPages('tuning', name);
      const role = detectRole(pages[0] ?? '');
      expect(role).toBe(want.role);
      const found = extractClaims(pages, role);
      for (const c of found) expect(pages[c.page - 1]?.slice(c.start, c.end)).toBe(c.text);
      const r = scoreClaims(want.claims, found);
      expect({
        missed: r.missed,
        spurious: r.spurious.map((s) => `${s.party} ${s.kind} ${s.text}`),
      }).toEqual({ missed: [], spurious: [] });
    });
  }
});

describe('claim forms a decision writes', () => {
  const said = (text: string) => extractClaims([text], 'decision').map((c) => `${c.party}: ${c.text}`);

  it('splits a summary sentence at «, ו» and a new clause, and any reported claim at «וכן כי» / «עוד נטען כי»', () => {
    expect(said('תמצית טענות העוררים ההודעה על הבקשה לא נמסרה לשכנים, וזכותם להשמיע התנגדות נשללה.')).toEqual(
      [
        'appellant: תמצית טענות העוררים ההודעה על הבקשה לא נמסרה לשכנים',
        'appellant: וזכותם להשמיע התנגדות נשללה.',
      ],
    );
    expect(said('לטענת המשיבה השומה נערכה כדין, וכן כי המועד הקובע נקבע נכון. הדיון נקבע למחר.')).toEqual([
      'respondent: לטענת המשיבה השומה נערכה כדין',
      'respondent: וכן כי המועד הקובע נקבע נכון.',
    ]);
    expect(said('העוררת טוענת כי הבקשה פורסמה באיחור עוד נטען כי הפרסום לא כלל את כל הפרטים.')).toEqual([
      'appellant: העוררת טוענת כי הבקשה פורסמה באיחור',
      'appellant: עוד נטען כי הפרסום לא כלל את כל הפרטים.',
    ]);
  });

  it('keeps a contrast, a consequence and «, וכי» with the clause they belong to', () => {
    expect(said('תמצית טענות העוררת תקופת הדחייה היא שנתיים בלבד, ולא חמש שנים כפי שנקבע.')).toHaveLength(1);
    expect(said('תמצית טענות העוררת המקדם נמוך מדי, ולכן השווי שנקבע גבוה.')).toHaveLength(1);
    expect(said('המשיבה טוענת כי התשלום נעשה בזמן, וכי אם היה איחור הוא זניח.')).toHaveLength(1);
  });

  it('takes no claim from what a party did, outside a heading of claims', () => {
    expect(
      said(
        'העוררים הגישו ערר על החלטת הוועדה. המשיבה החליטה לדחות את הבקשה. העוררים צירפו לערר חוות דעת שמאית. העוררים הגישו את טענותיהם בכתב.',
      ),
    ).toEqual([]);
    // Inside a summary run into the text too: the committee's account of the steps is not a claim.
    expect(
      said('תמצית טענות המשיבה הפטור אינו חל על הנכס. המשיבה הוציאה דרישת תשלום. החיוב נערך כדין.'),
    ).toEqual(['respondent: תמצית טענות המשיבה הפטור אינו חל על הנכס.', 'respondent: החיוב נערך כדין.']);
    // Under a heading of claims the heading says whose every sentence is.
    expect(said('טענות העוררים\n1. העוררים הגישו השגה על השומה במועד.')).toEqual([
      'appellant: העוררים הגישו השגה על השומה במועד.',
    ]);
  });

  it('reads verbs of arguing («מלינה על», «משיגה על», «וטוענת») and not the same words in other senses', () => {
    expect(said('העוררת מלינה על כך שהשמאי לא ביקר בנכס.')).toEqual([
      'appellant: העוררת מלינה על כך שהשמאי לא ביקר בנכס.',
    ]);
    expect(said('המשיבה מסכימה לכך, וטוענת כי אין בכך כדי לשנות את השומה.')).toHaveLength(1);
    expect(said('העוררים הלינו את התשלום חודשים רבים. העוררים השיגו את ההיתר בשנת 2010.')).toEqual([]);
  });

  it('carries a claim on with «בנוסף» or «כמו כן» only right after it', () => {
    expect(said('לטענת העוררת השומה גבוהה. בנוסף, מקדם הגודל שגוי.')).toEqual([
      'appellant: לטענת העוררת השומה גבוהה.',
      'appellant: בנוסף, מקדם הגודל שגוי.',
    ]);
    expect(said('לטענת העוררת השומה גבוהה. הוועדה קיימה סיור בנכס. בנוסף, הוגשו מסמכים.')).toEqual([
      'appellant: לטענת העוררת השומה גבוהה.',
    ]);
  });
});
