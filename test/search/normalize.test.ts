import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeHebrew, prefixStripped } from '../../src/hebrew/text.ts';
import { CHUNK_TARGET_CHARS, chunkPage, chunkPages } from '../../src/search/chunk.ts';
import { analyzeQuery, anyFormTsquery, indexTerms, spellingKey } from '../../src/search/normalize.ts';
import { highlight } from '../../src/search/snippet.ts';
import { THESAURUS } from '../../src/search/thesaurus.ts';

describe('prefixes', () => {
  it('strips prefix chains ו ה ב כ ל מ ש, keeping at least two letters', () => {
    expect(prefixStripped('והשבחה')).toEqual(['השבחה', 'שבחה']);
    expect(prefixStripped('וכשהתכנית')).toEqual(expect.arrayContaining(['התכנית', 'תכנית']));
    expect(prefixStripped('בקו')).toEqual(['קו']);
    expect(prefixStripped('בן')).toEqual([]);
    expect(prefixStripped('1108/97')).toEqual([]);
    // Indexed by spelling key (the plene ו of מגורים dropped): see the spelling tests below.
    expect(indexTerms('לדירת מגורימ')).toBe('לדירת דירת מגרימ גרימ');
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

describe('spelling variants', () => {
  const key = (w: string) => spellingKey(normalizeHebrew(w));
  it('gives plene and defective spellings, and doubled ו / י, one key', () => {
    const pairs: [string, string][] = [
      ['תוכנית', 'תכנית'],
      ['התוכניות', 'התכניות'],
      ['בנייה', 'בניה'],
      ['הבנייה', 'הבניה'],
      ['הוועדה', 'הועדה'],
      ['בניין', 'בנין'],
      ['ייעוד', 'יעוד'],
      ['השוואה', 'השואה'],
      ['תב"ע', 'תבע'],
      ['ממ״ד', 'ממד'],
    ];
    for (const [a, b] of pairs) expect(key(a), `${a} / ${b}`).toBe(key(b));
  });

  it('keeps short words apart and leaves other tokens alone', () => {
    expect(key('שומה')).not.toBe(key('שמה'));
    expect(key('עוד')).not.toBe(key('עד'));
    expect(spellingKey('1108/97')).toBe('1108/97');
    expect(spellingKey('levy')).toBe('levy');
  });

  it('indexes a number by the grammar’s key, and looks a query number up by it', () => {
    expect(indexTerms(normalizeHebrew('בר"ם 7777/2019'), 'בר"ם 7777/2019').split(' ')).toContain('7777/19');
    expect(indexTerms(normalizeHebrew('ערר 3301 / 21'), 'ערר 3301 / 21').split(' ')).toContain('3301/21');
    expect(analyzeQuery('7777-19').words[0]?.forms).toContain('7777/19');
    expect(analyzeQuery('23456-4-21').words[0]?.forms).toContain('23456-04-21');
  });
});

describe('thesaurus', () => {
  it('expands a term to the other terms of its group, English to Hebrew', () => {
    const labels = (q: string) =>
      (analyzeQuery(q).expansions ?? []).flatMap((e) => e.alternatives.map((a) => a.label));
    expect(labels('תב"ע')).toContain('תכנית בניין עיר');
    expect(labels('שומה מכרעת')).toContain('שמאי מכריע');
    expect(labels('betterment levy')).toContain('היטל השבחה');
    expect(labels('marketability coefficient')).toContain('מקדם סחירות');
    expect(labels('היטל השבחה')).toContain('השבחה');
    // A Hebrew term is not expanded to English; a word of no group to nothing.
    expect(labels('שמאי מכריע').some((l) => /[a-z]/.test(l))).toBe(false);
    expect(analyzeQuery('xyzzy plugh').expansions).toBeUndefined();
  });

  it('is documented: docs/search.md lists every group', async () => {
    const doc = await readFile(new URL('../../docs/search.md', import.meta.url), 'utf8');
    for (const g of THESAURUS)
      expect(doc, g.concept).toContain(`| ${g.concept} | ${g.he.join(' · ')} | ${g.en.join(' · ')} |`);
  });
});
