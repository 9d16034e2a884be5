// appraiser_fact_get: the facts grouped by kind and subject, the conflicts with their sides and gap, the
// tolerance, a kind filter; empty before extraction; the refusals; a deleted case; 20 identical reads at
// once; a caller without the grant.
import { expect, it } from 'vitest';
import type { appraiser_fact_get } from '../../../functions/appraiser/appraiser_fact_get.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { caseFileAnswers } from '../../fixtures/case_file/case_file.ts';
import {
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  seedCaseFile,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

type Data = ToolData<typeof appraiser_fact_get>;
const names = (list: [string, string | null][]) => list.map(([k, n]) => `${k}|${n}`).sort();

forEachStack('appraiser_fact_get', DB_STACKS, (server) => {
  const get = (args: Record<string, unknown>) => server().call('researcher', 'appraiser_fact_get', args);
  let caseId = '';
  let docs: Record<string, string> = {};

  it('groups the facts and lists the conflicts, each side with its appraiser, value, document and page', async () => {
    ({ caseId, docs } = await seedCaseFile(server().db.db));
    expect((await get({ case_id: caseId })).status).toBe('empty');
    expectOk(await server().call('analyst', 'appraiser_fact_extract', { case_id: caseId, wait_ms: 10_000 }));
    const env = await get({ case_id: caseId });
    const data = expectOk<Data>(env);
    expect(env.message).toMatch(/26 facts/);
    expect(data.appraisers).toEqual([
      { document_id: docs.appraisal_appellants, name: 'רונית שחר', role: 'appellants' },
      { document_id: docs.appraisal_committee, name: 'אבי גולן', role: 'committee' },
      { document_id: docs.deciding_appraisal, name: 'מיכאל ברנע', role: 'deciding' },
    ]);
    expect(data.conflicts.map((c) => `${c.kind}|${c.name}`).sort()).toEqual(names(caseFileAnswers.conflicts));
    const date = data.conflicts.find((c) => c.kind === 'determining_date');
    expect(date).toMatchObject({
      parcel: 'גוש 6638 חלקה 12',
      plan: 'הצ/1-4/1250',
      absolute: 870,
      relative: null,
      display: '870 days',
    });
    expect(date?.sides.map((s) => [s.role, s.value])).toEqual([
      ['deciding', '2021-03-14'],
      ['committee', '2023-08-01'],
      ['appellants', '2021-03-14'],
    ]);
    const betterment = data.conflicts.find((c) => c.kind === 'betterment');
    expect(betterment).toMatchObject({ absolute: 74_000_000, relative: 0.6218, display: '740,000 ₪' });
    expect(betterment?.sides[1]).toMatchObject({
      appraiser: 'אבי גולן',
      value: 119_000_000,
      display: '1,190,000 ₪',
    });
    expect(betterment?.sides[1]?.source).toMatchObject({ document_id: docs.appraisal_committee, page: 1 });
    const area = data.groups.find((g) => g.kind === 'area');
    expect(area?.facts.map((f) => f.display)).toEqual(['620 מ"ר', '620 מ"ר', '620 מ"ר']);
    const levy = data.groups.find((g) => g.kind === 'levy');
    expect(levy?.facts.map((f) => f.note)).toEqual([null, null, 'levy_not_half']);
  });

  it('ignores gaps within the tolerance, filters by kind, and reads alike at once', async () => {
    const within = expectOk<Data>(await get({ case_id: caseId, tolerance: 0.1 }));
    expect(within.conflicts.map((c) => `${c.kind}|${c.name}`).sort()).toEqual(
      names(caseFileAnswers.conflicts_within_10_percent),
    );
    const coefficients = expectOk<Data>(await get({ case_id: caseId, kind: 'coefficient' }));
    expect(coefficients.groups.map((g) => g.name)).toEqual(['מקדם דחיה', 'מקדם סחירות', 'מקדם גודל']);
    expect(coefficients.conflicts.map((c) => c.name)).toEqual(['מקדם דחיה']);
    const once = expectOk<Data>(await get({ case_id: caseId }));
    for (const r of await twentyAtOnce(server(), 'appraiser_fact_get', { case_id: caseId }, [
      'researcher',
      'writer',
    ])) {
      expect(expectOk<Data>(r)).toEqual(once);
    }
  });

  it('refuses bad arguments; not_found for an unknown or deleted case', async () => {
    expect(errorCode(await get({ case_id: caseId, tolerance: 2 }))).toBe('invalid_args');
    expect(errorCode(await get({ case_id: caseId, kind: 'value' }))).toBe('invalid_args');
    expect(errorCode(await get({ case_id: crypto.randomUUID() }))).toBe('not_found');
    await deleteCase(server().db.db, caseId);
    expect(errorCode(await get({ case_id: caseId }))).toBe('not_found');
  });
});

deniedTo('appraiser_fact_get', 'ceo', (c) => ({ case_id: c.caseId }), true);
