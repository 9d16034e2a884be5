// Land as documents identify it: block (גוש) and parcel (חלקה): «גוש 6638 חלקה 12», «גוש 6638, חלקות 12-14»,
// «גוש 6638 חלקות 12 ו-13», «בגוש 6638 בחלקה 12», «חלקה 12 בגוש 6638», «גוש/חלקה 6638/12», «ח"ח 12» (part of
// a parcel), and a block alone. Each parcel is one key «גוש 6638 חלקה 12»; a range names every parcel in it.
import { DASH, Q } from './text.ts';

export interface FoundParcel {
  block: number;
  /** The parcels named with the block, in order; empty when only the block is named. */
  parcels: number[];
  start: number;
  end: number;
  text: string;
}

/** A range longer than this is not a list of parcels someone wrote out. */
const MAX_RANGE = 50;

const NUM = '\\d{1,6}';
const ITEM = `${NUM}(?:\\s*${DASH}\\s*${NUM})?`;
// «12, 13 ו-14», «125, 126, ו- 129»: a comma, a ו (with or without a dash, spaced or not), or both.
const SEP = `\\s*(?:,\\s*ו\\s*${DASH}?|,|ו\\s*${DASH}?|או)\\s*`;
const LIST = `${ITEM}(?:${SEP}${ITEM})*`;
// «חלקה (חדשה) 44», «חלקה מס' 44»: a remark in parentheses or the word number between the word and the list.
const NO = `(?:\\([^()\\d]{1,12}\\)\\s*)?(?:מס(?:${Q}|פר)\\s*)?`;
// After a block, «ח' 12» is its parcel too (the abbreviation of חלקה).
// Part of a parcel is that parcel: «ח"ח 12», «חלקי חלקות 12 ו-13», «חלק מחלקה 12».
const PART_OF = `חלקי\\s+חלק(?:ה|ות)|חלק\\s+מ(?:ה)?חלק(?:ה|ות)`;
const PARCEL_WORD = `(?:${PART_OF}|ב?חלק(?:ה|ות)|ב?ח${Q}{1,2}ח|ח${Q}(?![א-ת${Q.slice(1, -1)}]))`;
const PARCEL_START = `(?<=(?:^|[^א-ת])(?:ו|ו?[בהכלמש])?)(?:${PART_OF}|חלק(?:ה|ות)|ח${Q}{1,2}ח)`;
/** A list after the singular word is one item (a range at most): «חלקה 12, 540 מ"ר» names parcel 12 only. */
const PLURAL = /חלקות\s*[:.]?\s*(?:מס)?/;
// A prefix letter glued to the word (בגוש, כגוש, וגוש) is left out of the match; a fiscal block (גוש שומה 2)
// is a block.
const BLOCK_WORD = '(?<=(?:^|[^א-ת])(?:ו|ו?[בהכלמש])?)גוש';

const BLOCK_FIRST = new RegExp(
  `${BLOCK_WORD}(?:\\s+שומה)?\\s*[:.]?\\s*${NO}(${NUM})(?!\\d|\\/)(?:\\s*,?\\s*${PARCEL_WORD}\\s*[:.]?\\s*${NO}(${LIST}))?`,
  'g',
);
// Between the parcels and their block: a remark in parentheses («(בשלמות)»), a lot number («מגרש 485»).
const BETWEEN = `(?:\\s*\\([^()]{1,30}\\))?(?:\\s*,?\\s*מגרש\\s*${NO}\\d{1,5}[א-ת]?)?`;
// A dash left after the last parcel by mirrored extraction («ו1960-» for «ו-1960») is no range.
const MIRRORED_DASH = `(?:\\s*${DASH}(?!\\s*\\d))?`;
const PARCEL_FIRST = new RegExp(
  `${PARCEL_START}\\s*[:.]?\\s*${NO}(${LIST})${MIRRORED_DASH}${BETWEEN}\\s*,?\\s*(?:של\\s+|ב|ה)?גוש(?:\\s+שומה)?\\s*[:.]?\\s*${NO}(${NUM})(?!\\d)`,
  'g',
);
const SLASHED = new RegExp(
  `(?<![א-ת])(?:גוש\\s*\\/\\s*חלקה|גו${Q}{1,2}ח)\\s*[:.]?\\s*(${NUM})\\s*\\/\\s*(${NUM})(?!\\d)`,
  'g',
);

/** The parcels of a written list: "12-14, 17 ו-20" → [12, 13, 14, 17, 20]; null for a runaway range. */
export function parcelList(text: string): number[] | null {
  const out: number[] = [];
  for (const item of text.split(new RegExp(SEP)).filter((s) => s !== '')) {
    const [a, b] = item.split(new RegExp(`\\s*${DASH}\\s*`)).map(Number);
    if (a === undefined || !Number.isInteger(a)) return null;
    if (b === undefined) out.push(a);
    else {
      if (!Number.isInteger(b) || b < a || b - a > MAX_RANGE) return null;
      for (let n = a; n <= b; n++) out.push(n);
    }
  }
  return [...new Set(out)];
}

const FIRST_ITEM = new RegExp(`^${ITEM}`);
const firstItem = (list: string) => FIRST_ITEM.exec(list)?.[0] ?? list;

/** Every block and parcel mention in a text, in order, with offsets. */
export function findParcels(text: string): FoundParcel[] {
  const found: FoundParcel[] = [];
  const add = (p: FoundParcel) => {
    if (p.block <= 0 || found.some((f) => p.start < f.end && f.start < p.end)) return;
    found.push(p);
  };
  for (const [re, blockAt, listAt] of [
    [SLASHED, 1, 2],
    [PARCEL_FIRST, 2, 1],
    [BLOCK_FIRST, 1, 2],
  ] as const) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const written = m[listAt];
      const plural = PLURAL.test(m[0]);
      const items = written === undefined ? undefined : plural ? written : firstItem(written);
      // A sub-parcel («תת חלקה 102 בגוש 11581», «חלקת משנה») names its block only.
      const sub = /תת\s*[-־]?\s*$/.test(text.slice(Math.max(0, m.index - 4), m.index));
      const list = items === undefined || sub ? [] : parcelList(items);
      if (list === null) continue;
      // The match ends where the parcels written end (a singular word's list is cut to its first item).
      const cut = written !== undefined && items !== undefined ? written.length - items.length : 0;
      const end = listAt === 2 ? m.index + m[0].length - cut : m.index + m[0].length;
      add({ block: Number(m[blockAt]), parcels: list, start: m.index, end, text: text.slice(m.index, end) });
    }
  }
  BLOCKS.lastIndex = 0;
  for (let m = BLOCKS.exec(text); m !== null; m = BLOCKS.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (found.some((f) => start < f.end && f.start < end)) continue;
    // One mention names several blocks, each a block alone.
    for (const block of parcelList(m[1] ?? '') ?? []) {
      if (block > 0) found.push({ block, parcels: [], start, end, text: m[0] });
    }
  }
  SAME_BLOCK.lastIndex = 0;
  for (let m = SAME_BLOCK.exec(text); m !== null; m = SAME_BLOCK.exec(text)) {
    const at = m.index;
    const last = found
      .filter((f) => f.end <= at)
      .sort((a, b) => a.end - b.end)
      .at(-1);
    const list = parcelList(m[1] ?? '');
    if (last === undefined || list === null) continue;
    add({ block: last.block, parcels: list, start: at, end: at + m[0].length, text: m[0] });
  }
  carryBlocks(text, found);
  formerParcels(text, found);
  return found.sort((a, b) => a.start - b.start);
}

// «חלקה 40 (לשעבר חלקה 5)», «חלקה 40, בעבר חלקות 5 ו-6», «(חלקה 5 לשעבר)»: the parcel's former number.
const FORMER = new RegExp(
  `(?<![א-ת])(?:(?:לשעבר|בעבר|שלשעבר)\\s+${PARCEL_WORD}\\s*[:.]?\\s*${NO}(${LIST})|${PARCEL_WORD}\\s*${NO}(${LIST})\\s+לשעבר(?![א-ת]))`,
  'g',
);

/** Gives a former parcel number written right after (or inside) a parcel mention that mention's block. */
function formerParcels(text: string, found: FoundParcel[]): void {
  FORMER.lastIndex = 0;
  for (let m = FORMER.exec(text); m !== null; m = FORMER.exec(text)) {
    const at = m.index;
    const end = at + m[0].length;
    const of = found.find(
      (f) =>
        f.parcels.length > 0 &&
        ((f.start <= at && at < f.end) || (f.end <= at && /^\s*,?\s*\(?\s*$/.test(text.slice(f.end, at)))),
    );
    const list = parcelList(m[1] ?? m[2] ?? '');
    if (of === undefined || list === null) continue;
    const parcels = list.filter((n) => !of.parcels.includes(n));
    if (parcels.length > 0 && !found.some((f) => f !== of && at < f.end && f.start < end))
      found.push({ block: of.block, parcels, start: at, end, text: m[0] });
  }
}

// «חלקות 13 ו-14 באותו גוש», «חלקה 9 בגוש הנ"ל»: the block named last before.
const SAME_BLOCK = new RegExp(
  `${PARCEL_START}\\s*[:.]?\\s*${NO}(${LIST})\\s*,?\\s*(?:ב|של\\s+)?(?:אותו\\s+(?:ה)?גוש|הגוש\\s+(?:ה)?(?:נ${Q}{1,2}ל|אמור|הנזכר))(?![א-ת])`,
  'g',
);
// «בגושים 6638 ו-6639»: each block alone.
const BLOCKS = new RegExp(`${BLOCK_WORD}ים\\s*[:.]?\\s*${NO}(${LIST})`, 'g');

// «חלקה 12 וחלקה 13 בגוש 6638»: a parcel without a block, joined to a parcel mention that has one.
const LONE_PARCEL = new RegExp(`${PARCEL_START}\\s*[:.]?\\s*${NO}(${NUM})(?!\\d|\\/)(?=${SEP}(?:ב)?)`, 'g');

/** Gives each lone parcel joined (by a comma or ו) to the next mention that mention's block. */
function carryBlocks(text: string, found: FoundParcel[]): void {
  LONE_PARCEL.lastIndex = 0;
  const lone: { start: number; end: number; parcel: number }[] = [];
  for (let m = LONE_PARCEL.exec(text); m !== null; m = LONE_PARCEL.exec(text)) {
    const end = m.index + m[0].length;
    if (!found.some((f) => m.index < f.end && f.start < end))
      lone.push({ start: m.index, end, parcel: Number(m[1]) });
  }
  // From the last: a chain «חלקה 1, חלקה 2 וחלקה 3 בגוש» carries the block back one link at a time.
  for (const l of lone.reverse()) {
    const gap = new RegExp(`^${SEP}(?:ב)?$`);
    const next = found.find((f) => f.start >= l.end && gap.test(text.slice(l.end, f.start)));
    if (next === undefined || next.parcels.length === 0) continue;
    found.push({
      block: next.block,
      parcels: [l.parcel],
      start: l.start,
      end: l.end,
      text: text.slice(l.start, l.end),
    });
  }
}

/** The key of a parcel (or of a block alone). */
export const parcelKey = (block: number, parcel?: number): string =>
  parcel === undefined ? `גוש ${block}` : `גוש ${block} חלקה ${parcel}`;

/** The keys one written mention names: one per parcel, or the block's own key. */
export const parcelKeys = (p: Pick<FoundParcel, 'block' | 'parcels'>): string[] =>
  p.parcels.length === 0 ? [parcelKey(p.block)] : p.parcels.map((n) => parcelKey(p.block, n));

/** One written block-and-parcel mention as its keys, or null when the text is not exactly one mention. */
export function normalizeParcel(text: string): string[] | null {
  const t = text.trim();
  const [only, ...rest] = findParcels(t);
  return only !== undefined && rest.length === 0 && only.start === 0 && only.end === t.length
    ? parcelKeys(only)
    : null;
}
