// The holding rules on the two invented sets (test/fixtures/holdings): the tuning set's every holding found
// and nothing else, and the held-out set, frozen before the rules were changed, measured (recall and
// precision printed with every miss and spurious candidate) and held to the goal (0.95 both). A form the
// held-out set shows the rules miss gets a tuning fixture of its own; the held-out set is never tuned on.
import { describe, expect, it } from 'vitest';
import { extractHoldings } from '../../src/halacha/holdings.ts';
import {
  type HoldingSet,
  holdingAnswers,
  holdingPages,
  scoreHoldings,
} from '../fixtures/holdings/holdings_fixture.ts';

async function measure(set: HoldingSet) {
  const answers = await holdingAnswers(set);
  let expected = 0;
  let found = 0;
  let hit = 0;
  const notes: string[] = [];
  for (const [name, want] of Object.entries(answers.documents)) {
    const got = extractHoldings(await holdingPages(set, name));
    const r = scoreHoldings(want.holdings, got);
    expected += want.holdings.length;
    found += got.length;
    hit += r.hit;
    for (const [page, quote] of r.missed) notes.push(`${name}: missed p${page} «${quote}»`);
    for (const s of r.spurious) notes.push(`${name}: spurious p${s.page} ${s.cue} «${s.text.slice(0, 70)}»`);
  }
  const recall = expected === 0 ? 0 : hit / expected;
  const precision = found === 0 ? 0 : hit / found;
  console.log(
    `${set} holdings: recall ${recall.toFixed(3)}, precision ${precision.toFixed(3)} (${hit}/${expected} expected, ${found} found)${notes.length > 0 ? `\n${notes.join('\n')}` : ''}`,
  );
  return { recall, precision, expected };
}

describe('holdings on the invented sets', () => {
  it('find every holding of the tuning set and nothing else', async () => {
    const m = await measure('tuning');
    expect(m.expected).toBeGreaterThanOrEqual(10);
    expect(m.recall).toBe(1);
    expect(m.precision).toBe(1);
  });

  it('find the held-out set’s holdings with recall and precision ≥ 0.95', async () => {
    const m = await measure('held_out');
    expect(m.expected).toBeGreaterThanOrEqual(15);
    expect(m.recall).toBeGreaterThanOrEqual(0.95);
    expect(m.precision).toBeGreaterThanOrEqual(0.95);
  });
});
