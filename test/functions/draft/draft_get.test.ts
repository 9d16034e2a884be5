// draft_get: the blocks assembled in order with continuous paragraph numbering, headings once per kind, a
// placeholder for each required block not written; markdown and text; a deleted case; no grant.
import { expect, it } from 'vitest';
import { DB_STACKS, deleteCase, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { draftingCase, fullBlocks } from '../block/_drafting.ts';

interface Draft {
  text: string;
  paragraphs: number;
  missing: string[];
  blocks: {
    key: string | null;
    kind: string;
    first_paragraph: number | null;
    last_paragraph: number | null;
    placeholder: boolean;
  }[];
}

forEachStack('draft_get', DB_STACKS, (server) => {
  it('an interim draft shows a placeholder for each required block not written', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: caseId,
        blocks: [
          { kind: 'background', text: 'פסקה ראשונה.\nפסקה שנייה.' },
          { kind: 'outcome', text: 'הערר נדחה.' },
        ],
      }),
    );
    const env = await s.call('qa', 'draft_get', { case_id: caseId, format: 'text' });
    const d = expectOk<Draft>(env);
    expect(env.message).toContain('interim');
    expect(d.missing).toEqual(['header', 'appellant_claims', 'respondent_claims', 'discussion', 'signature']);
    expect(d.text).toContain('[טרם נכתב: כותרת ההחלטה]');
    expect(d.text).toContain('[טרם נכתב: טענות העוררים]');
    expect(d.text).toContain('[טרם נכתב: דיון והכרעה]');
    expect(d.text).toContain('1. פסקה ראשונה.\n\n2. פסקה שנייה.');
    expect(d.text).toContain('3. הערר נדחה.');
    expect(d.paragraphs).toBe(3);
    expect(d.blocks.map((b) => [b.kind, b.placeholder])).toEqual([
      ['header', true],
      ['background', false],
      ['appellant_claims', true],
      ['respondent_claims', true],
      ['discussion', true],
      ['outcome', false],
      ['signature', true],
    ]);
  });

  it('a whole decision: numbering continues across blocks; headings once; discussion titles; markdown', async () => {
    const s = server();
    const c = await draftingCase(s);
    expectOk(await s.call('writer', 'block_write', { case_id: c.caseId, blocks: fullBlocks(c) }));
    const d = expectOk<Draft>(await s.call('analyst', 'draft_get', { case_id: c.caseId }));
    expect(d.missing).toEqual([]);
    expect(d.text).not.toContain('טרם נכתב');
    const lines = d.text.split('\n\n').map((l) => l.trim());
    expect(lines.slice(0, 4)).toEqual([
      '**ועדת הערר לתכנון ולבנייה מחוז תל אביב**',
      '**ערר 1234/25**',
      '**פרידמן נ׳ הוועדה המקומית הרצליה**',
      '## רקע',
    ]);
    expect(lines.filter((l) => l === '## דיון והכרעה')).toHaveLength(1);
    expect(lines).toContain('### התכנית החלה');
    const numbers = lines
      .map((l) => /^(\d+)\. /.exec(l)?.[1])
      .filter((n) => n !== undefined)
      .map(Number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(d.paragraphs).toBe(numbers.length);
    expect(d.blocks.find((b) => b.key === 'discussion:plan')).toMatchObject({
      first_paragraph: 5,
      last_paragraph: 6,
    });
    expect(d.blocks.find((b) => b.kind === 'header')).toMatchObject({ first_paragraph: null });
    expect(lines.at(-1)).toBe('ניתנה היום, פה אחד.');
  });

  it('a deleted case is not_found', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await s.call('writer', 'draft_get', { case_id: caseId }))).toBe('not_found');
  });
});

deniedTo('draft_get', 'researcher', (c) => ({ case_id: c.caseId }), true);
