// internal_decision_list through the official MCP client: the committee's decisions only, filtered by
// committee, years and outcome, newest first; the refusal without the grant.
import { expect, it } from 'vitest';
import type { internal_decision_list } from '../../../functions/internal/internal_decision_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { libraryAnswers, namesOf } from '../../fixtures/library/library.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { deniedPrecedent, extractLibrary, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof internal_decision_list>;
const decisions = namesOf('internal');
const meta = (n: string) => libraryAnswers.documents[n]?.meta;

forEachStack('internal_decision_list', DB_STACKS, (server) => {
  it(
    'lists the committee’s decisions only, newest first, filtered by committee, years and outcome',
    async () => {
      const ids = await seedLibrary(server().db.db);
      await extractLibrary(server());
      const list = async (args: Record<string, unknown>) =>
        expectOk<Data>(await server().call('writer', 'internal_decision_list', args));
      const names = (d: Data) => d.items.map((i) => Object.keys(ids).find((n) => ids[n] === i.document_id));
      const all = await list({ limit: 50 });
      expect(names(all)).toEqual(
        [...decisions].sort((a, b) =>
          (meta(b)?.decision_date ?? '').localeCompare(meta(a)?.decision_date ?? ''),
        ),
      );
      const levy = decisions.filter((n) => meta(n)?.court.includes('היטל השבחה'));
      expect(names(await list({ court: 'להיטל השבחה' })).sort()).toEqual(levy.sort());
      expect(names(await list({ year_from: 2024, outcome: 'rejected' }))).toEqual(['I09']);
      expect(names(await list({ sort: 'date_asc', limit: 1 }))).toEqual(['I03']);
      expect(errorCode(await server().call('writer', 'internal_decision_list', { proceeding: 'abc' }))).toBe(
        'invalid_args',
      );
    },
    SLOW,
  );
});

deniedPrecedent('internal_decision_list', 'qa', () => ({}), true);
