// A case document's role in the file, detected from the headings of its first page when no one gave it:
// the first heading line that names a kind of document decides («כתב ערר», «כתב תשובה», «חוות דעת שמאי»,
// «שומה מכרעת», «שמאי מייעץ», «פרוטוקול», «תקנון», «סיכומים מטעם …», «עיקרי טיעון», «החלטת ביניים» /
// «החלטה בבקשה …», «בקשה ל…», «החלטה»). The committee's own heading line («ועדת הערר …») names none, so it
// never decides. The party a filing speaks for is the one its role or its title names («מטעם המשיבה»).
import type { DocumentRole } from '../db/schema/documents.ts';
import { normalizeHebrew } from '../hebrew/text.ts';

/** Per line, in this order: a line «כתב ערר על שומה מכרעת» is an appeal, not the assessment. */
const RULES: [DocumentRole, RegExp][] = [
  ['protocol', /(?:^| )פרוטוקול(?: |$)/],
  ['response', /(?:^| )(?:כתב תשובה|תשובת|תשובה לערר|תגובת|תגובה לערר|כתב תגובה)(?: |$)/],
  ['appeal', /^(?:כתב ה?ערר|ערר על|הודעת ערר|כתב ערר)(?: |$)/],
  ['advisory_appraisal', /(?:^| )שמאי(?:ת)? (?:ה)?מייע[צ]/],
  [
    'deciding_appraisal',
    /(?:^| )(?:שומה מכרעת|שומת (?:ה)?שמאי (?:ה)?מכריע|(?:חוות דעת )?(?:ה)?שמאי(?:ת)? (?:ה)?מכריע)/,
  ],
  [
    'appraisal',
    /(?:^| )(?:חוות דעת שמאי|חוות דעת שמאית|שומה (?:ה)?מטעמ|שומת מקרקעינ|שומה נגדית|חוות דעת שמאית נגדית)/,
  ],
  ['plan', /(?:^| )(?:תקנונ|הוראות התכנית|הוראות התוכנית)(?: |$)/],
  ['summation', /^(?:ה)?סיכומי(?:מ)?(?: |$)/],
  ['arguments', /^(?:ה)?עיקרי (?:ה)?טיעונ/],
  ['interim_decision', /^(?:החלטת ביניימ|החלטה בבקשה|החלטה בבקשת|החלטה (?:ב)?עניינ (?:ה)?בקשה)(?: |$)/],
  ['decision', /^(?:החלטה|החלטת ועדת הערר|פסק דינ)(?: |$)/],
  ['request', /^(?:בקשה|בקשת (?:ה)?(?:עורר|משיב|מבקש)\S*)(?! להיתר)(?: (?:ל|מטעמ|דחופה|מוסכמת|בהסכמה)\S*)/],
];

/** At most this many lines of the first page are headings worth reading. */
const HEAD_LINES = 15;
const HEAD_CHARS = 90;

/** The role the first page's headings name, or "other" when none does. */
const headLines = (firstPage: string) =>
  firstPage
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l.length <= HEAD_CHARS)
    .slice(0, HEAD_LINES);

export function detectRole(firstPage: string): DocumentRole {
  for (const line of headLines(firstPage)) {
    const norm = normalizeHebrew(line);
    for (const [role, re] of RULES) if (re.test(norm)) return role;
  }
  return 'other';
}

/** The line of the first page that names the document's role, normalised (its title), or null. */
export function titleLine(firstPage: string): string | null {
  for (const line of headLines(firstPage)) {
    const norm = normalizeHebrew(line);
    if (RULES.some(([, re]) => re.test(norm))) return norm;
  }
  return null;
}

/** Whether a heading line names a kind of document (a title, not a section). */
export const namesRole = (norm: string): boolean => RULES.some(([, re]) => re.test(norm));

/** «מטעם העוררים», «סיכומי המשיבה», «עיקרי טיעון של מבקשת ההיתר»: the party a title names. */
export function partyOfTitle(norm: string): 'appellant' | 'respondent' | 'third_party' | null {
  const m =
    /(?:^| )(?:מטעמ|של) (?:ה)?(\S.*)$/.exec(norm) ??
    /^(?:ה)?(?:סיכומי|סיכומי תשובה|עיקרי (?:ה)?טיעונ|בקשת) (?:ה)?(\S.*)$/.exec(norm);
  const who = m?.[1] ?? '';
  if (/^(?:משיב\S* [2-9]|מבקש\S* (?:ה)?היתר|צד ג)/.test(who)) return 'third_party';
  if (/^(?:עורר|מערער|עותר)/.test(who)) return 'appellant';
  if (/^(?:משיב|וועדה|ועדה|מקומית)/.test(who)) return 'respondent';
  return null;
}

/** Which party a document speaks for: by its role (appeal, response), else by its title (summations, …). */
export function partyOfRole(
  role: DocumentRole | null,
  firstPage = '',
): 'appellant' | 'respondent' | 'third_party' | null {
  if (role === 'appeal') return 'appellant';
  if (role === 'response') return 'respondent';
  if (role === 'summation' || role === 'arguments' || role === 'request') {
    const title = titleLine(firstPage);
    return title === null ? null : partyOfTitle(title);
  }
  return null;
}
