// What the claim readers share (claims.ts reads filings and protocols, claims_decisions.ts decisions): the
// candidate's shape, what a heading opens, the party words, sentences, and the candidate made from a span.
import type { ClaimKind, ClaimParty } from '../db/schema/analysis.ts';
import { normalizeHebrew } from '../hebrew/text.ts';

export interface ClaimCandidate {
  party: ClaimParty;
  kind: ClaimKind;
  /** The paragraph's number as written, if it has one. */
  label: string | null;
  /** The heading it was found under (normalised), if any. */
  heading: string | null;
  page: number;
  start: number;
  end: number;
  text: string;
  /** normalizeHebrew of the text: the key that tells two claims apart. */
  norm: string;
}

/** What a heading opens: claims (of a named party, or of the filing's), relief, or none (facts, procedure…). */
export type Section = { type: 'claims' | 'relief' | 'none' | 'head'; party: ClaimParty | null };

export const THIRD_PARTY = /משיב\S* [2-9]|מבקש\S* ה?היתר|צד ג|צד שלישי|צדדימ שלישיימ|מתנגד|שכנימ/;
export const RESPONDENT = /משיב|ה?וועדה המקומית|ה?ועדה המקומית|ה?וועדה(?: |$)|ה?עירייה|עיריית/;
export const APPELLANT = /עורר|מערער|עותר|ה?ערר(?: |$)/;

/** Headings that are not claims: facts, parties, procedure, introduction, discussion, closing, appendices. */
const NOT_CLAIMS =
  /^(?:ה)?(?:רקע|עובדות|העובדות|השתלשלות|ההליכ|הליכ|מהלכ|הצדדימ|מבוא|פתח דבר|פתיחה|כללי|דיונ|ההכרעה|הכרעה|החלטה|ההחלטה|סופ דבר|סיכומ|לסיכומ|סיכומו של דבר|אחרית דבר|נספח|רשימת|תוכנ העניינימ|מסמכימ|העדימ|הראיות|נוכחימ|לפני|בפני|התוצאה|תוצאה|המסגרת הנורמטיבית|הדינ החל|המצב המשפטי|השאלה|השאלות|המחלוקת|הסוגיה|הנכס|המקרקעינ|התכנית|השומה|ההיתר|הבקשה|האישור)(?: |$)/;

/** The section a heading opens. Unknown headings of a filing argue (`argues`); in a decision they do not. */
export function headingSection(norm: string, argues = false): Section | null {
  const h = norm.replace(/^(?:פרק [א-ת0-9]+ )/, '');
  if (/^(?:ה)?סעד(?:ימ)?(?: ה?מבוקש\S*)?$/.test(h) || /^(?:ה)?סעדימ ה?מבוקשימ/.test(h)) {
    return { type: 'relief', party: null };
  }
  const m =
    /^(?:תמצית |עיקר |עיקרי |פירוט |תקצירה?ה? )?(?:ה)?(?:טענות|נימוקי|נימוקימ|הנימוקימ|עמדת|עמדות|טיעוני|השגות|טיעונ|תשובת|תגובת)(?: (.*))?$/.exec(
      h,
    );
  if (m !== null) {
    const who = m[1] ?? '';
    if (who === '' || /^(?:ה)?צדדימ/.test(who)) return { type: 'claims', party: null };
    if (THIRD_PARTY.test(who)) return { type: 'claims', party: 'third_party' };
    if (RESPONDENT.test(who)) return { type: 'claims', party: 'respondent' };
    if (APPELLANT.test(who)) return { type: 'claims', party: 'appellant' };
    return argues ? { type: 'claims', party: null } : null;
  }
  if (NOT_CLAIMS.test(h)) return { type: 'none', party: null };
  return argues ? { type: 'claims', party: null } : null;
}

export const isClaimsHeading = (norm: string) => headingSection(norm)?.type === 'claims';

/** The party words open with: appellant, respondent or third party, by the first one named. */
export function partyCue(norm: string, words = 8): ClaimParty | null {
  const opening = norm.split(' ').slice(0, words).join(' ');
  const t = opening.search(THIRD_PARTY);
  const a = opening.search(APPELLANT);
  const r = opening.search(RESPONDENT);
  const first = [
    [t, 'third_party'],
    [a, 'appellant'],
    [r, 'respondent'],
  ].filter(([i]) => (i as number) >= 0) as [number, ClaimParty][];
  first.sort((x, y) => x[0] - y[0]);
  // «המשיבה 2» matches both respondent and third party at one place: the third party's reading is the longer.
  return first[0]?.[1] ?? null;
}

export interface Unit {
  start: number;
  end: number;
  /** The separator that ended it: a colon or semicolon carries a claim into the next unit. */
  sep: string;
}

/** A block's sentences: split after . ! ? (before a space), at ; and at : followed by words. */
export function sentences(text: string, start: number, end: number): Unit[] {
  const raw = text.slice(start, end);
  const out: Unit[] = [];
  // A colon after «להלן» or «קרי» names, it does not introduce; a line ending a quotation or a sentence ends.
  const re = /[.!?](?=\s)|;|(?<!להלן|קרי|ראו|ר')\s*:(?=\s+\S+\s+\S+)|(?<=["”׳״'])\n/g;
  let from = 0;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    // A full stop inside a number or an abbreviation of one letter («ס. 4», «ת.א.») does not end a sentence.
    if (m[0] === '.' && /(?:^|[\s(])[א-ת]$/.test(raw.slice(Math.max(0, m.index - 2), m.index))) continue;
    const to = m.index + m[0].length;
    push(from, to, m[0].trim() === '' ? '' : m[0].trim());
    from = to;
  }
  push(from, raw.length, '');
  return out;
  function push(a: number, b: number, sep: string) {
    const seg = raw.slice(a, b);
    const lead = seg.length - seg.trimStart().length;
    const trail = seg.length - seg.trimEnd().length;
    const s = start + a + lead;
    const e = start + b - trail;
    if (e - s >= 8) out.push({ start: s, end: e, sep });
    else if (out.length > 0 && sep !== '') (out[out.length - 1] as Unit).sep = sep;
  }
}

export function candidate(
  party: ClaimParty,
  kind: ClaimKind,
  label: string | null,
  heading: string | null,
  page: number,
  text: string,
  start: number,
  end: number,
): ClaimCandidate {
  const t = text.slice(start, end);
  return { party, kind, label, heading, page: page + 1, start, end, text: t, norm: normalizeHebrew(t) };
}

export const slice = (text: string, b: { start: number; end: number }) => text.slice(b.start, b.end);
