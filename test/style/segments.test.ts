// The style segmenter against the precedent library fixture's style decisions: every part of each decision at
// its page and text (recall and precision ≥ 95%, printed), and each decision's outcome; small texts for a
// decision without headings (background after «החלטה», the closing paragraph as the outcome).
import { describe, expect, it } from 'vitest';
import { segmentDecision } from '../../src/style/segments.ts';
import { libraryAnswers, libraryPages, namesOf } from '../fixtures/library/library.ts';

const ws = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('style segmenter', () => {
  it('cuts the fixture’s style decisions into their parts with recall and precision ≥ 95%, and reads the outcome', async () => {
    let tp = 0;
    let found = 0;
    let wanted = 0;
    const names = namesOf('style');
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const name of names) {
      const doc = libraryAnswers.documents[name];
      const pages = await libraryPages(name);
      const { segments, outcome } = segmentDecision(pages);
      const got = segments.map((s) => `${s.part}|${s.page}|${ws(s.text)}`);
      const want = (doc?.parts ?? []).map((p) => `${p.part}|${p.page}|${ws(p.text)}`);
      tp += got.filter((g) => want.includes(g)).length;
      found += got.length;
      wanted += want.length;
      expect(outcome, name).toBe(doc?.outcome);
      for (const s of segments) expect(pages[s.page - 1]?.slice(s.start, s.end)).toBe(s.text);
    }
    const recall = tp / wanted;
    const precision = tp / found;
    console.log(
      `style segments (text): recall ${(100 * recall).toFixed(1)}% precision ${(100 * precision).toFixed(1)}% (${tp} of ${wanted}, ${found} found)`,
    );
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(precision).toBeGreaterThanOrEqual(0.95);
  });

  it('without part headings: background after «החלטה», the closing paragraph that decides as the outcome', () => {
    const page = [
      'ועדת הערר לתכנון ובנייה — מחוז מרכז',
      'ערר 12/24',
      'העוררים: דן כהן',
      'המשיבה: הוועדה המקומית',
      'החלטה',
      '1. העוררים ביקשו הקלה.',
      'דיון והכרעה',
      '2. ההקלה חורגת מהמותר.',
      '3. אשר על כן הערר נדחה.',
      'ניתנה היום, 1.2.2024.',
    ].join('\n');
    const { segments, outcome } = segmentDecision([page]);
    expect(segments.map((s) => [s.part, s.text.split('\n')[0]])).toEqual([
      ['header', 'ועדת הערר לתכנון ובנייה — מחוז מרכז'],
      ['parties', 'העוררים: דן כהן'],
      ['background', '1. העוררים ביקשו הקלה.'],
      ['discussion', 'דיון והכרעה'],
      ['outcome', '3. אשר על כן הערר נדחה.'],
      ['signatures', 'ניתנה היום, 1.2.2024.'],
    ]);
    expect(outcome).toBe('rejection');
  });
});
