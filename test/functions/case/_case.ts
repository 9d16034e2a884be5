// Shared by the case tool tests: a fresh case per test, made through case_create as an agent would.

import type { case_create } from '../../../functions/case/case_create.ts';
import type { CaseView } from '../../../src/cases/views.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { expectOk, type TestServer } from '../../harness/server.ts';

/**
 * A maker of distinct cases on the server `server()` returns (called late: the server starts in beforeAll);
 * `tag` keeps each suite's case numbers apart.
 */
export function caseMaker(server: () => TestServer, tag: string) {
  let n = 0;
  return async (extra: Record<string, unknown> = {}): Promise<CaseView> => {
    n++;
    return expectOk<ToolData<typeof case_create>>(
      await server().call('ceo', 'case_create', {
        case_number: `ערר ${tag}-${n}/25`,
        title: `תיק ${n}`,
        ...extra,
      }),
    ).case;
  };
}
