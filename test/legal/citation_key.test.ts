// One proceeding key: src/legal/proceedings.ts defines the key of a cited number once, and draft_validate's
// citation finder, the citation graph's extractor and the drafting context read a citation to that same key;
// one resolver (src/precedents/resolve.ts) turns keys into library documents for all of them.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { citationKey, findProceedings } from '../../src/legal/proceedings.ts';
import { extractCitations } from '../../src/precedents/citations.ts';
import { findCitations, unquotedKey } from '../../src/review/citations.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(path)));
    else if (e.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const allSources = async () =>
  (await Promise.all(['src', 'functions', 'scripts', 'bench', 'entry'].map(sources))).flat();

describe('one proceeding key', () => {
  it('no file outside src/legal/ defines a function named citationKey or proceedingKey', async () => {
    const definition = /\b(?:function\s+|(?:const|let|var)\s+)(citationKey|proceedingKey)\b/;
    const found: string[] = [];
    for (const path of await allSources()) {
      const text = await readFile(join(root, path), 'utf8');
      if (definition.test(text)) found.push(relative(root, join(root, path)));
    }
    expect(found).toEqual(['src/legal/proceedings.ts']);
  });

  it('the validator, the citation graph and the drafting context resolve numbers through one resolver', async () => {
    const users = [
      'src/review/validate.ts',
      'src/review/library_checks.ts',
      'src/drafting/context_library.ts',
    ];
    for (const path of [...users, 'src/precedents/extractors.ts', 'src/precedents/views.ts']) {
      expect(await readFile(join(root, path), 'utf8'), path).toMatch(
        /from '\.{1,2}\/(?:precedents\/)?resolve\.ts'/,
      );
    }
    // No one else looks a cited number up by the stored document number.
    for (const path of await allSources()) {
      if (path === join('src', 'precedents', 'resolve.ts')) continue;
      const text = await readFile(join(root, path), 'utf8');
      expect(/loadAuthorities|sourcesOf\(all/.test(text), path).toBe(false);
    }
  });

  const forms: [string, string][] = [
    ["ובעע\"מ 9001/19 כהן נ' הוועדה המקומית, פס' 12", 'עע"מ 9001/19'],
    ['בערר 8012/18', 'ערר 8012/18'],
    ['וברע״א 4321/2017', 'רע"א 4321/17'],
    ['לבג”ץ 77/05', 'בג"ץ 77/05'],
    ['מעת"מ (ת"א) 12345-5-20', 'עת"מ 12345-05-20'],
    ['כעע״מ 9001/19', 'עע"מ 9001/19'],
    ['שבערר בב/6010/16', 'ערר 6010/16'],
  ];

  it.each(forms)(
    '«%s» is one key to the validator, the citation graph and the drafting context',
    (written, key) => {
      const text = `כפי שנקבע ${written}. ובהמשך הדברים.`;
      expect(citationKey(written)).toBe(key);
      expect(findCitations(text).map((c) => c.key)).toEqual([key]);
      expect(extractCitations([text]).map((c) => c.key)).toEqual([key]);
      expect(findProceedings(text).map((p) => p.key)).toEqual([key]);
      // draft_validate reports it without quote marks.
      expect(unquotedKey(key)).toBe(key.replace(/"/g, '').replace('ץ', 'צ'));
    },
  );

  it('a citation the reader cannot read keeps its words as a key of its own', () => {
    // Normalised as search normalises (final letters folded): one key for every spelling of those words.
    expect(citationKey('פסק הדין  בעניין כה"ן')).toBe('פסק הדינ בעניינ כהנ');
    expect(findCitations('פסק הדין בעניין כהן, 12/20')).toEqual([]);
  });
});
