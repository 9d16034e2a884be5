// block_context_get with the precedent library and the style corpus: a discussion block gets the precedents
// pinned to its section and the approved holdings (never the pending ones) of the documents they quote; every
// block gets the closest examples of its part from the enriched style corpus, the case's outcome first.
import { expect, it } from 'vitest';
import { DB_STACKS, forEachStack, seedCaseFile } from '../../harness/analysis.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { seedLibrary } from '../../harness/holdings_fixtures.ts';
import { expectOk } from '../../harness/server.ts';

const SLOW = 120_000;
const QUOTE = 'הקלה אינה כלי לשינוי ייעוד המקרקעין';

interface Item {
  section: string;
  id: string;
  title: string | null;
  text: string;
  source: { document_id: string; page: number; text: string } | null;
}
interface Context {
  items: Item[];
  sections: { section: string; items: number }[];
  not_available: string[];
}

forEachStack('block_context_get (library)', DB_STACKS, (server) => {
  it(
    'serves the section’s precedents, their approved holdings and the closest style examples',
    async () => {
      const s = server();
      const db = s.db.db;
      const { caseId } = await seedCaseFile(db, { names: ['appeal'] });
      const ruling = await seedDocument(db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes(
          `עע"מ 9001/19 כהן נ' הוועדה ${crypto.randomUUID()}\n\nפסק דין\n\n` +
            `1. הלכה היא כי ${QUOTE}. שינוי כזה טעון תכנית.\n` +
            '2. לא אחת נפסק כי ועדת ערר רשאית להפעיל שיקול דעת תכנוני עצמאי.\n',
        ),
        number: 'עע"מ 9001/19',
      });
      expect(ruling.status).toBe('ready');
      expect(
        expectOk<{ done: boolean }>(
          await s.call('researcher', 'halacha_extract', { document_id: ruling.id, wait_ms: 10_000 }),
        ).done,
      ).toBe(true);
      const pending = expectOk<{ items: { halacha_id: string; text: string }[] }>(
        await s.call('qa', 'halacha_list', { document_id: ruling.id }),
      ).items;
      expect(pending.length).toBeGreaterThanOrEqual(2);
      const approve = { halacha_id: pending[0]?.halacha_id ?? '' };
      const leave = { halacha_id: pending[1]?.halacha_id ?? '' };
      const wording = 'הקלה אינה כלי לשינוי ייעוד; שינוי ייעוד טעון תכנית.';
      expectOk(
        await s.call('ceo', 'halacha_review', {
          halacha_id: approve.halacha_id,
          decision: 'edit',
          text: wording,
          owner_ack: true,
          reason: 'היו״ר החליט',
        }),
      );
      const pinned = expectOk<{ precedent: { precedent_id: string } }>(
        await s.call('researcher', 'precedent_attach', {
          case_id: caseId,
          section: 'discussion',
          citation: 'עע"מ 9001/19 כהן נ\' הוועדה',
          quote: QUOTE,
          document_id: ruling.id,
          page: 1,
        }),
      ).precedent;
      // Pinned to another section: not this block's.
      expectOk(
        await s.call('researcher', 'precedent_attach', {
          case_id: caseId,
          section: 'background',
          citation: 'עע"מ 9001/19',
          quote: 'שינוי כזה טעון תכנית',
          document_id: ruling.id,
        }),
      );

      const styles = await seedLibrary(db, ['S01', 'S02', 'S03'], 'txt');
      for (const id of styles.values())
        expect(
          expectOk<{ done: boolean }>(
            await s.call('researcher', 'style_corpus_enrich', { document_id: id, wait_ms: 10_000 }),
          ).done,
        ).toBe(true);
      expectOk(
        await s.call('ceo', 'outcome_set', {
          case_id: caseId,
          outcome: 'rejection',
          owner_ack: true,
          reason: 'הוחלט',
        }),
      );

      const context = async (block: string) =>
        expectOk<Context>(
          await s.call('writer', 'block_context_get', { case_id: caseId, block, limit: 200 }),
        );
      const d = await context('discussion:date');
      expect(d.not_available).toEqual([]);
      const of = (c: Context, section: string) => c.items.filter((i) => i.section === section);
      expect(of(d, 'precedent').map((i) => [i.id, i.text])).toEqual([[pinned.precedent_id, QUOTE]]);
      const held = of(d, 'approved_holding');
      expect(held.map((i) => i.id)).toEqual([approve.halacha_id]);
      expect(held[0]?.text).toBe(wording);
      expect(held[0]?.source?.document_id).toBe(ruling.id);
      expect(held.some((i) => i.id === leave.halacha_id)).toBe(false);
      const examples = of(d, 'style_example');
      expect(examples).toHaveLength(3);
      // The case was rejected: the rejected decision's discussion comes first.
      expect(examples[0]?.source?.document_id).toBe(styles.get('S02'));
      expect(examples[0]?.title).toContain('rejection');
      expect(examples.every((e) => e.text.length > 0 && e.source !== null)).toBe(true);

      // Other blocks: no precedents or holdings, but examples of their own part.
      const outcome = await context('outcome');
      expect(of(outcome, 'precedent')).toEqual([]);
      expect(of(outcome, 'approved_holding')).toEqual([]);
      const outs = of(outcome, 'style_example');
      expect(outs).toHaveLength(3);
      expect(outs[0]?.source?.document_id).toBe(styles.get('S02'));
      expect(outs.some((e) => examples.some((x) => x.id === e.id))).toBe(false);
      expect(of(await context('header'), 'style_example')).toHaveLength(3);
    },
    SLOW,
  );
});
