// The claim rules on the tuning claim fixture (test/fixtures/claims/tuning): every filing and layout —
// bullets under an unusual heading, numbered paragraphs under «עיקרי הטיעון», an unheaded response in
// unnumbered paragraphs, a summation and «עיקרי טיעון» whose title names the party, a protocol's statements,
// a decision's summaries (headed, several claims in one paragraph) and its paraphrase in the committee's
// voice, an interim decision and a request — each document's role, and its claims exactly (no more, no less).
import { describe, expect, it } from 'vitest';
import { extractClaims } from '../../src/analysis/claims.ts';
import { detectRole } from '../../src/analysis/roles.ts';
import { claimAnswers, claimPages, scoreClaims } from '../fixtures/claims/claims_fixture.ts';

const answers = await claimAnswers('tuning');

describe('claims on the tuning case file', () => {
  for (const [name, want] of Object.entries(answers.documents)) {
    it(`${name}: role ${want.role}, ${want.claims.length} claims and nothing else`, async () => {
      const pages = await claimPages('tuning', name);
      const role = detectRole(pages[0] ?? '');
      expect(role).toBe(want.role);
      const found = extractClaims(pages, role);
      for (const c of found) expect(pages[c.page - 1]?.slice(c.start, c.end)).toBe(c.text);
      const r = scoreClaims(want.claims, found);
      expect({
        missed: r.missed,
        spurious: r.spurious.map((s) => `${s.party} ${s.kind} ${s.text}`),
      }).toEqual({ missed: [], spurious: [] });
    });
  }
});
