// library_get through the official MCP client: a ruling's metadata with each field's source and where it was
// read, by id or by numbers in any written form (up to 20), its citation counts and the negative-treatment
// flag naming the later documents; a field the uploader gave stays given; the refusals.
import { expect, it } from 'vitest';
import type { library_get } from '../../../functions/library/library_get.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { documentPageTexts } from '../../../src/extractors/framework.ts';
import { libraryAnswers } from '../../fixtures/library/library.ts';
import { DB_STACKS, deleteCase, forEachStack } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { deniedPrecedent, extractLibrary, type Seeded, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof library_get>;

forEachStack('library_get', DB_STACKS, (server) => {
  let ids: Seeded;
  const get = async (args: Record<string, unknown>) => server().call('researcher', 'library_get', args);

  it(
    'serves every field as extracted, with where it was read, and the citation graph around the ruling',
    async () => {
      ids = await seedLibrary(server().db.db);
      await extractLibrary(server());
      const data = expectOk<Data>(await get({ document_id: ids.R03 }));
      const [r03] = data.items;
      const want = libraryAnswers.documents.R03?.meta;
      expect(r03?.metadata).toBe('extracted');
      for (const [field, value] of Object.entries(want ?? {})) {
        const f = r03?.fields[field as keyof NonNullable<typeof r03>['fields']];
        expect(f?.value, field).toEqual(value);
        expect(f?.source, field).toBe('extracted');
      }
      const pages = await documentPageTexts(server().db.db, ids.R03 as string);
      const p = r03?.fields.number.provenance;
      expect(pages[(p?.page ?? 1) - 1]?.slice(p?.start, p?.end)).toBe(p?.text);
      // Cited by R05 (which overrules it) and I08 (which says it was reversed); it cites R04.
      expect(r03?.citations).toEqual({ outgoing: 1, unresolved_outgoing: 0, incoming: 2 });
      expect(r03?.negative_treatment.map((n) => [n.document_id, n.treatment]).sort()).toEqual(
        [
          [ids.R05, 'overruled_or_reversed'],
          [ids.I08, 'overruled_or_reversed'],
        ].sort(),
      );
      // An earlier or unrelated ruling carries no flag; R02 is criticised by the later R09.
      const r02 = expectOk<Data>(await get({ document_id: ids.R02 })).items[0];
      expect(r02?.negative_treatment).toEqual([
        expect.objectContaining({ document_id: ids.R09, treatment: 'criticised', cue: 'יש להסתייג' }),
      ]);
      expect(expectOk<Data>(await get({ document_id: ids.R05 })).items[0]?.negative_treatment).toEqual([]);
    },
    SLOW,
  );

  it(
    'counts a case document’s citation but flags only an authority’s criticism, and forgets a deleted case’s',
    async () => {
      const db = server().db.db;
      const before = expectOk<Data>(await get({ document_id: ids.R01 })).items[0];
      const caseId = await seedCase(db);
      const doc = await seedDocument(db, {
        corpus: 'case',
        caseId,
        bytes: textBytes('העוררים: איני שותף לגישה שבעע"מ 9001/19, שכן היא שגויה.'),
      });
      expectOk(
        await server().call('researcher', 'citation_extract', { document_id: doc.id, wait_ms: 10_000 }),
      );
      const after = expectOk<Data>(await get({ document_id: ids.R01 })).items[0];
      expect(after?.citations.incoming).toBe((before?.citations.incoming ?? 0) + 1);
      expect(after?.negative_treatment).toEqual(before?.negative_treatment);
      await deleteCase(db, caseId);
      expect(expectOk<Data>(await get({ document_id: ids.R01 })).items[0]?.citations).toEqual(
        before?.citations,
      );
    },
    SLOW,
  );

  it(
    'looks up up to twenty numbers pasted in any written form, naming those it does not hold',
    async () => {
      const data = expectOk<Data>(
        await get({ numbers: 'ע״א 1108/97, עע׳׳מ9001/2019; בג"צ 1234/20\nעת"מ 12345-5-20, עע"מ 7777/18' }),
      );
      expect(data.items.map((i) => i.document_id)).toEqual([ids.R01, ids.R02, ids.R03, ids.R07]);
      expect(data.not_found).toEqual(['עע"מ 7777/18']);
      const twenty = Array.from({ length: 20 }, (_, i) => `ע"א ${100 + i}/20`).join(', ');
      expect(expectOk<Data>(await get({ numbers: twenty })).not_found).toHaveLength(20);
    },
    SLOW,
  );

  it(
    'keeps the fields the uploader gave, reading only the others',
    async () => {
      const db = server().db.db;
      const given = await seedLibrary(db, { names: ['R04'], given: true, format: 'docx' });
      expectOk(
        await server().call('researcher', 'library_metadata_extract', {
          document_id: given.R04,
          wait_ms: 10_000,
        }),
      );
      const r04 = expectOk<Data>(await get({ document_id: given.R04 })).items[0];
      expect(r04?.fields.number).toMatchObject({ value: 'רע"א 3213/97', source: 'given', provenance: null });
      expect(r04?.fields.decision_date).toMatchObject({ value: '1998-05-20', source: 'given' });
      expect(r04?.fields.judges).toMatchObject({
        source: 'extracted',
        value: ["ש' לוין", "ד' דורנר", "י' טירקל"],
      });
    },
    SLOW,
  );

  it(
    'refuses a bad target: invalid_args and not_found',
    async () => {
      expect(errorCode(await get({}))).toBe('invalid_args');
      expect(errorCode(await get({ document_id: ids.R01, numbers: 'ע"א 1/20' }))).toBe('invalid_args');
      expect(errorCode(await get({ numbers: 'שלום עולם' }))).toBe('invalid_args');
      const many = Array.from({ length: 21 }, (_, i) => `ע"א ${100 + i}/20`).join(', ');
      expect(errorCode(await get({ numbers: many }))).toBe('invalid_args');
      const wrong = await get({ document_id: ids.I01 });
      expect(errorCode(wrong)).toBe('invalid_args');
      expect(wrong.ok ? '' : wrong.error.hint).toContain('internal_decision_get');
      expect(errorCode(await get({ document_id: crypto.randomUUID() }))).toBe('not_found');
    },
    SLOW,
  );
});

deniedPrecedent('library_get', 'qa', (s) => ({ document_id: s.R01 }), true);
