// library_list through the official MCP client: the library's rulings with their metadata, filtered by court,
// years, proceeding type, outcome and practice area, sorted by decision date either way, stable across pages;
// a document not read yet shows what its uploader gave; the refusals.
import { expect, it } from 'vitest';
import type { library_list } from '../../../functions/library/library_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { libraryAnswers, namesOf } from '../../fixtures/library/library.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { deniedPrecedent, extractLibrary, type Seeded, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof library_list>;
const rulings = namesOf('library');
const meta = (n: string) => libraryAnswers.documents[n]?.meta;
const byDate = (names: string[]) =>
  [...names].sort((a, b) => (meta(b)?.decision_date ?? '').localeCompare(meta(a)?.decision_date ?? ''));

forEachStack('library_list', DB_STACKS, (server) => {
  let ids: Seeded;
  const list = async (args: Record<string, unknown>) =>
    expectOk<Data>(await server().call('analyst', 'library_list', args));
  const names = (d: Data) => d.items.map((i) => Object.keys(ids).find((n) => ids[n] === i.document_id));

  it(
    'lists the rulings newest first with their metadata, and pages through them without loss',
    async () => {
      ids = await seedLibrary(server().db.db);
      await extractLibrary(server());
      const all = await list({});
      expect(names(all)).toEqual(byDate(rulings));
      expect(all.items[0]).toMatchObject({
        number: meta('R09')?.number,
        court: meta('R09')?.court,
        decision_date: meta('R09')?.decision_date,
        outcome: 'full_acceptance',
        practice_area: 'planning',
        metadata: 'extracted',
      });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await list({ limit: 3, sort: 'date_asc', ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((i) => i.document_id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(
        byDate(rulings)
          .reverse()
          .map((n) => ids[n]),
      );
    },
    SLOW,
  );

  it(
    'filters by court, years, proceeding in any quote form, outcome and practice area',
    async () => {
      const supreme = rulings.filter((n) => meta(n)?.court.includes('העליון'));
      expect(names(await list({ court: 'העליון' })).sort()).toEqual(supreme.sort());
      const inYears = rulings.filter((n) => {
        const y = Number(meta(n)?.decision_date.slice(0, 4));
        return y >= 2019 && y <= 2021;
      });
      expect(names(await list({ year_from: 2019, year_to: 2021 })).sort()).toEqual(inYears.sort());
      expect(names(await list({ proceeding: 'עע״מ' })).sort()).toEqual(['R01', 'R09']);
      // The filter takes the outcome in its one vocabulary, and the legacy words (mapped) as well.
      const rejected = names(await list({ outcome: 'rejection', limit: 50 }));
      expect(rejected.sort()).toEqual(rulings.filter((n) => meta(n)?.outcome === 'rejection').sort());
      for (const legacy of ['rejected', 'נדחה', 'הערר נדחה'])
        expect(names(await list({ outcome: legacy, limit: 50 })).sort()).toEqual(rejected);
      expect(names(await list({ proceeding: 'עת"מ', outcome: 'rejected' }))).toEqual(['R08']);
      expect(names(await list({ outcome: 'partially_accepted', limit: 50 })).sort()).toEqual(
        rulings.filter((n) => meta(n)?.outcome === 'partial_acceptance').sort(),
      );
      expect(errorCode(await server().call('writer', 'library_list', { outcome: 'betterment_levy' }))).toBe(
        'invalid_args',
      );
      const levy = rulings.filter((n) => meta(n)?.practice_area === 'betterment_levy');
      expect(names(await list({ practice_area: 'betterment_levy' })).sort()).toEqual(levy.sort());
      expect(names(await list({ practice_area: 'היטל השבחה' })).sort()).toEqual(levy.sort());
    },
    SLOW,
  );

  it(
    'shows a ruling not read yet with what its uploader gave',
    async () => {
      const [id] = Object.values(
        await seedLibrary(server().db.db, { names: ['R04'], given: true, format: 'pdf' }),
      );
      const found = (await list({ limit: 200 })).items.find((i) => i.document_id === id);
      expect(found).toMatchObject({
        metadata: 'pending',
        number: 'רע"א 3213/97',
        decision_date: '1998-05-20',
        outcome: null,
      });
    },
    SLOW,
  );

  it(
    'refuses a proceeding type it does not know, and a foreign cursor',
    async () => {
      expect(errorCode(await server().call('analyst', 'library_list', { proceeding: 'xyz' }))).toBe(
        'invalid_args',
      );
      expect(errorCode(await server().call('analyst', 'library_list', { cursor: 'bm90LWEtY3Vyc29y' }))).toBe(
        'invalid_args',
      );
    },
    SLOW,
  );
});

deniedPrecedent('library_list', 'writer', () => ({}), true);
