// Search terms over the Hebrew normalisation (src/hebrew/text.ts): what a chunk indexes, the stop words, and a
// query analysed into words and the forms each may stand for, with the thesaurus's expansions (thesaurus.ts);
// the surface form ranks higher (see rank.ts). docs/search.md describes the whole.
import { MARKS, normalizeHebrew, prefixStripped, tokens } from '../hebrew/text.ts';
import { bareProceedingNumber, findProceedings } from '../legal/proceedings.ts';
import { THESAURUS } from './thesaurus.ts';

/**
 * The version of what a chunk indexes (indexTerms, spellingKey, the numbers' keys). Stored on every document
 * indexed with it; a document indexed under another version is indexed again from its stored pages
 * (src/search/reindex.ts). Change it whenever indexTerms would give a different result for the same text.
 */
export const SEARCH_INDEX_VERSION = 'terms@2';

const isHebrewWord = (token: string) => /^[\u05D0-\u05EA]+$/.test(token);
/** A skeleton shorter than this keeps its ו: «שומה» is not «שמה», «עוד» is not «עד». */
const MIN_SKELETON = 4;

/**
 * One spelling for the plene and defective forms of a Hebrew word (what the index stores and a query looks up):
 * a doubled ו or י written once (הוועדה → הועדה, בנייה → בניה), then every ו between the first and the last
 * letter dropped (תוכנית → תכנית, הועדה → העדה) unless fewer than MIN_SKELETON letters would remain. Both
 * spellings of a word get the same key, so either finds the other as an exact match. Other tokens unchanged.
 */
export function spellingKey(token: string): string {
  if (!isHebrewWord(token)) return token;
  const single = token.replace(/ו{2,}/g, 'ו').replace(/י{2,}/g, 'י');
  if (single.length <= 2) return single;
  const skeleton = `${single[0]}${single.slice(1, -1).replace(/ו/g, '')}${single.at(-1)}`;
  return skeleton.length >= MIN_SKELETON ? skeleton : single;
}

/** The forms one normalised token is looked up by: its spelling key and those of its prefix-stripped forms. */
const keyedForms = (token: string): string[] => [
  ...new Set([token, ...prefixStripped(token)].map(spellingKey)),
];

/** The key of a number as the legal grammar reads it (7777-19, 7777/2019 → 7777/19), when it differs. */
function numberKey(token: string): string | null {
  if (!/\d[/-]\d/.test(token)) return null;
  const key = bareProceedingNumber(token);
  return key === null || key === token ? null : key;
}

/**
 * What a chunk indexes for full-text search: for every token, the spelling keys of it and of its prefix-stripped
 * forms, and for a number the key the legal grammar gives it; with the chunk's text as written (`text`), also
 * the number of every proceeding the grammar reads in it («בר"מ 7777 / 2019» → 7777/19).
 */
export function indexTerms(normalized: string, text?: string): string {
  const out: string[] = [];
  for (const token of tokens(normalized)) {
    out.push(...keyedForms(token));
    const n = numberKey(token);
    if (n !== null) out.push(n);
  }
  if (text !== undefined) {
    const seen = new Set(out);
    for (const p of findProceedings(text)) {
      const n = p.key.slice(p.key.lastIndexOf(' ') + 1);
      if (!seen.has(n)) {
        seen.add(n);
        out.push(n);
      }
    }
  }
  return out.join(' ');
}

/** Function words that say nothing about a document; dropped from a query unless nothing else is left. */
export const STOP_WORDS = new Set(
  normalizeHebrew(
    'של על את אל עם גם או אם כי לא זה זו זאת הוא היא הם הן אני אנו מה מי איך האם לגבי כל יש אין בין לפי ' +
      'אשר כאשר כמו עד אך רק כן היה היו להיות ידי אותו אותה מן לו לה להם בו בה בהם שם זהו מהו מהי נקבע',
  ).split(' '),
);

export interface QueryWord {
  /** The normalised word as written (the exact-match bonus). */
  surface: string;
  /** The index forms it may stand for: spelling keys of itself and its prefix-stripped forms, a number's key. */
  forms: string[];
  /**
   * The word as the user wrote it (shown back: a normalised form with its final letters replaced reads as a
   * typo).
   */
  written?: string;
  /** How much the word counts in a passage's coverage (default 1): like_case_id weighs words by rarity. */
  weight?: number;
}

/** A thesaurus term found in the query, and the other terms of its group a passage may have instead. */
export interface Expansion {
  /** The query's words that are the term, as written («תב"ע», «betterment levy»). */
  written: string;
  /** The same words normalised: the query words it stands for. */
  surfaces: string[];
  /** Each other term of the group: its label (as the thesaurus writes it) and its words' forms, all required. */
  alternatives: { label: string; words: string[][] }[];
}

export interface QueryTerms {
  /** The normalised query text (trigram matching and snippets). */
  text: string;
  /** Per word: its surface form, the forms it may stand for, and the word as the user wrote it. */
  words: QueryWord[];
  /**
   * The thesaurus's expansions of the query's terms: a passage with one of them counts as having one more of
   * the query's words (rank.ts). Absent or empty when no term of the query is in the thesaurus.
   */
  expansions?: Expansion[];
}

/**
 * analyzeQuery keeps at most this many distinct words of a query (the first ones; a longer text is not a
 * query): what query_terms lists. The ranked SQL uses fewer of them (MAX_RANKED_QUERY_WORDS in rank.ts).
 */
export const MAX_ANALYZED_QUERY_WORDS = 64;

/** At most this many thesaurus expansions of one query are searched. */
export const MAX_EXPANSIONS = 8;

/** Analyses a query: normalised, stop words dropped (unless nothing else remains), forms per word, expansions. */
export function analyzeQuery(query: string): QueryTerms {
  const text = normalizeHebrew(query);
  const sequence = tokens(text);
  const all = [...new Set(sequence)];
  const content = all.filter((t) => !STOP_WORDS.has(t));
  const chosen = (content.length > 0 ? content : all).slice(0, MAX_ANALYZED_QUERY_WORDS);
  const written = writtenForms(query);
  const words = chosen.map((surface) => {
    const n = numberKey(surface);
    return {
      surface,
      // A stripped form that is a function word (בשל → של, באת → את) would match nearly every chunk. The word as
      // normalised stays beside its key, so a document indexed before the keys (terms@1) is still found.
      forms: [
        ...new Set([
          surface,
          ...keyedForms(surface),
          ...prefixStripped(surface).filter((f) => !STOP_WORDS.has(f)),
        ]),
      ]
        .filter((f) => f === surface || !STOP_WORDS.has(f))
        .concat(n === null ? [] : [n]),
      written: written.get(surface) ?? surface,
    };
  });
  const expansions = expand(sequence, written);
  return expansions.length === 0 ? { text, words } : { text, words, expansions };
}

/** A thesaurus term's words as the index looks them up: Hebrew by spelling key, English by a crude stem. */
const termKey = (token: string) =>
  isHebrewWord(token) ? spellingKey(token) : token.length > 3 ? token.replace(/s$/, '') : token;
const isHebrewTerm = (words: readonly string[]) => words.some(isHebrewWord);

interface ThesaurusTerm {
  label: string;
  /** Normalised words. */
  words: string[];
  group: number;
}

/** Every thesaurus term by the key of its first word. */
const TERMS_BY_FIRST = (() => {
  const out = new Map<string, ThesaurusTerm[]>();
  THESAURUS.forEach((g, group) => {
    for (const label of [...g.he, ...g.en]) {
      const words = tokens(normalizeHebrew(label));
      const first = words[0];
      if (first === undefined) continue;
      const k = termKey(first);
      out.set(k, [...(out.get(k) ?? []), { label, words, group }]);
    }
  });
  for (const list of out.values()) list.sort((a, b) => b.words.length - a.words.length);
  return out;
})();

/** The keys a query token matches a thesaurus word by: its own and, for Hebrew, its prefix-stripped forms'. */
const tokenKeys = (token: string) => new Set(isHebrewWord(token) ? keyedForms(token) : [termKey(token)]);

/**
 * The thesaurus terms of a query (longest first at each word, left to right) and, for each, the other terms of
 * its group: Hebrew ones always, English ones only for an English term. An alternative that has every word of
 * the query's term is left out (it finds nothing the term does not); a broader one is kept («השבחה» for «היטל
 * השבחה»: a passage with the core word then counts as having the whole term).
 */
function expand(sequence: readonly string[], written: Map<string, string>): Expansion[] {
  const out: Expansion[] = [];
  const keys = sequence.map(tokenKeys);
  for (let i = 0; i < sequence.length && out.length < MAX_EXPANSIONS; ) {
    const first = keys[i] as Set<string>;
    const found = [...first]
      .flatMap((k) => TERMS_BY_FIRST.get(k) ?? [])
      .filter((t) => t.words.every((w, j) => keys[i + j]?.has(termKey(w))))
      .sort((a, b) => b.words.length - a.words.length)[0];
    if (found === undefined) {
      i++;
      continue;
    }
    const span = sequence.slice(i, i + found.words.length);
    const own = new Set(found.words.map(termKey));
    const hebrew = isHebrewTerm(span);
    const group = THESAURUS[found.group];
    const alternatives = group === undefined ? [] : [...group.he, ...(hebrew ? [] : group.en)];
    const seen = new Set<string>();
    const kept = alternatives.flatMap((label) => {
      const words = tokens(normalizeHebrew(label));
      const k = words.map(termKey);
      if (words.length === 0 || [...own].every((w) => k.includes(w))) return [];
      const id = k.join(' ');
      if (seen.has(id)) return [];
      seen.add(id);
      return [{ label, words: words.map((w) => [...new Set([termKey(w), w])]) }];
    });
    if (kept.length > 0)
      out.push({
        written: span.map((t) => written.get(t) ?? t).join(' '),
        surfaces: span,
        alternatives: kept,
      });
    i += found.words.length;
  }
  return out;
}

/** Punctuation around a written word that is not part of it (quote marks inside, as in ע"א, are). */
const EDGES = /^[^\p{L}\p{N}]+|(?<=[\p{L}\p{N}\p{M}])[^\p{L}\p{N}\p{M}\u05F3\u05F4]+$/gu;

/**
 * Each normalised token → the word as written in the query (its marks removed, its own letters kept): the
 * first spelling that normalises to it. A written word that normalises to several tokens (joined by a maqaf
 * or a hyphen) is split at what separates them.
 */
function writtenForms(query: string): Map<string, string> {
  const out = new Map<string, string>();
  const note = (token: string, written: string) => {
    if (!out.has(token)) out.set(token, written.replace(MARKS, ''));
  };
  for (const word of query.normalize('NFC').split(/\s+/)) {
    const bare = word.replace(EDGES, '');
    const normalised = tokens(normalizeHebrew(bare));
    if (normalised.length === 1) note(normalised[0] as string, bare);
    else if (normalised.length > 1) {
      const parts = bare
        .split(/[^\p{L}\p{N}\p{M}'"\u05F3\u05F4/]+/u)
        .filter((p) => tokens(normalizeHebrew(p)).length > 0);
      normalised.forEach((token, i) => {
        const part = parts[i];
        note(token, part !== undefined && normalizeHebrew(part) === token ? part : token);
      });
    }
  }
  return out;
}

/** A tsquery lexeme quoted for `to_tsquery('simple', …)` (normalised tokens hold only letters, digits, / and -). */
const lexeme = (form: string) => `'${form.replace(/'/g, "''")}'`;

/** One word's forms, any of them. */
export const wordTsquery = (forms: readonly string[]): string => forms.map(lexeme).join(' | ');

/** One expansion: any of its alternatives, each with all of its words. */
export const expansionTsquery = (e: Expansion): string =>
  e.alternatives.map((a) => `(${a.words.map((w) => `(${wordTsquery(w)})`).join(' & ')})`).join(' | ');

/** Any form of any word, or any expansion: candidates and the main rank. Empty string when the query has no words. */
export const anyFormTsquery = (q: QueryTerms): string =>
  [...q.words.flatMap((w) => w.forms.map(lexeme)), ...(q.expansions ?? []).map(expansionTsquery)].join(' | ');

/** The surface words only: the bonus for exact matches. */
export const surfaceTsquery = (q: QueryTerms): string => q.words.map((w) => lexeme(w.surface)).join(' | ');
