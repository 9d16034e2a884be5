// internal_decision_get through the official MCP client: a committee decision's metadata with each field's
// source, by id or by its number in any form (a local prefix and «מס'» left out), its citations both ways and
// the negative-treatment flag naming the later decision; the refusals.
import { expect, it } from 'vitest';
import type { internal_decision_get } from '../../../functions/internal/internal_decision_get.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { libraryAnswers } from '../../fixtures/library/library.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { deniedPrecedent, extractLibrary, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof internal_decision_get>;

forEachStack('internal_decision_get', DB_STACKS, (server) => {
  it(
    'serves a decision by number in any form, its members, counts and the later decision criticising it',
    async () => {
      const ids = await seedLibrary(server().db.db);
      await extractLibrary(server());
      const get = async (args: Record<string, unknown>) => server().call('qa', 'internal_decision_get', args);
      const data = expectOk<Data>(await get({ numbers: "ערר מס' רע/1187/23, ערר 85101/2023" }));
      expect(data.items.map((i) => i.document_id)).toEqual([ids.I05, ids.I07]);
      const i07 = data.items[1];
      expect(i07?.fields.court).toMatchObject({
        value: libraryAnswers.documents.I07?.meta.court,
        source: 'extracted',
      });
      expect(i07?.fields.judges.value).toEqual(['אלון שגיא', 'רונית כץ', 'יואב בר']);
      expect(i07?.citations).toEqual({ outgoing: 4, unresolved_outgoing: 1, incoming: 1 });
      expect(i07?.negative_treatment).toEqual([
        expect.objectContaining({ document_id: ids.I10, treatment: 'criticised', number: 'ערר 85150/24' }),
      ]);
      expect(errorCode(await get({ document_id: ids.R01 }))).toBe('invalid_args');
      expect(errorCode(await get({ document_id: crypto.randomUUID() }))).toBe('not_found');
      expect(errorCode(await get({}))).toBe('invalid_args');
    },
    SLOW,
  );
});

deniedPrecedent('internal_decision_get', 'writer', (s) => ({ document_id: s.I01 }), true);
