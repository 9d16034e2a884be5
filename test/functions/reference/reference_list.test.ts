// reference_list: the case's references grouped by canonical key with counts and every occurrence, filtered by
// kind, key (any spelling) or document; paging; the refusals; a deleted case; 20 identical reads at once;
// the same answer after a re-run of the extractor; a caller without the grant.
import { expect, it } from 'vitest';
import type { reference_list } from '../../../functions/reference/reference_list.ts';
import { referenceExtractor } from '../../../src/analysis/extractors.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import {
  ALL_STACKS,
  deleteCase,
  deniedTo,
  extractCase,
  forEachStack,
  seedCaseFile,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { rerun } from '../../harness/rerun.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

type Data = ToolData<typeof reference_list>;

forEachStack('reference_list', ALL_STACKS, (server) => {
  const list = (args: Record<string, unknown>, agent: 'writer' | 'analyst' = 'writer') =>
    server().call(agent, 'reference_list', args);

  it('groups a case’s references by key, one plan written four ways under one key, occurrences in order', async () => {
    const { caseId, docs } = await seedCaseFile(server().db.db);
    await extractCase(server(), caseId);
    const data = expectOk<Data>(await list({ case_id: caseId, kind: 'plan', limit: 200 }));
    const keys = data.items.map((i) => i.key);
    expect(keys).toEqual(['101-0456789', 'גז/1234', 'הצ/1-4/1250', 'תמ"א 35', 'תמ"א 38', 'תמ"מ 3/21']);
    const tama = data.items.find((i) => i.key === 'תמ"א 38');
    expect(tama?.count).toBe(5);
    expect(new Set(tama?.occurrences.map((o) => o.text))).toEqual(new Set(['תמ"א 38', 'תמ״א 38', 'תמא 38']));
    expect(tama?.occurrences.map((o) => o.document_id)).toEqual([
      docs.appeal,
      docs.appeal,
      docs.response,
      docs.appraisal_committee,
      docs.deciding_appraisal,
    ]);
    // key in any spelling; a section key as listed.
    const one = expectOk<Data>(await list({ case_id: caseId, key: 'תמ׳׳א/38' }));
    expect(one.items.map((i) => [i.key, i.count])).toEqual([['תמ"א 38', 5]]);
    const law = expectOk<Data>(await list({ case_id: caseId, key: 'חוק התכנון והבנייה, התשכ״ה–1965' }));
    expect(law.items[0]).toMatchObject({ kind: 'statute', key: 'חוק התכנון והבניה 1965', count: 4 });
    const parcels = expectOk<Data>(await list({ document_id: docs.response, kind: 'parcel' }));
    expect(parcels.items.map((i) => i.key)).toEqual([
      'גוש 6638 חלקה 12',
      'גוש 6638 חלקה 13',
      'גוש 6638 חלקה 14',
    ]);
  });

  it('pages by key without repeats, binds the cursor to its arguments, and is the same after a re-run', async () => {
    const { caseId, docs } = await seedCaseFile(server().db.db, { names: ['appeal'] });
    expectOk(await server().call('analyst', 'reference_extract', { case_id: caseId, wait_ms: 10_000 }));
    const all = expectOk<Data>(await list({ case_id: caseId, limit: 200 }));
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = expectOk<Data>(await list({ case_id: caseId, limit: 4, ...(cursor ? { cursor } : {}) }));
      seen.push(...page.items.map((i) => `${i.kind}|${i.key}`));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((i) => `${i.kind}|${i.key}`));
    const first = expectOk<Data>(await list({ case_id: caseId, limit: 2 }));
    expect(errorCode(await list({ case_id: caseId, kind: 'plan', cursor: first.next_cursor }))).toBe(
      'invalid_args',
    );
    await rerun(server().db.db, referenceExtractor, docs.appeal);
    expect(expectOk<Data>(await list({ case_id: caseId, limit: 200 }))).toEqual(all);
    const reads = await twentyAtOnce(server(), 'reference_list', { case_id: caseId, limit: 200 }, [
      'writer',
      'qa',
    ]);
    for (const r of reads) expect(expectOk<Data>(r)).toEqual(all);
  });

  it('is empty for a case with nothing extracted, refuses bad arguments, and not_found for what is unreachable', async () => {
    const db = server().db.db;
    const empty = await list({ case_id: await seedCase(db) });
    expect(empty.status).toBe('empty');
    expect(errorCode(await list({}))).toBe('invalid_args');
    const { caseId, docs } = await seedCaseFile(db, { names: ['response'] });
    expect(errorCode(await list({ case_id: caseId, document_id: docs.response }))).toBe('invalid_args');
    expect(errorCode(await list({ case_id: caseId, kind: 'law' }))).toBe('invalid_args');
    expect(errorCode(await list({ case_id: crypto.randomUUID() }))).toBe('not_found');
    expect(errorCode(await list({ document_id: crypto.randomUUID() }))).toBe('not_found');
    await deleteCase(db, caseId);
    expect(errorCode(await list({ case_id: caseId }))).toBe('not_found');
    expect(errorCode(await list({ document_id: docs.response }))).toBe('not_found');
  });
});

deniedTo('reference_list', 'writer', (c) => ({ case_id: c.caseId }), true);
