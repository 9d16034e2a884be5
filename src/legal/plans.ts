// Plan numbers as documents write them, to one canonical key per plan:
// - national numbers of the planning administration's system: 3 digits, a dash, 7 digits (101-0456789);
// - national and district outline plans: תמ"א 38, תמ"א 35, תמ"מ 3/21 (and תת"ל, תמ"ל), in every quote form,
//   with or without the quote, a slash or a one-letter prefix (בתמ"א 38): key «תמ"א 38», «תמ"מ 3/21»;
// - older local plans: a local prefix and a number, הצ/1-4/1250, גז/1234, רע/מק/2012: key without spaces.
//   Spaces around the slashes (רע / מק / 1010, חריש/ 1/ א) are dropped; a one-letter suffix written apart
//   (הר/2000 מ) is kept; a mirrored number (ג8647/, הר253/א') is set right (ג/8647, הר/253/א);
// - a local plan without a prefix, after the word plan: תכנית 9494, תכנית מתאר מקומית 3132, תב"ע 58,
//   תכנית 101/02/3: key the bare number.
// Appeal numbers share the local shape (ערר בב/6010/16), so a local form right after a proceeding's name is
// not a plan; nor is an exhibit mark in parentheses ((ת/1), (ו/4)). Garbage is no plan, never an exception.
import { DASH, DASH_CHARS, Q, Q_CHARS } from './text.ts';

export type PlanForm = 'national' | 'outline' | 'local';

export interface FoundPlan {
  key: string;
  form: PlanForm;
  start: number;
  end: number;
  text: string;
}

// Phone numbers share the 3+7 shape but start with 0; plan numbers never do.
const NATIONAL = new RegExp(`(?<![\\d${DASH_CHARS}])([1-9]\\d{2})${DASH}(\\d{7})(?![\\d])`, 'g');

const OUTLINE_KINDS: [RegExp, string][] = [
  [new RegExp(`^תמ${Q}{0,2}א$`), 'תמ"א'],
  [new RegExp(`^תמ${Q}{0,2}מ$`), 'תמ"מ'],
  [new RegExp(`^תת${Q}{0,2}ל$`), 'תת"ל'],
  [new RegExp(`^תמ${Q}{0,2}ל$`), 'תמ"ל'],
];
const OUTLINE = new RegExp(
  `(?<![א-ת])(?:[ובהלמשכ]{1,2})?(ת[מת]${Q}{0,2}[אמל])(?![א-ת])\\s*(?:מס(?:${Q}|פר)\\s*)?\\/?\\s*(\\d{1,4}(?:\\s?\\/\\s?(?:\\d{1,4}|[א-ת](?![א-ת])))*)(?![\\d])`,
  'gd',
);

const LOCAL = new RegExp(
  `(?<![א-ת\\d/\\\\${Q_CHARS}])(ו(?=[א-ת]{2,4}\\s?\\/))?((?:[א-ת]{1,4} ?\\/ ?){1,3})(\\d{1,6}[א-ת]?(?: ?[\\/${DASH_CHARS}] ?(?:\\d{1,6}[א-ת]?|[א-ת]{1,2}(?!${Q}[א-ת]))(?![א-ת\\d]))*)(?:(?<=\\d) ((?![והבל])[א-ת])(?![א-ת\\d${Q_CHARS}]))?(?![\\d\\/])`,
  'g',
);
// Mirrored in extraction from right-to-left text: the slash after the number, the prefix glued before it.
const MIRRORED = new RegExp(
  `(?<![א-ת\\d/${Q_CHARS}])([א-ת]{1,3})(\\d{2,6})\\/(?:([א-ת]{1,2})${Q}?(?![א-ת]))?(?![\\d/])`,
  'g',
);
/** A plan named by its kind's abbreviation and a number: תג"פ 279 (a development-boundary plan). */
const ABBREVIATED = new RegExp(`(?<![א-ת])(?:[ובהלמש]{1,2})?(תג${Q}{1,2}פ)\\s*(\\d{1,6})(?![\\d/])`, 'gd');
/** A national or district outline plan spelled out: «תכנית מתאר ארצית 10/ד/10», «תכנית המתאר המחוזית (תמ"מ) 5». */
const SPELLED = new RegExp(
  `(?<![א-ת])(?:[ובהלמש]{1,2})?(?:תכנית|תוכנית)\\s+ה?מי?תאר\\s+ה?(ארצית|מחוזית)(?:\\s*\\([^()\\d]{1,10}\\))?(?:\\s+מס(?:${Q}|פר|\\.))?\\s*[:.]?\\s*` +
    `(\\d{1,4}(?:\\s?\\/\\s?(?:\\d{1,4}|[א-ת](?![א-ת])))*)(?![\\d/]|[.,]\\d)`,
  'gd',
);
/** The word plan (and what qualifies it: «המתאר המקומית של גילה מס'») before a number without a prefix. */
const BARE = new RegExp(
  `(?<![א-ת])(?:[ובהלמש]{1,2})?(?:תכנית|תוכנית|תב${Q}{1,2}ע)(?:\\s+(?:ה?(?:מתאר|מיתאר|מפורטת|מקומית|מחוזית|בני?ין\\s+עיר)|מס(?:${Q}|פר|\\.)|של\\s+[א-ת]{2,}(?:\\s+[א-ת]{2,})?(?=\\s+מס(?:${Q}|פר|\\.))))*\\s*[:.]?\\s*` +
    `(\\d{1,6}(?:[א-ת](?![א-ת]))?(?: ?\\/ ?(?:\\d{1,6}|[א-ת](?![א-ת]))){0,3})(?![\\d/]|[.,]\\d|\\s*(?:מ${Q}{1,2}ר|%|₪|ש${Q}{1,2}ח|דונם|קומות|יח))`,
  'gd',
);
/** An exhibit mark: a letter or two, a slash and a short number, alone in parentheses ((ת/1), (מש/3)). */
const isExhibit = (text: string, start: number, end: number, key: string) =>
  /^(?:[א-ת]\/\d{1,3}|[א-ת]{2}\/\d{1,2})$/.test(key) &&
  /\(\s*$/.test(text.slice(Math.max(0, start - 2), start)) &&
  /^\s*\)/.test(text.slice(end, end + 2));

/** A proceeding's name just before a local-looking number: then it is an appeal or case number, not a plan. */
const PROCEEDING_BEFORE = new RegExp(
  `(?:ערר|עררים|בג${Q}{0,2}[ץצ]|עע${Q}{0,2}מ|עת${Q}{0,2}מ|ע${Q}{0,2}א|רע${Q}{0,2}א|בר${Q}{0,2}[םמ]|ת${Q}{0,2}א|ה${Q}{0,2}פ|תיק|בש${Q}{0,2}א)` +
    `\\s*(?:\\([^)]{1,12}\\)\\s*)?(?:מס(?:${Q}|פר)\\s*)?[:.]?\\s*$`,
);

const outlineKey = (letters: string, numbers: string): string | null => {
  const kind = OUTLINE_KINDS.find(([re]) => re.test(letters))?.[1];
  return kind === undefined ? null : `${kind} ${numbers.replace(/\s/g, '')}`;
};

/** Every plan number in a text, in order, with offsets; overlapping matches keep the first form found. */
export function findPlans(text: string): FoundPlan[] {
  const found: FoundPlan[] = [];
  const add = (p: FoundPlan) => {
    if (found.some((f) => p.start < f.end && f.start < p.end)) return;
    found.push(p);
  };
  NATIONAL.lastIndex = 0;
  for (let m = NATIONAL.exec(text); m !== null; m = NATIONAL.exec(text)) {
    add({ key: `${m[1]}-${m[2]}`, form: 'national', start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  OUTLINE.lastIndex = 0;
  for (let m = OUTLINE.exec(text); m !== null; m = OUTLINE.exec(text)) {
    const key = outlineKey(m[1] ?? '', m[2] ?? '');
    const start = m.indices?.[1]?.[0] ?? m.index;
    const end = m.index + m[0].length;
    if (key !== null) add({ key, form: 'outline', start, end, text: text.slice(start, end) });
  }
  SPELLED.lastIndex = 0;
  for (let m = SPELLED.exec(text); m !== null; m = SPELLED.exec(text)) {
    const start = m.index;
    const end = m.index + m[0].length;
    const kind = m[1] === 'ארצית' ? 'תמ"א' : 'תמ"מ';
    add({ key: `${kind} ${(m[2] ?? '').replace(/\s/g, '')}`, form: 'outline', start, end, text: m[0] });
  }
  LOCAL.lastIndex = 0;
  for (let m = LOCAL.exec(text); m !== null; m = LOCAL.exec(text)) {
    if (PROCEEDING_BEFORE.test(text.slice(Math.max(0, m.index - 30), m.index))) continue;
    // A conjunction ו glued to the prefix (וגז/1234) is not part of the plan's number.
    const start = m.index + (m[1]?.length ?? 0);
    const prefix = m[2] ?? '';
    // An outline plan written with a slash (תמא/38) is read above, never as a local plan.
    if (outlineKey(prefix.replace(/\/$/, ''), '1') !== null) continue;
    const key = `${prefix}${(m[3] ?? '').replace(new RegExp(DASH, 'g'), '-')}${m[4] ?? ''}`.replace(
      /\s/g,
      '',
    );
    const end = m.index + m[0].length;
    if (isExhibit(text, start, end, key)) continue;
    add({ key, form: 'local', start, end, text: text.slice(start, end) });
  }
  MIRRORED.lastIndex = 0;
  for (let m = MIRRORED.exec(text); m !== null; m = MIRRORED.exec(text)) {
    // A conjunction glued to the prefix (וג3948/) is not part of it.
    const and = /^ו./.test(m[1] ?? '') ? 1 : 0;
    const prefix = (m[1] ?? '').slice(and);
    // A glued preposition before a number (ב2005/) is not a plan's prefix.
    if (/^[בלמוהכש]$/.test(prefix)) continue;
    if (PROCEEDING_BEFORE.test(text.slice(Math.max(0, m.index - 30), m.index))) continue;
    const key = `${prefix}/${m[2]}${m[3] ? `/${m[3]}` : ''}`;
    const start = m.index + and;
    add({
      key,
      form: 'local',
      start,
      end: m.index + m[0].length,
      text: text.slice(start, m.index + m[0].length),
    });
  }
  ABBREVIATED.lastIndex = 0;
  for (let m = ABBREVIATED.exec(text); m !== null; m = ABBREVIATED.exec(text)) {
    const start = m.indices?.[1]?.[0] ?? m.index;
    const end = m.index + m[0].length;
    add({ key: `תג"פ ${m[2]}`, form: 'local', start, end, text: text.slice(start, end) });
  }
  BARE.lastIndex = 0;
  for (let m = BARE.exec(text); m !== null; m = BARE.exec(text)) {
    const start = m.indices?.[1]?.[0] ?? m.index;
    const end = m.index + m[0].length;
    add({ key: (m[1] ?? '').replace(/\s/g, ''), form: 'local', start, end, text: text.slice(start, end) });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Two numbers of one length that differ by two neighbouring digits swapped (2783 and 2738). */
const transposed = (a: string, b: string): boolean => {
  if (a.length !== b.length || a.length < 3 || a === b) return false;
  const at = [...a].findIndex((c, i) => c !== b[i]);
  return (
    at >= 0 &&
    a[at] === b[at + 1] &&
    a[at + 1] === b[at] &&
    a.slice(at + 2) === b.slice(at + 2) &&
    a[at] !== a[at + 1]
  );
};

/**
 * The keys a document's plan mentions stand for (`keys` in reading order, one per mention; `blocks`, the block
 * numbers the document names): bare key → full key, or null when the bare number is not a plan.
 * - A bare number that is the number of a plan named with its prefix in the same document («תכנית 2783» beside
 *   «תא/2783», «תכנית 279» beside «תג"פ 279») is that plan, when only one plan fits.
 * - A bare number written once that is a plan written at least twice with two neighbouring digits swapped
 *   («תכנית 2738» among several «2783») is that plan misprinted.
 * - A bare number the document gives as a block («גוש 3700») is the block, not a plan.
 */
export function barePlanAliases(
  keys: Iterable<string>,
  blocks: Iterable<number> = [],
): Map<string, string | null> {
  const list = [...keys];
  const all = [...new Set(list)];
  const count = (k: string) => list.filter((x) => x === k).length;
  const isBare = (k: string) => /^\d[\d/א-ת]*$/.test(k);
  const blockSet = new Set([...blocks].map(String));
  const out = new Map<string, string | null>();
  const fullOf = (bare: string) => {
    const full = all.filter((k) => k !== bare && (k.endsWith(`/${bare}`) || k.endsWith(` ${bare}`)));
    return full.length === 1 ? full[0] : undefined;
  };
  for (const bare of all.filter(isBare)) {
    if (blockSet.has(bare)) out.set(bare, null);
    else {
      const full = fullOf(bare);
      if (full !== undefined) out.set(bare, full);
    }
  }
  for (const bare of all.filter((k) => isBare(k) && /^\d+$/.test(k) && !out.has(k) && count(k) === 1)) {
    // Every key (bare or full) whose number is the swapped one, written more often than the misprint.
    const numberOf = (k: string) => /(?:^|[/ ])(\d+)$/.exec(k)?.[1] ?? '';
    const like = all.filter((k) => k !== bare && transposed(bare, numberOf(k)));
    const numbers = new Set(like.map(numberOf));
    const written = like.reduce((n, k) => n + count(k), 0);
    const [number] = numbers;
    if (numbers.size !== 1 || number === undefined || written < 2) continue;
    const full = all.find((k) => !isBare(k) && numberOf(k) === number);
    const target = full ?? (out.has(number) ? out.get(number) : number);
    if (typeof target === 'string') out.set(bare, target);
  }
  return out;
}

/** One written plan number as its key, or null when the text is not exactly one plan number. */
export function normalizePlan(text: string): string | null {
  const trimmed = text.trim();
  const [only, ...rest] = findPlans(trimmed);
  return only !== undefined && rest.length === 0 && only.start === 0 && only.end === trimmed.length
    ? only.key
    : null;
}
