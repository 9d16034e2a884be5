// The claim and role rules on small texts: claims under a heading and by cue without one, relief requests,
// procedural paragraphs skipped, a sub-list's introduction, a decision's mixed summary and a third party's
// heading, paragraphs that wrap over lines as in PDF text; roles from the first heading that names one.
import { describe, expect, it } from 'vitest';
import { extractClaims } from '../../src/analysis/claims.ts';
import { detectRole } from '../../src/analysis/roles.ts';

const claims = (text: string, role: Parameters<typeof extractClaims>[1]) =>
  extractClaims(text.split('\f'), role).map((c) => `${c.party}:${c.kind}:${c.label}`);

describe('claim rules', () => {
  it('under a claims heading every numbered paragraph is a claim; outside it none is', () => {
    const text = [
      'כתב ערר',
      'רקע',
      '1. העוררים טוענים זאת כבר ברקע, אך זהו רקע.',
      'טענות העוררים',
      '2. השומה שגויה.',
      '3. הערר הוגש ביום 1.1.2025.',
      '4. יש לקבוע כי הערר הוגש במועד.',
      'הסעדים המבוקשים',
      '5. לבטל את השומה.',
    ].join('\n');
    expect(claims(text, 'appeal')).toEqual(['appellant:claim:2', 'appellant:claim:4', 'appellant:relief:5']);
  });

  it('without a heading, an appeal’s claims are the paragraphs with claim cues; relief by its words', () => {
    const text = [
      'כתב ערר',
      '1. העוררים הם הבעלים של הנכס.',
      '2. הוועדה שגתה כשלא החילה את הפטור.',
      '3. התכנית אושרה ביום 1.1.2020.',
      '4. לטענת העוררים השמאי לא הביא בחשבון את זיקת ההנאה.',
      '5. לפיכך מתבקשת ועדת הערר לקבל את הערר.',
    ].join('\n');
    expect(claims(text, 'appeal')).toEqual(['appellant:claim:2', 'appellant:claim:4', 'appellant:relief:5']);
  });

  it('reads paragraphs wrapped over lines, skips a sub-list’s introduction, and reads a decision’s summaries', () => {
    const wrapped = [
      'טענות המשיבה',
      '1. הטענות הן:',
      'א. השומה נערכה כדין ובהתאם',
      'לתקנות.',
      'ב. המועד הקובע נכון.',
    ].join('\n');
    const found = extractClaims([wrapped], 'response');
    expect(found.map((c) => `${c.party}:${c.label}`)).toEqual(['respondent:א', 'respondent:ב']);
    expect(found[0]?.text).toBe('השומה נערכה כדין ובהתאם\nלתקנות.');
    const decision = [
      'החלטה',
      '1. הרקע לערר.',
      'תמצית טענות הצדדים',
      '2. לטענת העוררים השומה מופרזת.',
      '3. המשיבה טוענת כי השומה סבירה.',
      'טענות מבקש ההיתר',
      '4. ההיתר ניתן כדין.',
      'דיון והכרעה',
      '5. הערר נדחה.',
    ].join('\n');
    expect(claims(decision, 'decision')).toEqual([
      'appellant:claim:2',
      'respondent:claim:3',
      'third_party:claim:4',
    ]);
    expect(claims('החלטה\n1. הערר נדחה, שכן העוררים טעו.', 'decision')).toEqual([]);
    expect(claims(wrapped, 'appraisal')).toEqual([]);
  });
});

describe('claims a decision reports in the committee’s voice', () => {
  const said = (text: string) => extractClaims([text], 'decision').map((c) => `${c.party}: ${c.text}`);

  it('takes a pronoun’s party from the sentence, a claim list after «טענות … כי» and «;», and a quote after a colon', () => {
    expect(said('המשיבים הגישו תביעה לפיצויים, שכן שלטענתם נפגע ערך דירתם. הוועדה דחתה את התביעה.')).toEqual([
      'respondent: המשיבים הגישו תביעה לפיצויים, שכן שלטענתם נפגע ערך דירתם.',
    ]);
    expect(
      said('בבסיס העתירה עומדות טענות העותרת כי ההפקעה התיישנה; המגרש לא שימש לצורך ציבורי. הרקע לעתירה.'),
    ).toEqual([
      'appellant: בבסיס העתירה עומדות טענות העותרת כי ההפקעה התיישנה;',
      'appellant: המגרש לא שימש לצורך ציבורי.',
    ]);
    expect(
      said(
        'העוררת טוענת כי השומה שגויה, ומנמקת זאת כך:\n"המקדם שנקבע אינו מבטא את הסיכון"\nאיני מקבל טענה זו.',
      ),
    ).toEqual([
      'appellant: העוררת טוענת כי השומה שגויה, ומנמקת זאת כך:',
      'appellant: "המקדם שנקבע אינו מבטא את הסיכון"',
    ]);
  });

  it('leaves out a concession, the committee’s reasoning, an impersonal «נטען» and a «(להלן: …)» aside', () => {
    expect(said('העוררת אינה חולקת על כך כי התכנית אושרה. נטען כי השומה גבוהה. לטעמנו השומה סבירה.')).toEqual(
      [],
    );
    expect(said('לטענת המשיבה 1 (להלן: הוועדה) הערר הוגש באיחור.')).toEqual([
      'respondent: לטענת המשיבה 1 (להלן: הוועדה) הערר הוגש באיחור.',
    ]);
  });

  it('reads a bare «המבקש» as the permit applicant where the decision is about a permit', () => {
    expect(said('עניינו של הערר בהיתר לבנייה. לדברי המבקש הקיר נבנה לפני שנים.')).toEqual([
      'third_party: לדברי המבקש הקיר נבנה לפני שנים.',
    ]);
  });
});

describe('roles', () => {
  it('takes the first heading that names a kind of document; the committee’s own heading names none', () => {
    const head = "ועדת הערר לתכנון ובנייה — מחוז מרכז\nערר מס' 1024/25\n";
    expect(detectRole(`${head}כתב ערר על שומה מכרעת`)).toBe('appeal');
    expect(detectRole(`${head}תשובת המשיבה לערר`)).toBe('response');
    expect(detectRole('שומה מכרעת\nבעניין: גוש 1 חלקה 2')).toBe('deciding_appraisal');
    expect(detectRole('חוות דעת שמאי מייעץ')).toBe('advisory_appraisal');
    expect(detectRole('חוות דעת שמאית מטעם העוררים')).toBe('appraisal');
    expect(detectRole(`${head}פרוטוקול דיון מיום 1.1.2025`)).toBe('protocol');
    expect(detectRole("תכנית מס' הצ/1-4/1250\nתקנון")).toBe('plan');
    expect(detectRole(`${head}החלטה`)).toBe('decision');
    expect(detectRole(head)).toBe('other');
  });
});
