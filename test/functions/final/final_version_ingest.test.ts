// final_version_ingest: the chair's edited export taken back (tracked changes, an added paragraph, a direct
// edit, a comment): every block found by its anchors, final text per block with every revision accepted, the
// parity (accept all → the revised text, reject all → the exported text), edit ratios, the case decided with
// its final text, the decision among the internal decisions; a text final version; idempotent on the file's
// SHA-256; the owner's gate; refusals; a deleted case; 20 at once; no grant.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { cases } from '../../../src/db/schema/cases.ts';
import { documents } from '../../../src/db/schema/documents.ts';
import { draftExports, finalVersionBlocks, finalVersions } from '../../../src/db/schema/drafting.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { readDocx } from '../../../src/drafting/docx_reader.ts';
import { mapBlocks } from '../../../src/drafting/final.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk, type TestServer } from '../../harness/server.ts';
import { draftingCase, type Exported, fullBlocks } from '../block/_drafting.ts';
import { CHAIR, chairAddParagraphs, chairEdit, WHEN } from './_chair.ts';

interface Ingested {
  final_version_id: string;
  created: boolean;
  format: string;
  export_id: string | null;
  document_id: string | null;
  blocks: { key: string; found: boolean; edit_ratio: number | null; changes: number; comments: number }[];
  changes: { block: string; type: string; author: string | null; date: string | null; text: string }[];
  comments: { block: string; author: string | null; text: string; anchored_text: string }[];
}

const GATE = { owner_ack: true, reason: 'ההחלטה נחתמה' };
const EDITS = {
  tracked: { find: 'בחלקה 12', replace: 'בחלקה 14' },
  added: { after: 'בגוש 6543', text: 'הבקשה הוגשה בשנת 2024.' },
  direct: { find: 'אין צו להוצאות.', replace: 'אין צו להוצאות, בנסיבות העניין.' },
  comment: { on: 'אין בה הוראה המתירה', text: 'יש להפנות לסעיף התכנית.' },
};
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

async function exported(s: TestServer) {
  const c = await draftingCase(s);
  expectOk(await s.call('writer', 'block_write', { case_id: c.caseId, blocks: fullBlocks(c) }));
  const out = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: c.caseId }));
  return { c, out, bytes: new Uint8Array(Buffer.from(out.content_base64 ?? '', 'base64')) };
}

forEachStack('final_version_ingest', DB_STACKS, (server) => {
  it('takes back the chair’s edited export: blocks found, revisions per block, edit ratios, the case decided', async () => {
    const s = server();
    const { c, out, bytes } = await exported(s);
    const edited = await chairEdit(bytes, EDITS);
    const env = await s.call('ceo', 'final_version_ingest', {
      case_id: c.caseId,
      content_base64: b64(edited),
      ...GATE,
    });
    const res = expectOk<Ingested>(env);
    expect(res).toMatchObject({ created: true, format: 'docx', export_id: out.export_id });
    expect(res.blocks.map((b) => b.key)).toEqual(out.blocks.map((b) => b.key));
    expect(res.blocks.every((b) => b.found)).toBe(true);
    const ratio = Object.fromEntries(res.blocks.map((b) => [b.key, b.edit_ratio]));
    expect(ratio.header).toBe(0);
    expect(ratio.outcome).toBe(0);
    expect(ratio.background).toBeGreaterThan(0);
    expect(ratio.costs).toBeGreaterThan(0);
    expect(ratio.costs).toBeLessThan(1);
    expect(res.changes).toEqual([
      { block: 'background', type: 'deletion', author: CHAIR, date: WHEN, text: 'בחלקה 12' },
      { block: 'background', type: 'insertion', author: CHAIR, date: WHEN, text: 'בחלקה 14' },
      { block: 'background', type: 'insertion', author: CHAIR, date: WHEN, text: 'הבקשה הוגשה בשנת 2024.' },
    ]);
    expect(res.comments).toEqual([
      {
        block: 'discussion:plan',
        author: CHAIR,
        date: WHEN,
        text: 'יש להפנות לסעיף התכנית.',
        anchored_text: 'אין בה הוראה המתירה את הבקשה.',
      },
    ]);
    // Stored per block: the final text with every revision accepted.
    const rows = await s.db.db
      .select()
      .from(finalVersionBlocks)
      .where(eq(finalVersionBlocks.finalId, res.final_version_id));
    const bg = rows.find((r) => r.key === 'background');
    expect(bg?.finalText).toBe(
      'העוררים הם בעלי הזכויות בחלקה 14 בגוש 6543.\nהבקשה הוגשה בשנת 2024.\nהוועדה המקומית דחתה את הבקשה להיתר.',
    );
    expect(bg?.exportedText).toBe(
      'העוררים הם בעלי הזכויות בחלקה 12 בגוש 6543.\nהוועדה המקומית דחתה את הבקשה להיתר.',
    );
    expect(rows.find((r) => r.key === 'costs')?.finalText).toBe('אין צו להוצאות, בנסיבות העניין.');
    // The final text is served; the case is decided; the decision joins the internal decisions.
    const final = expectOk<{ final_text: string }>(
      await s.call('writer', 'case_final_text_get', { case_id: c.caseId }),
    );
    expect(final.final_text).toContain('1. העוררים הם בעלי הזכויות בחלקה 14 בגוש 6543.');
    expect(final.final_text).toContain('2. הבקשה הוגשה בשנת 2024.');
    expect(final.final_text).not.toContain('בחלקה 12');
    const [row] = await s.db.db.select().from(cases).where(eq(cases.id, c.caseId));
    expect(row?.status).toBe('decided');
    const [doc] = await s.db.db
      .select()
      .from(documents)
      .where(eq(documents.id, res.document_id ?? ''));
    expect(doc).toMatchObject({ corpus: 'internal', number: row?.caseNumber });
    // The draft is closed now.
    expect(
      errorCode(
        await s.call('writer', 'block_write', {
          case_id: c.caseId,
          blocks: [{ kind: 'outcome', text: 'x' }],
        }),
      ),
    ).toBe('invalid_state');
  });

  it('parity: every revision accepted gives the revised text, every one rejected gives the exported text', async () => {
    const s = server();
    const { out, bytes } = await exported(s);
    const edited = await chairEdit(bytes, {
      ...EDITS,
      direct: { find: 'הערר נדחה.', replace: 'הערר נדחה.' },
    });
    const [exp] = await s.db.db.select().from(draftExports).where(eq(draftExports.id, out.export_id));
    const before = mapBlocks(await readDocx(bytes), exp?.blocks ?? []);
    const after = mapBlocks(await readDocx(edited), exp?.blocks ?? []);
    for (const [i, b] of after.entries()) {
      expect(b.rejectedText, b.key).toBe(before[i]?.finalText);
    }
    const bg = after.find((b) => b.key === 'background');
    expect(bg?.finalText).toBe(
      'העוררים הם בעלי הזכויות בחלקה 14 בגוש 6543.\nהבקשה הוגשה בשנת 2024.\nהוועדה המקומית דחתה את הבקשה להיתר.',
    );
    expect(
      after
        .filter((b) => b.key !== 'background')
        .every((b, i) => b.finalText === before.filter((x) => x.key !== 'background')[i]?.finalText),
    ).toBe(true);
  });

  it('a paragraph the chair adds after a block’s last paragraph or under a heading counts in that block; one under the appendix in none', async () => {
    const s = server();
    const { c, out, bytes } = await exported(s);
    const edited = await chairAddParagraphs(bytes, [
      // After background's last paragraph: outside its bookmark, before the next block's heading.
      { after: 'הוועדה המקומית דחתה את הבקשה להיתר.', text: 'הערר הוגש במועד.' },
      // Under a discussion's subheading, before the block's first paragraph.
      { after: 'סבירות ההחלטה', text: 'נפתח בעובדות.' },
      // Under the appendix heading: not a block's.
      { after: 'רשימת האסמכתאות', text: 'ראו גם את פסיקת בית המשפט העליון.' },
    ]);
    const [exp] = await s.db.db.select().from(draftExports).where(eq(draftExports.id, out.export_id));
    const mapped = mapBlocks(await readDocx(edited), exp?.blocks ?? []);
    const text = Object.fromEntries(mapped.map((b) => [b.key, b.finalText]));
    expect(text.background).toBe(
      'העוררים הם בעלי הזכויות בחלקה 12 בגוש 6543.\nהוועדה המקומית דחתה את הבקשה להיתר.\nהערר הוגש במועד.',
    );
    expect(text['discussion:reasonableness']).toBe('נפתח בעובדות.\nההחלטה סבירה ומנומקת.');
    expect(text.signature).toBe('ניתנה היום, פה אחד.');
    // The edit ratios: above zero for exactly the two blocks that gained a paragraph.
    const res = expectOk<Ingested>(
      await s.call('ceo', 'final_version_ingest', {
        case_id: c.caseId,
        content_base64: b64(edited),
        ...GATE,
      }),
    );
    const changed = res.blocks.filter((b) => (b.edit_ratio ?? 0) > 0).map((b) => b.key);
    expect(changed.sort()).toEqual(['background', 'discussion:reasonableness']);
    expect(res.blocks.every((b) => b.found)).toBe(true);
  });

  it('a text final version; the same file again is a replay; the owner’s gate; refusals; a deleted case', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    const args = { case_id: caseId, text: 'ועדת הערר\n\n1. הערר נדחה.', ...GATE };
    expect(errorCode(await s.call('ceo', 'final_version_ingest', { case_id: caseId, text: 'x' }))).toBe(
      'owner_gate_required',
    );
    const first = expectOk<Ingested>(await s.call('ceo', 'final_version_ingest', args));
    expect(first).toMatchObject({ created: true, format: 'text', export_id: null, blocks: [] });
    expect(await s.call('ceo', 'final_version_ingest', args)).toMatchObject({ replayed: true });
    // Without the key-value record the file's SHA-256 finds it.
    await s.db.db.delete(kvEntries);
    const again = expectOk<Ingested>(await s.call('ceo', 'final_version_ingest', args));
    expect(again).toMatchObject({
      created: false,
      final_version_id: first.final_version_id,
      document_id: first.document_id,
    });
    expect(await s.db.db.select().from(finalVersions).where(eq(finalVersions.caseId, caseId))).toHaveLength(
      1,
    );
    const pdf = b64(new TextEncoder().encode('%PDF-1.7 not really'));
    const refused = await s.call('ceo', 'final_version_ingest', {
      case_id: caseId,
      content_base64: pdf,
      ...GATE,
    });
    expect(errorCode(refused)).toBe('invalid_args');
    expect(errorCode(await s.call('ceo', 'final_version_ingest', { case_id: caseId, ...GATE }))).toBe(
      'invalid_args',
    );
    // Another case's export is refused.
    const { bytes } = await exported(s);
    const other = await s.call('ceo', 'final_version_ingest', {
      case_id: caseId,
      content_base64: b64(bytes),
      ...GATE,
    });
    expect(errorCode(other)).toBe('invalid_args');
    expect(JSON.stringify(other.ok ? null : other.error.details)).toContain('another case');
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await s.call('ceo', 'final_version_ingest', { ...args, text: 'אחר' }))).toBe(
      'not_found',
    );
  });
});

forEachStack('final_version_ingest at once', ALL_STACKS, (server) => {
  it('20 identical calls at once take the final version in once', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    const answers = await twentyAtOnce(
      s,
      'final_version_ingest',
      { case_id: caseId, text: 'הערר נדחה.', ...GATE },
      ['ceo'],
    );
    const ids = new Set(answers.map((a) => expectOk<Ingested>(a).final_version_id));
    expect(ids.size).toBe(1);
    expect(await s.db.db.select().from(finalVersions).where(eq(finalVersions.caseId, caseId))).toHaveLength(
      1,
    );
    const internal = await s.db.db
      .select()
      .from(documents)
      .where(
        and(
          eq(documents.corpus, 'internal'),
          eq(
            documents.title,
            (await s.db.db.select().from(cases).where(eq(cases.id, caseId)))[0]?.caseNumber ?? '',
          ),
        ),
      );
    expect(internal.length).toBeLessThanOrEqual(1);
  });
});

deniedTo('final_version_ingest', 'writer', (c) => ({ case_id: c.caseId, text: 'x', ...GATE }));
