// Dates as Israeli decisions and appraisals write them, to one ISO date (YYYY-MM-DD): 3.2.2026, 03/02/2026,
// 3-2-2026, 2026-02-03, "3 בפברואר 2026", and Hebrew-calendar dates ("ג' בשבט התשפ"ו", "כ"א בטבת תשפ"ו").
// Day before month everywhere (the Israeli order). Hebrew dates are converted with the ICU Hebrew calendar
// (Intl, on Node and on Workers). Anything that is not a real date is no date: never an exception.

/** A date found in a text, with where it is. */
export interface FoundDate {
  /** YYYY-MM-DD */
  iso: string;
  start: number;
  end: number;
  text: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The ISO date of a day, month, year if such a day exists (no 30 February), else null. */
export function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || year < 1900 || year > 2200) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** Two-digit years as Israeli documents use them: 00–69 are 20xx, 70–99 are 19xx. */
const fullYear = (y: number, digits: number) => (digits === 2 ? (y < 70 ? 2000 + y : 1900 + y) : y);

const GREGORIAN_MONTHS: Record<string, number> = {
  ינואר: 1,
  פברואר: 2,
  מרץ: 3,
  מרס: 3,
  אפריל: 4,
  מאי: 5,
  יוני: 6,
  יולי: 7,
  אוגוסט: 8,
  ספטמבר: 9,
  אוקטובר: 10,
  נובמבר: 11,
  דצמבר: 12,
};

/** Hebrew-calendar months as written, to ICU's names (the Hebrew calendar of `Intl`). */
const HEBREW_MONTHS: Record<string, string[]> = {
  תשרי: ['Tishri'],
  חשון: ['Heshvan'],
  חשוון: ['Heshvan'],
  מרחשון: ['Heshvan'],
  מרחשוון: ['Heshvan'],
  כסלו: ['Kislev'],
  כסליו: ['Kislev'],
  טבת: ['Tevet'],
  שבט: ['Shevat'],
  אדר: ['Adar', 'Adar I'],
  'אדר א': ['Adar I'],
  'אדר ב': ['Adar II'],
  ניסן: ['Nisan'],
  אייר: ['Iyar'],
  סיון: ['Sivan'],
  סיוון: ['Sivan'],
  תמוז: ['Tamuz'],
  אב: ['Av'],
  'מנחם אב': ['Av'],
  אלול: ['Elul'],
};

const LETTER_VALUES: Record<string, number> = {
  א: 1,
  ב: 2,
  ג: 3,
  ד: 4,
  ה: 5,
  ו: 6,
  ז: 7,
  ח: 8,
  ט: 9,
  י: 10,
  כ: 20,
  ך: 20,
  ל: 30,
  מ: 40,
  ם: 40,
  נ: 50,
  ן: 50,
  ס: 60,
  ע: 70,
  פ: 80,
  ף: 80,
  צ: 90,
  ץ: 90,
  ק: 100,
  ר: 200,
  ש: 300,
  ת: 400,
};

/** The value of a number written in Hebrew letters (gematria), quote marks ignored; null if not one. */
export function hebrewNumeral(text: string): number | null {
  const letters = text.replace(/["'״׳”’]/g, '');
  if (letters === '' || !/^[א-ת]+$/.test(letters)) return null;
  let sum = 0;
  for (const ch of letters) {
    const v = LETTER_VALUES[ch];
    if (v === undefined) return null;
    sum += v;
  }
  return sum;
}

const hebrewFormat = () =>
  new Intl.DateTimeFormat('en-u-ca-hebrew', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Per Hebrew year: "day|month" → ISO date, built once from ICU (about 385 days a year). */
const hebrewYears = new Map<number, Map<string, string>>();

function hebrewYear(year: number): Map<string, string> {
  let days = hebrewYears.get(year);
  if (days !== undefined) return days;
  days = new Map();
  const format = hebrewFormat();
  // A Hebrew year starts in September or October of Gregorian year (year − 3761).
  const first = Date.UTC(year - 3761, 7, 15);
  for (let t = first; t < first + 420 * 86_400_000; t += 86_400_000) {
    const parts = format.formatToParts(new Date(t));
    const y = Number(parts.find((p) => p.type === 'year')?.value);
    if (y !== year) continue;
    const d = parts.find((p) => p.type === 'day')?.value;
    const m = parts.find((p) => p.type === 'month')?.value;
    days.set(`${d}|${m}`, new Date(t).toISOString().slice(0, 10));
  }
  hebrewYears.set(year, days);
  return days;
}

/** The Gregorian date of a Hebrew-calendar date ("ג'", "שבט", "התשפ"ו"), or null. */
export function hebrewDateToIso(dayText: string, monthText: string, yearText: string): string | null {
  const day = hebrewNumeral(dayText);
  const months = HEBREW_MONTHS[monthText.replace(/["'״׳”’]/g, '').trim()];
  // The thousands are written as a leading ה (התשפ"ו = 5786) or left out (תשפ"ו).
  const bare = yearText.replace(/^ה(?=[תשר])/, '');
  const hundreds = hebrewNumeral(bare);
  if (day === null || day < 1 || day > 30 || months === undefined || hundreds === null) return null;
  const year = 5000 + hundreds;
  if (year < 5660 || year > 5960) return null;
  const days = hebrewYear(year);
  for (const month of months) {
    const iso = days.get(`${day}|${month}`);
    if (iso !== undefined) return iso;
  }
  return null;
}

const Q = `["'״׳”’]`;
/** A Hebrew numeral with its quote mark: ג', כ"א, ט"ו. */
const HEB_NUM = `[א-ת]{1,2}${Q}[א-ת]?|[א-ת]${Q}`;
const HEB_MONTH = Object.keys(HEBREW_MONTHS)
  .sort((a, b) => b.length - a.length)
  .map((m) => m.replace(' ', `${Q}?\\s*`))
  .join('|');
const HEB_YEAR = `ה?ת[א-ת]{1,2}${Q}[א-ת]`;
const GREG_MONTH = Object.keys(GREGORIAN_MONTHS).join('|');

const PATTERNS: { re: RegExp; parse(m: RegExpExecArray): string | null }[] = [
  {
    // 2026-02-03
    re: /(?<![\d./-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\d./-])/g,
    parse: (m) => isoDate(Number(m[1]), Number(m[2]), Number(m[3])),
  },
  {
    // 3.2.2026, 03/02/2026, 3-2-2026, 3.2.26 (day first)
    re: /(?<![\d./-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d./-]*\d)/g,
    parse: (m) => isoDate(fullYear(Number(m[4]), (m[4] ?? '').length), Number(m[3]), Number(m[1])),
  },
  {
    // 3 בפברואר 2026, 3 פברואר 2026
    re: new RegExp(`(?<!\\d)(\\d{1,2})\\s+ב?(${GREG_MONTH})\\s*,?\\s*(\\d{4})(?!\\d)`, 'g'),
    parse: (m) => isoDate(Number(m[3]), GREGORIAN_MONTHS[m[2] ?? ''] ?? 0, Number(m[1])),
  },
  {
    // ג' בשבט התשפ"ו, כ"א בטבת תשפ"ו, ט"ו באדר ב' התשפ"ד
    re: new RegExp(`(?<![א-ת])(${HEB_NUM})\\s+ב?(${HEB_MONTH})${Q}?\\s*,?\\s*(${HEB_YEAR})(?![א-ת])`, 'g'),
    parse: (m) =>
      hebrewDateToIso(m[1] ?? '', (m[2] ?? '').replace(/["'״׳”’]/g, '').replace(/\s+/g, ' '), m[3] ?? ''),
  },
];

/** Every date in a text, in order, with offsets; overlapping matches keep the first. */
export function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  for (const { re, parse } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const iso = parse(m);
      if (iso === null) continue;
      const start = m.index;
      const end = start + m[0].length;
      if (found.some((f) => start < f.end && f.start < end)) continue;
      found.push({ iso, start, end, text: m[0] });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** One written date as an ISO date, or null when it is not exactly one date. */
export function normalizeDate(text: string): string | null {
  const trimmed = text.trim();
  const [only, ...rest] = findDates(trimmed);
  return only !== undefined && rest.length === 0 && only.start === 0 && only.end === trimmed.length
    ? only.iso
    : null;
}
