// Every shekel sum of a text with what it is, read from its sentence: a betterment levy demanded or set
// («היטל השבחה», «השומה עמדה על»), compensation («פיצויים»), or a sum claimed («תבעו», «דרשה»); null when the
// sentence says none of these. Costs («הוצאות», «שכר טרחה») and other levies (paving, sewage, drainage,
// development) are not amounts of the case and are left out. The label is the cue nearest before the sum
// (since the sum before it) when it is close; else the next sentence's when that opens by pointing back
// («הסכום האמור היווה פיצויים»); else the nearest before it in the sentence; else the first after it. Garbage is nothing, never an exception.
import { findMoney } from './money.ts';
import { Q } from './text.ts';

export type AmountLabel = 'levy' | 'compensation' | 'claim';

export interface FoundAmount {
  agorot: number;
  label: AmountLabel | null;
  start: number;
  end: number;
  text: string;
}

const OTHER_LEVY = '(?:סלילה|ביוב|פיתוח|תיעול|ניקוז|מים|שצ"פ)';
// Order matters where cues overlap: a claim for compensation is a claim; costs beat everything beside them.
const CUES: [AmountLabel | 'left_out', RegExp][] = [
  [
    'left_out',
    new RegExp(
      `הוצאות|שכ(?:ר|${Q})\\s*(?:ה)?טרחה|שכ${Q}ט|היטלי?\\s+(?:ה)?${OTHER_LEVY}|דמי\\s+(?:ה)?${OTHER_LEVY}`,
      'g',
    ),
  ],
  [
    'claim',
    /(?<![א-ת])(?:ו|ה|ש|ב)?(?:תבע|תבעו|תבעה|תובע|תובעים|תובעת|תביעה|תביעת|תביעתם|תביעתו|תביעתה|דרש|דורש|דרשה|דרשו|דורשים|נתבע)(?![א-ת])/g,
  ],
  ['compensation', /(?<![א-ת])(?:ו|ה|ב|ל|כ)?פיצוי(?:ים|י|ם)?(?![א-ת])/g],
  [
    'levy',
    new RegExp(
      `היטלי?\\s+(?:ה)?השבחה|היטל(?!\\s+(?:ה)?${OTHER_LEVY})(?![א-ת])|(?<![א-ת])(?:ה|ו|ב|ש)?שומ(?:ה|ת|ות|תו|תה)(?![א-ת])`,
      'g',
    ),
  ],
];

const SENTENCE_END = /[.;!?](?=\s|$)|\n/g;
/** A cue this close before a sum is its label, whatever the next sentence says. */
const NEAR = 15;
const POINTS_BACK = /^\s*(?:ו)?(?:הסכום|סכום\s+זה|הסך|סך\s+זה)(?:\s+(?:האמור|הנ"ל|הזה))?/;

interface Cue {
  label: AmountLabel | 'left_out';
  start: number;
  end: number;
}

function cuesOf(text: string): Cue[] {
  const out: Cue[] = [];
  for (const [label, re] of CUES) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const cue = { label, start: m.index, end: m.index + m[0].length };
      // An earlier (stronger) cue over the same words wins: «היטל סלילה» is no levy cue.
      if (!out.some((c) => c.start < cue.end && cue.start < c.end)) out.push(cue);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function sentencesOf(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let from = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m !== null; m = SENTENCE_END.exec(text)) {
    out.push({ start: from, end: m.index + 1 });
    from = m.index + 1;
  }
  if (from < text.length) out.push({ start: from, end: text.length });
  return out;
}

/** Every shekel sum in a text with its label, in order, with offsets; costs and other levies left out. */
export function findAmounts(text: string): FoundAmount[] {
  const money = findMoney(text);
  if (money.length === 0) return [];
  const cues = cuesOf(text);
  const sentences = sentencesOf(text);
  const out: FoundAmount[] = [];
  for (const [si, s] of sentences.entries()) {
    const inside = money.filter((m) => s.start <= m.start && m.start < s.end);
    const here = cues.filter(
      (c) => s.start <= c.start && c.end <= s.end && !inside.some((m) => c.start < m.end && m.start < c.end),
    );
    let since = s.start;
    for (const m of inside) {
      const before = here.filter((c) => c.end <= m.start);
      const sinceLast = before.filter((c) => c.start >= since);
      const near = sinceLast.filter((c) => m.start - c.end <= NEAR).at(-1);
      const next = sentences[si + 1];
      const back =
        next !== undefined && POINTS_BACK.test(text.slice(next.start, next.end))
          ? cues.find((c) => next.start <= c.start && c.end <= next.end)
          : undefined;
      const cue = near ?? back ?? sinceLast.at(-1) ?? before.at(-1) ?? here.find((c) => c.start >= m.end);
      since = m.end;
      if (cue?.label === 'left_out') continue;
      out.push({ agorot: m.agorot, label: cue?.label ?? null, start: m.start, end: m.end, text: m.text });
    }
  }
  return out;
}
