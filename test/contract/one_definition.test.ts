// One definition per concept: the current blocks of a draft, the outcome vocabulary (legacy words only where
// input is mapped), the two query-word caps under names that say what they bound. The proceeding key and the
// number resolver have their own test (test/legal/citation_key.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const code = ['src', 'functions', 'entry'].flatMap(sources).map((file) => ({
  file: relative(root, join(root, file)),
  text: readFileSync(join(root, file), 'utf8'),
}));

/** The files whose text matches `pattern`. */
const filesMatching = (pattern: RegExp) => code.filter((f) => pattern.test(f.text)).map((f) => f.file);

describe('one definition per concept', () => {
  it('currentBlocks is defined once, in src/drafting/store.ts', () => {
    expect(filesMatching(/\b(?:function\s+|(?:const|let)\s+)currentBlocks\b/)).toEqual([
      'src/drafting/store.ts',
    ]);
  });

  it('the outcome vocabulary is defined once, beside the schema; legacy words appear only where input is mapped', () => {
    expect(filesMatching(/\bexport const outcomes\s*=/)).toEqual(['src/db/schema/vocabulary.ts']);
    expect(filesMatching(/\bpartially_accepted\b/)).toEqual(['src/cases/outcomes.ts']);
  });

  it('no cap is called MAX_QUERY_WORDS: each query-word cap is named for what it bounds', () => {
    expect(filesMatching(/\bMAX_QUERY_WORDS\b/)).toEqual([]);
  });
});
