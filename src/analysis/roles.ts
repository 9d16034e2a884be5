// A case document's role in the file, detected from the headings of its first page when no one gave it:
// the first heading line that names a kind of document decides («כתב ערר», «כתב תשובה», «חוות דעת שמאי»,
// «שומה מכרעת», «שמאי מייעץ», «פרוטוקול», «תקנון», «החלטה»). The committee's own heading line («ועדת הערר …»)
// names none, so it never decides.
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
  ['decision', /^(?:החלטה|החלטת ועדת הערר|פסק דינ)(?: |$)/],
];

/** At most this many lines of the first page are headings worth reading. */
const HEAD_LINES = 15;
const HEAD_CHARS = 90;

/** The role the first page's headings name, or "other" when none does. */
export function detectRole(firstPage: string): DocumentRole {
  const lines = firstPage
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l.length <= HEAD_CHARS)
    .slice(0, HEAD_LINES);
  for (const line of lines) {
    const norm = normalizeHebrew(line);
    for (const [role, re] of RULES) if (re.test(norm)) return role;
  }
  return 'other';
}

/** Which party a document speaks for by its role (claims without a heading of their own). */
export function partyOfRole(role: DocumentRole | null): 'appellant' | 'respondent' | null {
  if (role === 'appeal') return 'appellant';
  if (role === 'response') return 'respondent';
  return null;
}
