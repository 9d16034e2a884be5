// Amounts of money as Israeli documents write them, to an exact integer of agorot (1 ₪ = 100 agorot):
// «1,250,000 ש"ח» (or «שח»), «₪1.25 מיליון», «850 אלף ש"ח», «1,250,000.- ₪», «2.5 מיליון שקלים חדשים», «NIS 40,000».
// A currency mark is required (a bare number is not money); a value that is not a whole number of agorot,
// a malformed number (1,25,000) or an absurd one is no amount: never an exception.
import { Q } from './text.ts';

export interface FoundMoney {
  /** The amount in agorot (an integer; exact). */
  agorot: number;
  start: number;
  end: number;
  text: string;
}

/** Above this (100 billion ₪) a figure is not an amount in these documents. */
const MAX_AGOROT = 10n ** 13n;

const MULTIPLIERS: Record<string, bigint> = {
  אלף: 1_000n,
  אלפי: 1_000n,
  מיליון: 1_000_000n,
  מליון: 1_000_000n,
  מיליוני: 1_000_000n,
  מיליארד: 1_000_000_000n,
  מילארד: 1_000_000_000n,
};

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const MULTIPLIER = `(?:${Object.keys(MULTIPLIERS)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;
/** ש"ח in every quote form and without one (שח, after a number only), ש.ח., ₪, שקלים (חדשים), NIS/ILS. */
const SHEKEL = `(?:ש${Q}{0,2}ח|ש\\.ח\\.?|₪|שקלים(?:\\s+חדשים)?|שקל(?:\\s+חדש)?|NIS|ILS)`;
const SIGN_BEFORE = '(?:₪|NIS|ILS)';

// Currency after the number (optionally also before), or a sign before it; "1,250,000.-" is a whole amount.
const MONEY = new RegExp(
  `(?:(${SIGN_BEFORE})\\s*)?(?<![\\d.,])(${NUMBER})(?:\\.-)?(?!\\d|,\\d)(?:\\s*(${MULTIPLIER}))?(?:\\s*(${SHEKEL})(?![א-ת]))?`,
  'g',
);

/** The agorot of a number written with an optional multiplier, or null when it is not exact or not sane. */
export function agorotOf(number: string, multiplier?: string): number | null {
  const plain = number.replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(plain)) return null;
  if (number.includes(',') && !/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(number)) return null;
  const [whole = '', fraction = ''] = plain.split('.');
  const factor = multiplier === undefined ? 1n : MULTIPLIERS[multiplier];
  if (factor === undefined) return null;
  const scaled = BigInt(whole + fraction) * factor * 100n;
  const divisor = 10n ** BigInt(fraction.length);
  if (scaled % divisor !== 0n) return null;
  const agorot = scaled / divisor;
  if (agorot <= 0n || agorot > MAX_AGOROT) return null;
  return Number(agorot);
}

/** Every amount of money in a text, in order, with offsets. */
export function findMoney(text: string): FoundMoney[] {
  const found: FoundMoney[] = [];
  MONEY.lastIndex = 0;
  for (let m = MONEY.exec(text); m !== null; m = MONEY.exec(text)) {
    const [, before, number = '', multiplier, after] = m;
    if (before === undefined && after === undefined) {
      // No currency: step past the number only, so "5 אלף ש"ח" later in the text is still found.
      continue;
    }
    const agorot = agorotOf(number, multiplier);
    if (agorot === null) continue;
    found.push({ agorot, start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return found;
}

/** One written amount as agorot, or null when the text is not exactly one amount of money. */
export function normalizeMoney(text: string): number | null {
  const trimmed = text.trim();
  const [only, ...rest] = findMoney(trimmed);
  return only !== undefined && rest.length === 0 && only.start === 0 && only.end === trimmed.length
    ? only.agorot
    : null;
}

/** Agorot as shekels for people: 125000000 → "1,250,000 ₪" (agorot shown only when there are some). */
export function formatShekels(agorot: number): string {
  const whole = Math.trunc(agorot / 100);
  const cents = agorot % 100;
  const grouped = whole.toLocaleString('en-US');
  return cents === 0 ? `${grouped} ₪` : `${grouped}.${String(cents).padStart(2, '0')} ₪`;
}
