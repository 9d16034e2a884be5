import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_TARGET_CHARS, chunkPage, chunkPages } from '../../src/search/chunk.ts';
import {
  analyzeQuery,
  anyFormTsquery,
  indexTerms,
  normalizeHebrew,
  prefixStripped,
} from '../../src/search/normalize.ts';
import { highlight } from '../../src/search/rank.ts';

const hebrewLetter = fc.constantFrom(...'אבגדהוזחטיכלמנסעפצקרשתךםןףץ'.split(''));
const mark = fc
  .integer({ min: 0x0591, max: 0x05c7 })
  .filter((c) => ![0x05be, 0x05c0, 0x05c3, 0x05c6].includes(c))
  .map((c) => String.fromCharCode(c));
const hebrewWord = fc.array(hebrewLetter, { minLength: 1, maxLength: 8 }).map((a) => a.join(''));
const hebrewText = fc.array(hebrewWord, { minLength: 1, maxLength: 12 }).map((a) => a.join(' '));

describe('normalizeHebrew', () => {
  it('strips niqqud and cantillation, maps maqaf to a space, and unifies final letters', () => {
    expect(normalizeHebrew('בְּרֵאשִׁית בָּרָא')).toBe('בראשית ברא');
    expect(normalizeHebrew('קרית־שמונה')).toBe('קרית שמונה');
    expect(normalizeHebrew('שָׁלוֹם עֲלֵיכֶם')).toBe('שלומ עליכמ');
    expect(normalizeHebrew('ךםןףץ')).toBe('כמנפצ');
    // Presentation forms (U+FB2A shin with shin dot) decompose, then lose the mark.
    expect(normalizeHebrew('\uFB2Aלום')).toBe(normalizeHebrew('שלום'));
  });

  it('drops geresh and gershayim (and their ASCII look-alikes) inside Hebrew words', () => {
    for (const form of ['ע"א', 'ע״א', 'ע”א', 'עא']) expect(normalizeHebrew(form)).toBe('עא');
    expect(normalizeHebrew('בג"ץ 7075/04')).toBe('בגצ 7075/04');
    expect(normalizeHebrew("פלונית נ' פלוני")).toBe('פלונית נ פלוני');
    expect(normalizeHebrew('ז׳בוטינסקי')).toBe(normalizeHebrew("ז'בוטינסקי"));
    // Outside Hebrew words quote marks separate words.
    expect(normalizeHebrew('"quoted" text')).toBe('quoted text');
  });

  it('keeps / and - only between digits, lower-cases Latin, and turns other punctuation into spaces', () => {
    expect(normalizeHebrew('עמ"נ 17732-10-16')).toBe('עמנ 17732-10-16');
    expect(normalizeHebrew('ערר 1024/25.')).toBe('ערר 1024/25');
    expect(normalizeHebrew('Section 19(ג)(1) — x/y')).toBe('section 19 ג 1 x y');
  });

  it('is idempotent and ignores niqqud wherever it is inserted (property)', () => {
    fc.assert(
      fc.property(hebrewText, fc.array(fc.tuple(fc.nat(), mark), { maxLength: 10 }), (text, marks) => {
        const normal = normalizeHebrew(text);
        expect(normalizeHebrew(normal)).toBe(normal);
        const chars = [...text];
        for (const [at, m] of marks) {
          const i = at % (chars.length + 1);
          // Marks only after a letter, as in real pointed text.
          if (i > 0 && chars[i - 1] !== ' ') chars.splice(i, 0, m);
        }
        expect(normalizeHebrew(chars.join(''))).toBe(normal);
        expect(normal).not.toMatch(/[\u0591-\u05C7ךםןףץ"'׳״]/);
      }),
    );
  });
});

describe('prefixes', () => {
  it('strips prefix chains ו ה ב כ ל מ ש, keeping at least two letters', () => {
    expect(prefixStripped('והשבחה')).toEqual(['השבחה', 'שבחה']);
    expect(prefixStripped('וכשהתכנית')).toEqual(expect.arrayContaining(['התכנית', 'תכנית']));
    expect(prefixStripped('בקו')).toEqual(['קו']);
    expect(prefixStripped('בן')).toEqual([]);
    expect(prefixStripped('1108/97')).toEqual([]);
    expect(indexTerms('לדירת מגורימ')).toBe('לדירת דירת מגורימ גורימ');
  });

  it('every stripped form is a suffix of the word with at least two letters (property)', () => {
    fc.assert(
      fc.property(hebrewWord, (word) => {
        const w = normalizeHebrew(word);
        for (const f of prefixStripped(w)) {
          expect(w.endsWith(f)).toBe(true);
          expect(f.length).toBeGreaterThanOrEqual(2);
        }
      }),
    );
  });

  it('matches a prefixed query word to the bare document word and vice versa', () => {
    const doc = new Set(indexTerms(normalizeHebrew('היטל השבחה')).split(' '));
    for (const query of ['וההשבחה', 'בהיטל', 'השבחה']) {
      expect(
        analyzeQuery(query).words[0]?.forms.some((f) => doc.has(f)),
        query,
      ).toBe(true);
    }
  });

  it('drops stop words from a query unless nothing else is left, and quotes tsquery lexemes', () => {
    expect(analyzeQuery('מה נקבע לגבי היטל').words.map((w) => w.surface)).toEqual(['היטל']);
    expect(analyzeQuery('של').words.map((w) => w.surface)).toEqual(['של']);
    expect(analyzeQuery('?!').words).toEqual([]);
    expect(anyFormTsquery(analyzeQuery('ע"א 1108/97'))).toBe("'עא' | '1108/97'");
  });
});

describe('chunking', () => {
  it('keeps every word, in order, within the size bound, with overlap (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 30 }), { maxLength: 400 }), (raw) => {
        const words = raw.map((w) => w.replace(/\s/g, 'x'));
        const chunks = chunkPage(words.join(' '));
        for (const c of chunks) {
          if (c.includes(' ')) expect(c.length).toBeLessThanOrEqual(CHUNK_TARGET_CHARS);
        }
        // Every word appears; removing the overlap restores the page's word sequence.
        const seen = chunks.flatMap((c) => c.split(' '));
        expect(new Set(seen)).toEqual(new Set(words));
      }),
    );
  });

  it('never lets a chunk cross a page and numbers pages from 1', () => {
    const long = Array.from({ length: 400 }, (_, i) => `מילה${i}`).join(' ');
    const chunks = chunkPages(['עמוד ראשון', '', long]);
    expect(chunks[0]).toMatchObject({ page: 1, chunkIndex: 0, text: 'עמוד ראשון' });
    expect(chunks.slice(1).every((c) => c.page === 3)).toBe(true);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((c) => c.chunkIndex)).toEqual(chunks.map((_, i) => i));
    // Consecutive chunks of a page overlap.
    const [a, b] = [chunks[1]?.text.split(' ') ?? [], chunks[2]?.text.split(' ') ?? []];
    expect(b[0] !== undefined && a.includes(b[0])).toBe(true);
  });
});

describe('highlight', () => {
  it('marks matched words, pointed or prefixed, around the densest run', () => {
    const text = `בקשה להקלה בְּקַו בניין צידי. ${'מילה '.repeat(60)}סוף`;
    const snippet = highlight(text, analyzeQuery('הקלה קו בניין'));
    expect(snippet).toContain('«להקלה»');
    expect(snippet).toContain('«בְּקַו»');
    expect(snippet).toContain('«בניין»');
    expect(snippet.endsWith('…')).toBe(true);
  });
});

describe('what the reader sees', () => {
  it('echoes the query words as written: final letters, quote marks and spelling kept, marks dropped', () => {
    const written = (q: string) => analyzeQuery(q).words.map((w) => w.written);
    expect(written('והשמאים המכריעים')).toEqual(['והשמאים', 'המכריעים']);
    expect(written('הַקָּלָה בְּקַו בִּנְיָן')).toEqual(['הקלה', 'בקו', 'בנין']);
    expect(written('ע״א 1108/97, (סטייה) ניכרת.')).toEqual(['ע״א', '1108/97', 'סטייה', 'ניכרת']);
    expect(written('בית־המשפט')).toEqual(['בית', 'המשפט']);
    // The searched forms stay normalised.
    expect(analyzeQuery('והשמאים').words[0]?.surface).toBe('והשמאימ');
  });

  it('marks a matched word without the punctuation around it', () => {
    const snippet = highlight('השמאי המכריע. לדעת "המכריע", (קו) בניין: סוף', analyzeQuery('מכריע קו בניין'));
    expect(snippet).toContain('«המכריע».');
    expect(snippet).toContain('"«המכריע»",');
    expect(snippet).toContain('(«קו»)');
    expect(snippet).toContain('«בניין»:');
    expect(snippet).not.toMatch(/[.,:)"]»/);
  });
});
