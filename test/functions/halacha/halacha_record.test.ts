// halacha_record: an agent adding a holding the rules missed (located by its quote), re-quoting a candidate
// cut wrong (the old one rejected, naming the new), rejecting one that is no holding; each kept through a
// re-run of the extractor, still pending the owner's review, audited; the retry layers; every refusal; a
// document of a deleted case; 20 identical calls at once; no grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { halacha_record } from '../../../functions/halacha/halacha_record.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { holdingReviews, holdings } from '../../../src/db/schema/holdings.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { holdingExtractor } from '../../../src/halacha/extractor.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  seedCaseFile,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { textBytes } from '../../harness/documents.ts';
import { rerun } from '../../harness/rerun.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk, type TestServer } from '../../harness/server.ts';
import { extractHoldings, RULING, seedRuling } from './_halacha.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Recorded = ToolData<typeof halacha_record>;

// A general rule stated without any cue the rules know, added to the ruling written for the halacha tests.
const MISSED = 'ועדת ערר אינה כבולה לשומת הוועדה המקומית, ורשאית לקבוע שומה משלה';
const TEST = 'המבחן הוא אם הסטייה פוגעת במטרות התכנית ובאופייה של הסביבה.';

/** The ruling with its candidates extracted: the document and the candidates in order. */
async function ruling(s: TestServer) {
  const documentId = await seedRuling(
    s.db.db,
    'library',
    RULING.replace('8. אשר על כן', `7א. ${MISSED}.\n8. אשר על כן`),
  );
  await extractHoldings(s, documentId);
  const rows = (await s.db.db.select().from(holdings).where(eq(holdings.documentId, documentId))).sort(
    (a, b) => a.seq - b.seq,
  );
  const [first, cutWrong, third] = rows;
  if (first === undefined || cutWrong === undefined || third === undefined)
    throw new Error('candidates missing');
  expect(cutWrong.text).toMatch(/^אין בידינו לקבל טענה זו/);
  return { documentId, first, cutWrong, third };
}

const addArgs = (documentId: string, over: Record<string, unknown> = {}) => ({
  action: 'add',
  document_id: documentId,
  page: 2,
  quote: MISSED,
  ...over,
});

forEachStack('halacha_record', DB_STACKS, (server) => {
  const record = (args: Record<string, unknown>) => server().call('researcher', 'halacha_record', args);

  it(
    'adds a missed holding, re-quotes one cut wrong, rejects one: kept through a re-run, pending the owner',
    async () => {
      const s = server();
      const { documentId, cutWrong, third } = await ruling(s);
      const audit = await auditMark(s.db.db);
      const added = expectOk<Recorded>(
        await record(addArgs(documentId, { rationale: 'כלל כללי בלשון בית המשפט' })),
      );
      expect(added).toMatchObject({
        created: true,
        halacha: {
          status: 'pending',
          origin: 'recorded',
          cue: 'halacha_record',
          text: MISSED,
          provenance: { document_id: documentId, page: 2, extractor_version: 'halacha_record' },
        },
      });
      const corrected = expectOk<Recorded>(
        await record({
          action: 'correct',
          halacha_id: cutWrong.id,
          page: 1,
          quote: TEST,
          rationale: 'רק הכלל',
        }),
      );
      expect(corrected).toMatchObject({
        created: true,
        halacha: { status: 'pending', origin: 'recorded', text: TEST },
      });
      const [old] = await s.db.db.select().from(holdings).where(eq(holdings.id, cutWrong.id));
      expect(old).toMatchObject({ status: 'rejected', reviewedBy: 'researcher' });
      expect(old?.reviewReason).toContain(corrected.halacha.halacha_id);
      const rejected = expectOk<Recorded>(
        await record({ action: 'reject', halacha_id: third.id, rationale: 'אמרת אגב' }),
      );
      expect(rejected.halacha).toMatchObject({
        status: 'rejected',
        review_reason: 'אמרת אגב',
        origin: 'extracted',
      });
      expect(
        await s.db.db.select().from(holdingReviews).where(eq(holdingReviews.holdingId, third.id)),
      ).toMatchObject([{ decision: 'reject', agent: 'researcher', owner: null }]);

      // A re-run of the extractor neither drops the agent's candidates nor revives the rejected ones.
      const before = await s.db.db.select().from(holdings).where(eq(holdings.documentId, documentId));
      await rerun(s.db.db, holdingExtractor, documentId);
      const after = await s.db.db.select().from(holdings).where(eq(holdings.documentId, documentId));
      const byId = (rows: typeof before) => rows.sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(after)).toEqual(byId(before));

      // The owner still decides: the agent's candidate is in the queue and can be approved.
      const queue = expectOk<{ items: { halacha_id: string }[] }>(await s.call('ceo', 'halacha_list', {}));
      expect(queue.items.map((h) => h.halacha_id)).toContain(added.halacha.halacha_id);
      const approved = await s.call('ceo', 'halacha_review', {
        owner_ack: true,
        reason: 'היו״ר החליט',
        halacha_id: added.halacha.halacha_id,
        decision: 'approve',
      });
      expect(expectOk<{ halacha: { status: string } }>(approved).halacha.status).toBe('approved');
      expect(
        errorCode(await record({ action: 'reject', halacha_id: added.halacha.halacha_id, rationale: 'ר' })),
      ).toBe('invalid_state');
      expect((await audit()).map((r) => r.tool)).toEqual([
        'halacha_record',
        'halacha_record',
        'halacha_record',
        'halacha_review',
        'halacha_record',
      ]);
    },
    SLOW,
  );

  it(
    'replays a retry; without the key-value record the natural key holds; another reason is refused',
    async () => {
      const s = server();
      const { documentId, cutWrong, third } = await ruling(s);
      const first = expectOk<Recorded>(await record(addArgs(documentId)));
      expect(await record(addArgs(documentId))).toMatchObject({ replayed: true });
      await s.db.db.delete(kvEntries);
      expect(expectOk<Recorded>(await record(addArgs(documentId)))).toMatchObject({
        created: false,
        halacha: { halacha_id: first.halacha.halacha_id },
      });
      const correct = {
        action: 'correct',
        halacha_id: cutWrong.id,
        page: 1,
        quote: TEST,
        rationale: 'רק הכלל',
      };
      const c1 = expectOk<Recorded>(await record(correct));
      await s.db.db.delete(kvEntries);
      expect(expectOk<Recorded>(await record(correct))).toMatchObject({
        created: false,
        halacha: { halacha_id: c1.halacha.halacha_id },
      });
      // A rejected candidate cannot be re-quoted again, nor its passage added back.
      expect(errorCode(await record({ ...correct, quote: 'המבחן הוא אם הסטייה פוגעת' }))).toBe(
        'invalid_state',
      );
      expect(errorCode(await record(addArgs(documentId, { page: 1, quote: cutWrong.text })))).toBe(
        'invalid_state',
      );
      const reject = { action: 'reject', halacha_id: third.id, rationale: 'אמרת אגב' };
      expect(expectOk<Recorded>(await record(reject)).created).toBe(true);
      await s.db.db.delete(kvEntries);
      expect(expectOk<Recorded>(await record(reject)).created).toBe(false);
      await s.db.db.delete(kvEntries);
      expect(errorCode(await record({ ...reject, rationale: 'אחר' }))).toBe('idempotency_key_reuse');
    },
    SLOW,
  );

  it(
    'refuses what cannot be recorded, naming the argument',
    async () => {
      const s = server();
      const { documentId, first } = await ruling(s);
      const issues = async (args: Record<string, unknown>) => {
        const env = await record(args);
        expect(errorCode(env)).toBe('invalid_args');
        const found = env.ok ? [] : ((env.error.details?.issues ?? []) as { path: string }[]);
        return found.map((i) => i.path).sort();
      };
      expect(await issues({ action: 'add' })).toEqual(['document_id', 'page', 'quote']);
      expect(await issues({ action: 'reject', halacha_id: first.id })).toEqual(['rationale']);
      expect(await issues({ ...addArgs(documentId), halacha_id: first.id })).toEqual(['halacha_id']);
      expect(await issues(addArgs(documentId, { quote: 'מילים שאינן בעמוד' }))).toEqual(['quote']);
      expect(await issues(addArgs(documentId, { page: 9 }))).toEqual(['page']);
      expect(
        await issues({
          action: 'correct',
          halacha_id: first.id,
          page: first.page,
          quote: first.text,
          rationale: 'ר',
        }),
      ).toEqual(['quote']);
      const { caseId, docs } = await seedCaseFile(s.db.db, { names: ['appeal'] });
      expect(await issues(addArgs(docs.appeal, { page: 1, quote: 'ערר' }))).toEqual(['document_id']);
      expect(errorCode(await record(addArgs(crypto.randomUUID())))).toBe('not_found');
      expect(
        errorCode(await record({ action: 'reject', halacha_id: crypto.randomUUID(), rationale: 'ר' })),
      ).toBe('not_found');
      const { document } = await createDocument(s.db.db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes(`ממתין ${crypto.randomUUID()}`),
        title: 'ממתין',
        createdBy: 'test',
      });
      expect(errorCode(await record(addArgs(document.id, { page: 1 })))).toBe('invalid_state');
      expect(caseId).toBeTruthy();
    },
    SLOW,
  );

  it(
    'a document of a deleted case is not_found and nothing is written',
    async () => {
      const s = server();
      const { caseId, docs } = await seedCaseFile(s.db.db, { names: ['appeal'] });
      await deleteCase(s.db.db, caseId);
      const before = (await s.db.db.select().from(holdings)).length;
      expect(errorCode(await record(addArgs(docs.appeal, { page: 1, quote: 'ערר' })))).toBe('not_found');
      expect((await s.db.db.select().from(holdings)).length).toBe(before);
    },
    SLOW,
  );
});

forEachStack('halacha_record under concurrency', ALL_STACKS, (server) => {
  it(
    '20 identical adds and 20 identical rejections at once: one candidate, one review',
    async () => {
      const s = server();
      const { documentId, third } = await ruling(s);
      const adds = await twentyAtOnce(s, 'halacha_record', addArgs(documentId), ['researcher']);
      expect(new Set(adds.map((a) => expectOk<Recorded>(a).halacha.halacha_id)).size).toBe(1);
      expect(
        (await s.db.db.select().from(holdings).where(eq(holdings.documentId, documentId))).filter(
          (h) => h.origin === 'recorded',
        ),
      ).toHaveLength(1);
      const rejections = await twentyAtOnce(
        s,
        'halacha_record',
        { action: 'reject', halacha_id: third.id, rationale: 'אמרת אגב' },
        ['researcher'],
      );
      for (const r of rejections) expect(expectOk<Recorded>(r).halacha.status).toBe('rejected');
      expect(
        await s.db.db.select().from(holdingReviews).where(eq(holdingReviews.holdingId, third.id)),
      ).toHaveLength(1);
    },
    SLOW,
  );
});

deniedTo('halacha_record', 'analyst', (c) => addArgs(c.docs.appeal, { page: 1, quote: 'ערר' }));
