// missing_precedent_list through the official MCP client: open ones oldest first by default, closed ones and
// all, by case and by numbers in any form, paged; a deleted case's ones unreachable; a caller without the grant.
import { expect, it } from 'vitest';
import type { missing_precedent_list } from '../../../functions/missing_precedent/missing_precedent_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { DB_STACKS, deleteCase, forEachStack } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { deniedPrecedent, recordMissingPrecedent } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof missing_precedent_list>;

forEachStack('missing_precedent_list', DB_STACKS, (server) => {
  it(
    'lists open ones oldest first, then closed and all, by case and number; a deleted case’s are gone',
    async () => {
      const db = server().db.db;
      const caseId = await seedCase(db);
      const gone = await seedCase(db);
      const create = (citation: string, case_id?: string) =>
        recordMissingPrecedent(server(), citation, case_id);
      const a = await create('ע"א 10/20', caseId);
      const b = await create('ע"א 11/20');
      const c = await create('ע"א 12/20', gone);
      expectOk(
        await server().call('researcher', 'missing_precedent_close', {
          missing_precedent_id: b,
          resolution: 'dismissed',
          reason: 'לא רלוונטי',
        }),
      );
      const list = async (args: Record<string, unknown>) =>
        expectOk<Data>(await server().call('ceo', 'missing_precedent_list', args));
      const idsOf = (d: Data) => d.items.map((i) => i.missing_precedent_id);
      expect(idsOf(await list({}))).toEqual([a, c]);
      expect(idsOf(await list({ status: 'closed' }))).toEqual([b]);
      expect(idsOf(await list({ status: 'all' }))).toEqual([a, b, c]);
      expect(idsOf(await list({ case_id: caseId }))).toEqual([a]);
      expect(idsOf(await list({ status: 'all', numbers: 'ע״א 11/2020; ע"א 12/20' }))).toEqual([b, c]);
      const first = await list({ status: 'all', limit: 2 });
      const rest = await list({ status: 'all', limit: 2, cursor: first.next_cursor });
      expect([...idsOf(first), ...idsOf(rest)]).toEqual([a, b, c]);
      await deleteCase(db, gone);
      expect(idsOf(await list({}))).toEqual([a]);
      expect(errorCode(await server().call('ceo', 'missing_precedent_list', { case_id: gone }))).toBe(
        'not_found',
      );
      expect(errorCode(await server().call('ceo', 'missing_precedent_list', { numbers: 'שום דבר' }))).toBe(
        'invalid_args',
      );
    },
    SLOW,
  );
});

deniedPrecedent('missing_precedent_list', 'qa', () => ({}), true);
